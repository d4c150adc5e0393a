/**
@module The prompt's line editor as a pure reducer: text, cursor, history walk, and pasted blocks.
Keys arrive as `parseKeys` reports them; the reducer returns the next state and whether the line was
submitted. A paste of several lines (or a very long one) stays whole in the text but is one unit of
editing, drawn as a chip (`[Pasted text #1 +3 lines]`, as Claude Code draws it): the cursor steps
over it, a deletion that touches it removes all of it, and Enter sends the text whole.
*/
import type {Key} from './keys.js';

/** A pasted block inside the text: `[start, end)` in code units, and what the prompt draws for it. */
export type PastedBlock = {readonly start: number; readonly end: number; readonly label: string};

export type LineState = {
	readonly text: string;
	/** Cursor position as a code-unit index into `text`; never inside a pasted block. */
	readonly cursor: number;
	/** Index into history while walking it (history.length = the line being edited). */
	readonly historyIndex: number;
	/** The line being edited before the history walk started. */
	readonly draft: string;
	/** Pasted blocks shown as chips, in text order (absent: none). */
	readonly pastes?: readonly PastedBlock[];
	/** The pasted blocks of `draft`, while the history walk shows another line. */
	readonly draftPastes?: readonly PastedBlock[];
	/** Chips made for this input so far: the next is numbered one more (`#2`). */
	readonly pasteCount?: number;
};

/** A single-line paste longer than this is a chip too (a 5 000-character JSON line is no line to edit). */
export const PASTE_CHIP_CHARS = 1000;

export const emptyLine = (historyLength: number): LineState => ({text: '', cursor: 0, historyIndex: historyLength, draft: ''});

/** The state with `text`, `cursor` and pasted blocks replaced; absent fields stay absent, so plain lines compare plainly. */
function withText(state: LineState, text: string, cursor: number, pastes: readonly PastedBlock[] | undefined): LineState {
	const {pastes: _old, ...rest} = state;
	return pastes === undefined || pastes.length === 0 ? {...rest, text, cursor} : {...rest, text, cursor, pastes};
}

/** The text with `inserted` at the cursor, the cursor after it; blocks after the cursor move along. */
function insert(state: LineState, inserted: string): LineState {
	const {text, cursor} = state;
	const pastes = state.pastes?.map(block => block.start >= cursor ? {...block, start: block.start + inserted.length, end: block.end + inserted.length} : block);
	return withText(state, text.slice(0, cursor) + inserted + text.slice(cursor), cursor + inserted.length, pastes);
}

/** Removes `[from, to)`, widened to every pasted block it touches; the cursor ends where the removal began. */
function remove(state: LineState, from: number, to: number): LineState {
	let start = from;
	let end = to;
	for (const block of state.pastes ?? []) {
		if (block.start < end && block.end > start) {
			start = Math.min(start, block.start);
			end = Math.max(end, block.end);
		}
	}

	const removed = end - start;
	const pastes = state.pastes?.filter(block => block.end <= start || block.start >= end).map(block => block.start >= end ? {...block, start: block.start - removed, end: block.end - removed} : block);
	return withText(state, state.text.slice(0, start) + state.text.slice(end), start, pastes);
}

/** The pasted block `at` is strictly inside, if any. */
function blockAround(state: LineState, at: number): PastedBlock | undefined {
	return state.pastes?.find(block => block.start < at && at < block.end);
}

/** A paste: a block of several lines (or a very long line) as one chip, anything else as typed text. */
function paste(state: LineState, input: string): LineState {
	// A copied line usually ends with its line end: one line is still one line.
	const text = /^[^\n]*\n$/u.test(input) ? input.slice(0, -1) : input;
	if (!text.includes('\n') && text.length <= PASTE_CHIP_CHARS) {
		return insert(state, text);
	}

	const number = (state.pasteCount ?? 0) + 1;
	const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
	const label = lines > 1 ? `[Pasted text #${number} +${lines} lines]` : `[Pasted text #${number} ${text.length} chars]`;
	const inserted = insert(state, text);
	const block: PastedBlock = {start: state.cursor, end: state.cursor + text.length, label};
	const pastes = [...inserted.pastes ?? [], block].sort((a, b) => a.start - b.start);
	return {...inserted, pastes, pasteCount: number};
}

