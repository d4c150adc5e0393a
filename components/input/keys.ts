/**
@module Keys from terminal input: one parser for the interactive prompt and the pager, total over
any string. Fast typing, tmux send-keys and pastes arrive as one chunk, and a terminal (or a paste)
may send any escape sequence, so the parser never trusts a chunk to be one key: printable runs stay
together as text, C0 controls become their keys, escape sequences are parsed by their ECMA-48
shape, and a sequence that is not a key (SGR, a mouse report, a focus report, a paste marker, a reply) is dropped
whole — never typed as text, never a crash. Bracketed paste (CSI 200~ … 201~) spans chunks, so
it is read by `KeyStream` (key-stream.ts), which uses `parseKeys` between and inside pastes.
*/

/** What a key press carries besides its text (the subset of Ink's `Key` cardterm reads). */
export type Key = {
	readonly upArrow?: boolean;
	readonly downArrow?: boolean;
	readonly leftArrow?: boolean;
	readonly rightArrow?: boolean;
	readonly pageUp?: boolean;
	readonly pageDown?: boolean;
	readonly home?: boolean;
	readonly end?: boolean;
	readonly return?: boolean;
	readonly escape?: boolean;
	readonly tab?: boolean;
	readonly backspace?: boolean;
	/** Forward delete (the Delete key, CSI 3~). */
	readonly delete?: boolean;
	readonly ctrl?: boolean;
	readonly meta?: boolean;
	readonly shift?: boolean;
	/** A bracketed paste: `input` is the pasted text, newlines as `\n` (never a key to interpret). */
	readonly paste?: boolean;
};

/** One key press: `input` is the typed text (a run of printable characters) or the letter of Ctrl+letter. */
export type KeyPress = {readonly input: string; readonly key: Key};

type KeyName = 'upArrow' | 'downArrow' | 'leftArrow' | 'rightArrow' | 'pageUp' | 'pageDown' | 'home' | 'end' | 'delete' | 'tab';

/** Final bytes of CSI and SS3 keys without a number: arrows, home, end, back-tab. */
const letterKeys: Readonly<Record<string, KeyName>> = {A: 'upArrow', B: 'downArrow', C: 'rightArrow', D: 'leftArrow', H: 'home', F: 'end', Z: 'tab'};

/** `CSI n ~` keys (xterm, rxvt, the Linux console). */
const tildeKeys: Readonly<Record<string, KeyName>> = {1: 'home', 3: 'delete', 4: 'end', 5: 'pageUp', 6: 'pageDown', 7: 'home', 8: 'end'};

const ESC = 0x1b;
const CSI_8BIT = 0x9b;

/** Modifier bits of xterm's `1;m` parameter (m − 1): shift 1, alt 2, ctrl 4, meta 8. */
function modifiers(parameter: string | undefined): Key {
	const value = parameter === undefined ? 1 : Number.parseInt(parameter, 10);
	const bits = Number.isSafeInteger(value) && value >= 1 ? value - 1 : 0;
	return {
		...((bits & 1) === 0 ? {} : {shift: true}),
		...((bits & 10) === 0 ? {} : {meta: true}),
		...((bits & 4) === 0 ? {} : {ctrl: true}),
	};
}

/** The key a complete CSI sequence (`parameters` then `final`) stands for, if any. */
function csiKey(parameters: string, intermediates: string, final: string): Key | undefined {
	if (intermediates !== '' || !/^[\d;]*$/.test(parameters)) {
		return undefined;
	}

	const [first, second, ...rest] = parameters.split(';');
	if (first === '27' && final === '~' && rest.length === 1 && rest[0] === '13') {
		// xterm's modifyOtherKeys: `CSI 27 ; m ; 13 ~` is Enter with modifiers (Shift+Enter).
		return {return: true, ...modifiers(second)};
	}

	if (rest.length > 0) {
		return undefined;
	}

	if (first === '13' && final === 'u') {
		// The kitty keyboard protocol's (CSI u) Enter with modifiers.
		return {return: true, ...modifiers(second)};
	}

	const letter = letterKeys[final];
	if (letter !== undefined && (first === '' || first === '1')) {
		return {[letter]: true, ...modifiers(second), ...(final === 'Z' ? {shift: true} : {})};
	}

	const named = final === '~' ? tildeKeys[first ?? ''] : undefined;
	return named === undefined ? undefined : {[named]: true, ...modifiers(second)};
}

/** A control character alone (or after ESC, with `meta`) as its key, or undefined when it is no key. */
function controlKey(code: number): KeyPress | undefined {
	if (code === 0x0d || code === 0x0a) {
		return {input: '', key: {return: true}};
	}

	if (code === 0x7f || code === 0x08) {
		return {input: '', key: {backspace: true}};
	}

	if (code === 0x09) {
		return {input: '', key: {tab: true}};
	}

	if (code >= 0x01 && code <= 0x1a) {
		// Ctrl+A … Ctrl+Z, as Ink reports them.
		return {input: String.fromCharCode(code + 0x60), key: {ctrl: true}};
	}

	return undefined;
}

