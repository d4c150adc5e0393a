/**
@module A small line emulator for command output. ANSI is treated as data: SGR colours and
attributes become span styles; `\r` (progress bars), `\b` and erase-in-line are applied to the line
being written; every other escape sequence (cursor moves, screen clears, OSC titles and clipboard
writes, DCS, APC, PM, SOS, 8-bit C1 controls) is dropped; any other control character is shown as
visible text by the sanitizer's rules. The result holds no escape byte, so nothing the command
printed can drive the user's terminal. A full terminal emulator is not needed for pipe output.
The SGR code table itself is sgr.ts, shared with the highlighter's parser.

The emulation can hide text the model still reads (`ignore previous instructions\rall tests
passed`). The rule that says when it did (docs/decisions/cards-and-layout.md): a line hides text
when a word — a run of letters — that the command wrote to it, in text later overwritten or erased
(`\r`, `\b`, erase-in-line) or inside a control string that is dropped (OSC, DCS, APC, PM, SOS),
does not appear in the line as shown. Digits, punctuation, symbols and blanks may change freely:
counters, bars and spinners redraw those, and a word that stays on the line (or that a longer word
shown contains, as overstrike bold builds `Hello` from `H`, `He`, …) is not lost.
*/
import {escapeUnsafe, sanitizeLine, TAB_STOP} from '../text/sanitize.js';
import {applySgr, blankStyle, sameStyle} from './sgr.js';
import type {Span, Style} from '../text/styled-line.js';
import {displayWidth, graphemeCount, graphemes} from '../text/text-width.js';

/** A grapheme, or (while only appending) a packed run of `count` graphemes. */
type Cell = {readonly text: string; readonly style: Style; readonly count?: number};

const blankCell: Cell = Object.freeze({text: ' ', style: blankStyle});

/** String terminators: BEL (OSC only, by xterm convention), `ESC \`, and 8-bit ST. */
function skipString(text: string, start: number, acceptBell: boolean): number {
	for (let index = start; index < text.length; index++) {
		const char = text[index];
		if ((char === '\x07' && acceptBell) || char === '\x9c') {
			return index + 1;
		}

		if (char === '\x1b' && text[index + 1] === '\\') {
			return index + 2;
		}
	}

	// Unterminated: everything to the end belongs to the string and is dropped.
	return text.length;
}

type Csi = {readonly end: number; readonly parameters: string; readonly final: string; readonly plain: boolean};

/** Parse a CSI sequence whose parameters start at `start`. `plain`: no private marker, no intermediates. */
function parseCsi(text: string, start: number): Csi {
	let index = start;
	let parameters = '';
	let plain = true;
	while (index < text.length) {
		const code = text.charCodeAt(index);
		if (code >= 0x30 && code <= 0x3f) {
			parameters += text[index];
			if (code > 0x3b) {
				plain = false; // `<`, `=`, `>`, `?` private markers
			}
		} else if (code >= 0x20 && code <= 0x2f) {
			plain = false;
		} else if (code >= 0x40 && code <= 0x7e) {
			return {end: index + 1, parameters, final: text[index]!, plain};
		} else {
			// A control or non-ASCII byte aborts the sequence; that character is processed normally.
			return {end: index, parameters, final: '', plain: false};
		}

		index++;
	}

	return {end: text.length, parameters, final: '', plain: false};
}

/**
The line being written: cells and the cursor, both counted in graphemes. While output only appends
(the common case), a whole run of text is kept as one packed cell; the first cursor move that needs
single graphemes unpacks the line. This keeps a 10 000-line plain output cheap.
*/
class LineBuffer {
	cells: Cell[] = [];
	/** Graphemes in the line (`cells.length` once unpacked). */
	length = 0;
	cursor = 0;
	private packed = false;
	/** Words written to this line that an overwrite, an erase or a dropped string may have hidden. */
	private seen: Set<string> | undefined;
	/** Whether cells changed since the last `remember`. */
	private dirty = false;
	/** Set when the word check ran out of budget: the line counts as hiding text. */
	private unchecked = false;
	/** Whether a line taken so far hid text. */
	hidesText = false;

	constructor(private readonly budget: {cells: number}) {}

