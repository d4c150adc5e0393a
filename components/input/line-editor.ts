/**
@module The prompt's line editor as a pure reducer: text, cursor, history walk. Keys arrive as
`parseKeys` reports them; the reducer returns the next state and whether the line was submitted.
*/
import type {Key} from './keys.js';

export type LineState = {
	readonly text: string;
	/** Cursor position as a code-unit index into `text`. */
	readonly cursor: number;
	/** Index into history while walking it (history.length = the line being edited). */
	readonly historyIndex: number;
	/** The line being edited before the history walk started. */
	readonly draft: string;
	/** Set once a paste of several lines went into the text (the prompt then shows `[pasted N lines]`). */
	readonly pasted?: boolean;
};

export const emptyLine = (historyLength: number): LineState => ({text: '', cursor: 0, historyIndex: historyLength, draft: ''});

/** The text with `inserted` at the cursor, the cursor after it. */
function insert(state: LineState, inserted: string): LineState {
	const {text, cursor} = state;
	return {...state, text: text.slice(0, cursor) + inserted + text.slice(cursor), cursor: cursor + inserted.length};
}

/** Apply one key press. `submitted` carries the line when Enter was pressed. */
export function editLine(state: LineState, input: string, key: Key, history: readonly string[]): {state: LineState; submitted?: string} {
	const {text, cursor} = state;
	if (key.paste) {
		// Pasted text goes in as text, newlines and all: nothing runs until Enter.
		const pasted = insert(state, input);
		return {state: input.includes('\n') ? {...pasted, pasted: true} : pasted};
	}

	if (key.return && (key.shift || key.meta)) {
		// Shift+Enter and Alt+Enter start a new line of the same input.
		return {state: insert(state, '\n')};
	}

	if (key.return && cursor > 0 && text[cursor - 1] === '\\') {
		// A backslash before Enter continues the input on a new line, as in a shell.
		return {state: {...state, text: `${text.slice(0, cursor - 1)}\n${text.slice(cursor)}`}};
	}

	if (key.return) {
		return {state: emptyLine(history.length + (text.trim() === '' ? 0 : 1)), submitted: text};
	}

	if (key.upArrow || key.downArrow) {
		const index = Math.max(0, Math.min(history.length, state.historyIndex + (key.upArrow ? -1 : 1)));
		if (index === state.historyIndex) {
			return {state};
		}

		const draft = state.historyIndex === history.length ? text : state.draft;
		const next = index === history.length ? draft : history[index]!;
		return {state: {text: next, cursor: next.length, historyIndex: index, draft}};
	}

	if (key.leftArrow) {
		return {state: {...state, cursor: Math.max(0, cursor - 1)}};
	}

	if (key.rightArrow) {
		return {state: {...state, cursor: Math.min(text.length, cursor + 1)}};
	}

	if (key.home || (key.ctrl && input === 'a')) {
		return {state: {...state, cursor: 0}};
	}

	if (key.end || (key.ctrl && input === 'e')) {
		return {state: {...state, cursor: text.length}};
	}

	if (key.ctrl && input === 'u') {
		return {state: {...state, text: text.slice(cursor), cursor: 0}};
	}

	if (key.ctrl && input === 'k') {
		return {state: {...state, text: text.slice(0, cursor)}};
	}

	if (key.ctrl && input === 'w') {
		const start = text.slice(0, cursor).replace(/\S+\s*$/, '').length;
		return {state: {...state, text: text.slice(0, start) + text.slice(cursor), cursor: start}};
	}

	if (key.backspace) {
		if (cursor === 0) {
			return {state};
		}

		return {state: {...state, text: text.slice(0, cursor - 1) + text.slice(cursor), cursor: cursor - 1}};
	}

	if (key.delete) {
		// The Delete key (CSI 3~) erases under the cursor.
		return {state: {...state, text: text.slice(0, cursor) + text.slice(cursor + 1)}};
	}

	if (key.ctrl || key.meta || key.tab || key.escape || input === '') {
		return {state};
	}

	// Typed text never holds a line end (the key parser makes each one an Enter).
	return {state: insert(state, input)};
}

/** Replace the word under the cursor with `completion`. */
export function completeWord(state: LineState, completion: string): LineState {
	const before = state.text.slice(0, state.cursor);
	const start = before.search(/\S*$/);
	const text = before.slice(0, start) + completion + state.text.slice(state.cursor);
	return {...state, text, cursor: start + completion.length};
}