/** Apply one key press. `submitted` carries the line when Enter was pressed. */
export function editLine(state: LineState, input: string, key: Key, history: readonly string[]): {state: LineState; submitted?: string} {
	const {text, cursor} = state;
	if (key.paste) {
		// Pasted text goes in as text, newlines and all: nothing runs until Enter.
		return {state: paste(state, input)};
	}

	if (key.return && (key.shift || key.meta)) {
		// Shift+Enter and Alt+Enter start a new line of the same input.
		return {state: insert(state, '\n')};
	}

	if (key.return && cursor > 0 && text[cursor - 1] === '\\' && blockAround(state, cursor - 1) === undefined && !state.pastes?.some(block => block.end === cursor)) {
		// A backslash before Enter continues the input on a new line, as in a shell.
		return {state: insert(remove(state, cursor - 1, cursor), '\n')};
	}

	if (key.return) {
		return {state: emptyLine(history.length + (text.trim() === '' ? 0 : 1)), submitted: text};
	}

	if (key.upArrow || key.downArrow) {
		const index = Math.max(0, Math.min(history.length, state.historyIndex + (key.upArrow ? -1 : 1)));
		if (index === state.historyIndex) {
			return {state};
		}

		const leaving = state.historyIndex === history.length;
		const draft = leaving ? text : state.draft;
		const draftPastes = leaving ? state.pastes : state.draftPastes;
		const next = index === history.length ? draft : history[index]!;
		const {pasteCount} = state;
		return {state: {
			text: next,
			cursor: next.length,
			historyIndex: index,
			draft,
			...(index === history.length && draftPastes !== undefined ? {pastes: draftPastes} : {}),
			...(index !== history.length && draftPastes !== undefined ? {draftPastes} : {}),
			...(pasteCount === undefined ? {} : {pasteCount}),
		}};
	}

	if (key.leftArrow) {
		const to = Math.max(0, cursor - 1);
		return {state: {...state, cursor: blockAround(state, to)?.start ?? to}};
	}

	if (key.rightArrow) {
		const to = Math.min(text.length, cursor + 1);
		return {state: {...state, cursor: blockAround(state, to)?.end ?? to}};
	}

	if (key.home || (key.ctrl && input === 'a')) {
		return {state: {...state, cursor: 0}};
	}

	if (key.end || (key.ctrl && input === 'e')) {
		return {state: {...state, cursor: text.length}};
	}

	if (key.ctrl && input === 'u') {
		return {state: remove(state, 0, cursor)};
	}

	if (key.ctrl && input === 'k') {
		return {state: remove(state, cursor, text.length)};
	}

	if (key.ctrl && input === 'w') {
		return {state: remove(state, text.slice(0, cursor).replace(/\S+\s*$/, '').length, cursor)};
	}

	if (key.backspace) {
		return {state: cursor === 0 ? state : remove(state, cursor - 1, cursor)};
	}

	if (key.delete) {
		// The Delete key (CSI 3~) erases under the cursor.
		return {state: cursor === text.length ? state : remove(state, cursor, cursor + 1)};
	}

	if (key.ctrl || key.meta || key.tab || key.escape || input === '') {
		return {state};
	}

	// Typed text never holds a line end (the key parser makes each one an Enter).
	return {state: insert(state, input)};
}

/** Replace the word under the cursor with `completion` (a pasted block before it is not part of the word). */
export function completeWord(state: LineState, completion: string): LineState {
	const before = state.text.slice(0, state.cursor);
	const blockEnd = (state.pastes ?? []).reduce((end, block) => block.end <= state.cursor ? Math.max(end, block.end) : end, 0);
	const start = Math.max(blockEnd, before.search(/\S*$/));
	return insert(remove(state, start, state.cursor), completion);
}

/** `[start, cursor)` replaced by `text`, the cursor after it (a pick of the `@` picker replacing its query). */
export function replaceBeforeCursor(state: LineState, start: number, text: string): LineState {
	return insert(remove(state, start, state.cursor), text);
}

/** `text` put before what the prompt holds (on a line of its own), the cursor at its end: a queued line taken back to edit. */
export function prependText(state: LineState, text: string): LineState {
	const inserted = insert({...state, cursor: 0}, state.text === '' ? text : `${text}\n`);
	return {...inserted, cursor: text.length};
}