	/** Write a run of graphemes at the cursor. `count` is their number; `text` their concatenation. */
	writeRun(text: string, count: number, style: Style): void {
		this.dirty = true;
		if (this.cursor === this.length) {
			this.cells.push(count > 1 ? {text, style, count} : {text, style});
			this.packed ||= count > 1;
			this.cursor += count;
			this.length += count;
			return;
		}

		for (const grapheme of count === text.length ? text : graphemes(text)) {
			this.write(grapheme, style);
		}
	}

	/** Write one grapheme at the cursor, overwriting what is there. */
	write(text: string, style: Style): void {
		this.dirty = true;
		this.unpack();
		while (this.cells.length < this.cursor) {
			this.cells.push(blankCell);
		}

		this.cells[this.cursor] = {text, style};
		this.cursor++;
		this.length = this.cells.length;
	}

	private unpack(): void {
		if (!this.packed) {
			return;
		}

		const cells: Cell[] = [];
		for (const cell of this.cells) {
			if (cell.count === undefined) {
				// One unit already (an escaped control such as `\x00` stays one cell).
				cells.push(cell);
				continue;
			}

			for (const grapheme of graphemes(cell.text)) {
				cells.push({text: grapheme, style: cell.style});
			}
		}

		this.cells = cells;
		this.length = cells.length;
		this.packed = false;
	}

	/** The display column of the cursor. */
	column(): number {
		if (this.cursor === this.length) {
			let column = 0;
			for (const cell of this.cells) {
				column += displayWidth(cell.text);
			}

			return column + this.cursor - this.length;
		}

		this.unpack();
		let column = 0;
		for (let index = 0; index < this.cursor; index++) {
			column += index < this.cells.length ? displayWidth(this.cells[index]!.text) : 1;
		}

		return column;
	}

	/**
	Before the cursor moves back or the line is erased: remember the words on it, which later writes
	may hide. Each look costs the line's length, from a budget for the whole output, so a long line
	rewritten one character at a time stays linear; past the budget the line counts as hiding text.
	*/
	remember(): void {
		if (!this.dirty || this.cells.length === 0) {
			return;
		}

		this.dirty = false;
		if (this.budget.cells < 0) {
			this.unchecked = true;
			return;
		}

		let size = 0;
		for (const cell of this.cells) {
			size += cell.text.length;
		}

		this.budget.cells -= size;
		if (this.budget.cells < 0) {
			this.unchecked = true;
			return;
		}

		let text = '';
		for (const cell of this.cells) {
			text += cell.text;
		}

		this.rememberWords(text);
	}

	/** Remember the words of `text`, written to this line but not shown (a dropped control string). */
	rememberWords(text: string): void {
		for (const [word] of text.matchAll(wordPattern)) {
			this.seen ??= new Set();
			this.seen.add(word);
		}
	}

	eraseInLine(mode: string): void {
		this.remember();
		this.unpack();
		if (mode === '' || mode === '0') {
			this.cells.length = Math.min(this.cells.length, this.cursor);
		} else if (mode === '1') {
			for (let index = 0; index <= this.cursor && index < this.cells.length; index++) {
				this.cells[index] = blankCell;
			}
		} else if (mode === '2') {
			this.cells = [];
		}

		this.length = this.cells.length;
	}

	/** Whether anything was written since the last newline. */
	isEmpty(): boolean {
		return this.cells.length === 0;
	}

	/** The finished line as spans, trailing unstyled blanks removed. */
	take(): Span[] {
		const spans: Span[] = [];
		let text = '';
		let style: Style = blankStyle;
		for (const cell of this.cells) {
			if (text !== '' && !sameStyle(cell.style, style)) {
				spans.push(style === blankStyle ? {text} : {text, style});
				text = '';
			}

			if (text === '') {
				style = cell.style;
			}

			text += cell.text;
		}

		if (text !== '') {
			spans.push(style === blankStyle ? {text} : {text, style});
		}

		// Trailing blanks in the default style are padding, not output.
		while (spans.length > 0 && spans.at(-1)!.style === undefined) {
			const last = spans.pop()!;
			const trimmed = trimTrailingSpaces(last.text);
			if (trimmed !== '') {
				spans.push({text: trimmed});
				break;
			}
		}

		if (this.unchecked || this.seen !== undefined) {
			let shown = '';
			for (const item of spans) {
				shown += item.text;
			}

			this.hidesText ||= this.unchecked || [...this.seen ?? []].some(word => !shown.includes(word));
		}

		this.cells = [];
		this.cursor = 0;
		this.length = 0;
		this.packed = false;
		this.seen = undefined;
		this.dirty = false;
		this.unchecked = false;
		return spans;
	}
}