const isParameter = (code: number): boolean => code >= 0x30 && code <= 0x3f;
const isIntermediate = (code: number): boolean => code >= 0x20 && code <= 0x2f;
const isFinal = (code: number): boolean => code >= 0x40 && code <= 0x7e;
/** Characters typed as text: not C0, DEL or C1. */
const isText = (code: number): boolean => (code >= 0x20 && code < 0x7f) || code > 0x9f;

/** A cursor over one chunk of input. */
class KeyReader {
	readonly #chunk: string;
	#index = 0;

	constructor(chunk: string) {
		this.#chunk = chunk;
	}

	/** Every press in the chunk; text runs between keys are one press each. */
	presses(): KeyPress[] {
		const presses: KeyPress[] = [];
		let text = '';
		const flush = (): void => {
			if (text !== '') {
				presses.push({input: text, key: {}});
				text = '';
			}
		};

		const chunk = this.#chunk;
		while (this.#index < chunk.length) {
			const code = chunk.charCodeAt(this.#index);
			if (isText(code)) {
				const size = chunk.codePointAt(this.#index)! > 0xff_ff ? 2 : 1;
				text += chunk.slice(this.#index, this.#index + size);
				this.#index += size;
				continue;
			}

			flush();
			for (const press of this.#control()) {
				presses.push(press);
			}
		}

		flush();
		return presses;
	}

	/** The key(s) of the control character at the cursor; none when it is no key. */
	#control(): KeyPress[] {
		const chunk = this.#chunk;
		const code = chunk.charCodeAt(this.#index++);
		if (code === ESC) {
			return this.#afterEscape();
		}

		if (code === CSI_8BIT) {
			return this.#csi();
		}

		if (code === 0x0d && chunk.charCodeAt(this.#index) === 0x0a) {
			// CR LF (a pasted Windows line end) is one Enter.
			this.#index++;
		}

		// Other C0 and C1 controls that are no key are dropped.
		const press = controlKey(code);
		return press === undefined ? [] : [press];
	}

	/** What follows an ESC: a sequence, Alt+key, or Escape itself. */
	#afterEscape(): KeyPress[] {
		const chunk = this.#chunk;
		const next = chunk.charCodeAt(this.#index);
		if (Number.isNaN(next)) {
			return [{input: '', key: {escape: true}}];
		}

		if (next === 0x5b) {
			this.#index++;
			return this.#csi();
		}

		if (next === 0x4f) {
			// SS3: `ESC O` and one final byte (application-mode arrows, home, end, F1–F4).
			const final = chunk[this.#index + 1];
			const complete = final !== undefined && isFinal(final.charCodeAt(0));
			this.#index += complete ? 2 : 1;
			const name = complete ? letterKeys[final] : undefined;
			return name === undefined ? [] : [{input: '', key: {[name]: true}}];
		}

		if (next === ESC) {
			// ESC ESC: Escape pressed twice, or Alt with a key that itself starts with ESC.
			this.#index++;
			return this.#afterEscape().map(press => (press.key.escape ? press : {input: press.input, key: {...press.key, meta: true}}));
		}

		if (isText(next)) {
			// Alt+character: the character with `meta`, as Ink reports it.
			const character = String.fromCodePoint(chunk.codePointAt(this.#index)!);
			this.#index += character.length;
			return [{input: character, key: {meta: true}}];
		}

		this.#index++;
		const press = controlKey(next);
		return press === undefined ? [] : [{input: press.input, key: {...press.key, meta: true}}];
	}

	/**
	A CSI whose parameters start at the cursor: its key, or nothing when it is no key (SGR, a report,
	a paste marker) or is cut short. Either way the whole sequence is consumed.
	*/
	#csi(): KeyPress[] {
		const chunk = this.#chunk;
		const start = this.#index;
		if (chunk[start] === '[') {
			// The Linux console's F1–F5: `ESC [ [ A`…, one more byte.
			this.#index = Math.min(chunk.length, start + 2);
			return [];
		}

		let end = start;
		while (end < chunk.length && isParameter(chunk.charCodeAt(end))) {
			end++;
		}

		const parametersEnd = end;
		while (end < chunk.length && isIntermediate(chunk.charCodeAt(end))) {
			end++;
		}

		if (end >= chunk.length || !isFinal(chunk.charCodeAt(end))) {
			// Cut short, or broken by a byte no CSI holds: drop what was read and go on from that byte.
			this.#index = end;
			return [];
		}

		this.#index = end + 1;
		const key = csiKey(chunk.slice(start, parametersEnd), chunk.slice(parametersEnd, end), chunk[end]!);
		return key === undefined ? [] : [{input: '', key}];
	}
}

/** A focus report (DECSET 1004: CSI I gained, CSI O lost) in `chunk`, the last one when there are several; never a key. */
export function focusReport(chunk: string): 'in' | 'out' | undefined {
	let found: 'in' | 'out' | undefined;
	// eslint-disable-next-line no-control-regex -- the reports are escape sequences
	for (const match of chunk.matchAll(/(?:\u001B\[|\u009B)([IO])/g)) {
		found = match[1] === 'I' ? 'in' : 'out';
	}

	return found;
}

/**
The key presses in `chunk`, in order. Text runs are one press each; an incomplete sequence at the
end is dropped (Ink's reader holds a sequence back until it is complete or times out).
*/
export function parseKeys(chunk: string): KeyPress[] {
	return new KeyReader(chunk).presses();
}
