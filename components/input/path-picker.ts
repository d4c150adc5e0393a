/**
@module The `@` picker's pure half: whether the cursor is in an `@word` that asks for a path (the
word's start, and the query typed so far), what a pick puts in the line, and the selection's move.
The picker is open while the cursor ends such a word — typing filters it, Backspace past the `@`
closes it — unless Esc dismissed that word (`dismissed`: its start). Not in a `!command` line (a
shell's `@` is its own) nor while a multi-line text is collected.
*/
import type {PathPick} from '../../src/host/path-index.js';
import type {LineState} from './line-editor.js';

/** The `@word` before the cursor: where its `@` is, and the query after it (a leading `"` left out). */
export type PickerQuery = {readonly start: number; readonly query: string};

/** Rows of picks the picker shows. */
export const PICKER_ROWS = 8;

/** The `@word` the cursor ends, if it asks for a path; `dismissed` is the start of a word Esc closed. */
export function pickerQuery(line: Pick<LineState, 'text' | 'cursor'>, dismissed?: number): PickerQuery | undefined {
	const {text, cursor} = line;
	if (text.trimStart().startsWith('!') || (cursor < text.length && !/\s/u.test(text[cursor]!))) {
		return undefined;
	}

	const match = /(?:^|[\s([{<'"])@("?)([^\s"@]*)$/u.exec(text.slice(0, cursor));
	if (match === null) {
		return undefined;
	}

	const start = cursor - match[1]!.length - match[2]!.length - 1;
	return start === dismissed ? undefined : {start, query: match[2]!};
}

/**
What a pick puts in place of `@query`: `@path` (quoted when it holds a space), then a space — a
folder picked with Tab stays open (`@src/`) so the next keys look inside it.
*/
export function pickText(pick: PathPick, how: 'tab' | 'enter'): string {
	const quoted = /\s|"/u.test(pick.path) ? `@"${pick.path.replaceAll('"', '')}"` : `@${pick.path}`;
	return pick.folder && how === 'tab' && !quoted.endsWith('"') ? quoted : `${quoted} `;
}

/** The selection after ↑ (-1) or ↓ (+1) among `count` picks, wrapping. */
export function moveSelection(selected: number, by: -1 | 1, count: number): number {
	return count === 0 ? 0 : (selected + by + count) % count;
}