/** A word, for the hidden-text rule: a run of letters (with their combining marks). */
const wordPattern = /[\p{L}\p{M}]+/gu;

/** Characters that end a run of plain text. */
// eslint-disable-next-line no-control-regex -- the emulator's job is the control characters
const special = /[\x00-\x1f\x7f-\x9f]/;
/** `special`, searched from `lastIndex`: one search a run instead of a test a character. */
// eslint-disable-next-line no-control-regex -- the emulator's job is the control characters
const nextSpecial = /[\x00-\x1f\x7f-\x9f]/g;

/** `text` without its trailing spaces (a line's padding). */
function trimTrailingSpaces(text: string): string {
	let end = text.length;
	while (end > 0 && text.charCodeAt(end - 1) === 0x20) {
		end--;
	}

	return end === text.length ? text : text.slice(0, end);
}

/** Command output as the emulation shows it, and whether that hides text the command wrote. */
export type TerminalScreen = {
	/** Logical lines of spans; styles are the SGR styles the command asked for (plain text has none). */
	readonly lines: Span[][];
	/** Whether some line hides text (the rule in this module's comment): the raw output says more. */
	readonly hidesText: boolean;
};

/**
Command output as logical lines of spans. Styles are the SGR styles the command asked for (plain text
has no style); the caller maps them onto the theme. A trailing newline does not add an empty line.
*/
export function parseTerminalOutput(text: string): Span[][] {
	return emulateTerminalOutput(text).lines;
}

/** Cells the hidden-text check may look at per character of output, beyond a fixed allowance. */
const CHECK_CELLS_PER_CHAR = 4;
const CHECK_CELLS_BASE = 1 << 20;

/**
The raw output as rows of text: every character the command wrote, controls shown escaped by the
sanitizer, a row for each line and a new row after each lone `\r` — so a progress bar's redraws
read one per row. A trailing newline does not add an empty row.
*/
export function rawOutputLines(text: string): string[] {
	const rows: string[] = [];
	const lines = text.split(/\r?\n/);
	if (lines.at(-1) === '') {
		lines.pop();
	}

	for (const line of lines) {
		for (const piece of line.split(/(?<=\r)(?!$)/)) {
			rows.push(sanitizeLine(piece));
		}
	}

	return rows;
}

/**
The controls through which output can hide text (the rule in this module's comment): `\r` and `\b`
move back over written text, ESC starts erase-in-line and the dropped control strings, and the 8-bit
C1 introducers start the other strings. Output without any of them shows every word it wrote.
*/
// eslint-disable-next-line no-control-regex -- the emulator's job is the control characters
const mayHideText = /[\r\b\x1b\x80-\x9f]/;

/**
Whether the emulated output hides text the command wrote: `emulateTerminalOutput(text).hidesText`,
without emulating output that holds none of the controls that can hide text (`--json` asks this of
every command card; most output has no such control).
*/
export function outputHidesText(text: string): boolean {
	if (!mayHideText.test(text)) {
		return false;
	}

	// Colours only style what they precede: output whose every ESC starts an SGR sequence (as the
	// emulation parses it, left to right) hides nothing either — the commonest coloured output.
	return (!text.includes('\x1b') || mayHideText.test(text.replaceAll(sgrSequence, ''))) && emulateTerminalOutput(text).hidesText;
}

/** A 7-bit SGR sequence (`ESC [ 1;31 m`), which the emulation turns into a style and nothing else. */
// eslint-disable-next-line no-control-regex -- the emulator's job is the control characters
const sgrSequence = /\x1b\[[\d;]*m/g;

/**
Command output emulated as a line printer with `\r`, `\b` and erase-in-line (see the module comment).
`until`: stop once the lines taken so far satisfy it (a summary needs only the first line with
text); a line is final when its newline is read, so those lines are the ones a whole run gives,
and `hidesText` then speaks for them only.
*/
export function emulateTerminalOutput(text: string, until?: (lines: readonly Span[][]) => boolean): TerminalScreen {
	// Fast path: output with no control character but newlines has nothing to emulate, nothing to hide.
	// eslint-disable-next-line no-control-regex -- the emulator's job is the control characters
	if (!/[\x00-\x09\x0b-\x1f\x7f-\x9f]/.test(text)) {
		const lines: Span[][] = [];
		// Line by line (a newline at the very end adds no empty line).
		let start = 0;
		while (start < text.length) {
			const lineBreak = text.indexOf('\n', start);
			const end = lineBreak < 0 ? text.length : lineBreak;
			const trimmed = escapeUnsafe(trimTrailingSpaces(text.slice(start, end)));
			lines.push(trimmed === '' ? [] : [{text: trimmed}]);
			if (until?.(lines) === true) {
				break;
			}

			start = end + 1;
		}

		return {lines, hidesText: false};
	}

	const lines: Span[][] = [];
	const line = new LineBuffer({cells: CHECK_CELLS_PER_CHAR * text.length + CHECK_CELLS_BASE});
	let style: Style = blankStyle;
	let index = 0;
	while (index < text.length) {
		const char = text[index]!;
		const code = char.charCodeAt(0);
		if (!special.test(char)) {
			// A run of ordinary text up to the next control character.
			nextSpecial.lastIndex = index + 1;
			const end = nextSpecial.exec(text)?.index ?? text.length;

			const run = text.slice(index, end);
			if (/^[\x20-\x7e]*$/.test(run)) {
				line.writeRun(run, run.length, style);
			} else {
				const safe = escapeUnsafe(run);
				line.writeRun(safe, graphemeCount(safe), style);
			}

			index = end;
			continue;
		}

		index++;
		if (char === '\n') {
			lines.push(line.take());
			if (until?.(lines) === true) {
				return {lines, hidesText: line.hidesText};
			}
		} else if (char === '\r') {
			if (text[index] !== '\n') {
				line.remember();
				line.cursor = 0;
			}
		} else if (char === '\b') {
			if (line.cursor > 0) {
				line.remember();
			}

			line.cursor = Math.max(0, line.cursor - 1);
		} else if (char === '\t') {
			const column = line.column();
			const next = (Math.floor(column / TAB_STOP) + 1) * TAB_STOP;
			for (let fill = column; fill < next; fill++) {
				line.write(' ', style);
			}
		} else if (char === '\x07') {
			// BEL: a stray bell is noise, never shown.
		} else if (char === '\x1b' || char === '\x9b' || char === '\x9d' || char === '\x90' || char === '\x98' || char === '\x9e' || char === '\x9f') {
			const introducer = char === '\x1b' ? text[index] : undefined;
			if (char === '\x1b') {
				if (introducer === undefined || introducer.charCodeAt(0) < 0x20 || introducer.charCodeAt(0) > 0x7e) {
					// A bare ESC: shown, never sent.
					line.write('\\x1b', style);
					continue;
				}

				index++;
			}

			if (introducer === '[' || char === '\x9b') {
				const csi = parseCsi(text, index);
				index = csi.end;
				// Only 7-bit SGR and erase-in-line are honoured; 8-bit CSI is dropped whole.
				if (char === '\x1b' && csi.plain && csi.final === 'm') {
					style = applySgr(style, csi.parameters);
				} else if (char === '\x1b' && csi.plain && csi.final === 'K') {
					line.eraseInLine(csi.parameters);
				}
			} else if (introducer === ']' || char === '\x9d') {
				const end = skipString(text, index, true);
				line.rememberWords(text.slice(index, end));
				index = end;
			} else if (introducer === 'P' || introducer === 'X' || introducer === '^' || introducer === '_' || char !== '\x1b') {
				const end = skipString(text, index, false);
				line.rememberWords(text.slice(index, end));
				index = end;
			} else {
				// nF / Fp / Fe / Fs escapes: intermediates 0x20–0x2F, then one final byte.
				let end = index - 1;
				while (end < text.length && text.charCodeAt(end) >= 0x20 && text.charCodeAt(end) <= 0x2f) {
					end++;
				}

				const finalCode = text.charCodeAt(end);
				index = finalCode >= 0x30 && finalCode <= 0x7e ? end + 1 : end;
			}
		} else if (code >= 0x80 && code <= 0x9f) {
			// Other C1 controls: dropped.
		} else {
			// Any other C0 control or DEL: visible, so the output is honest about it.
			line.write(escapeUnsafe(char), style);
		}
	}

	if (!line.isEmpty()) {
		lines.push(line.take());
	} else {
		// Words remembered on an empty last line (erased, or a dropped string) are hidden too.
		line.take();
	}

	return {lines, hidesText: line.hidesText};
}
