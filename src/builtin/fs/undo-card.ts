/**
@module The card of a change taken back (issue 20): `/undo` and `/redo` record one settled call of
`cardterm_undo` per file, whose `meta` is the file change it made — a diff card, titled with what
was taken back (`Undo edit src/app.ts`). The same `meta` shape records any file change cardterm
knows exactly (`FileChange`), so an undo card can itself be taken back (`/redo`).
*/
import {isPlainRecord} from '../../json/is-plain-record.js';
import type {JsonValue} from '../../json/json-value.js';
import type {Presenter, PresenterLookup} from '../../presentation/presenters.js';
import type {DiffCallView, DiffResultView, FileDiff, ToolResult} from '../../tools/views.js';
import {diffsFromMeta} from './hunks.js';

/** The name the undo and redo cards are recorded under: no tool of the model's, never offered to it. */
export const UNDO_TOOL = 'cardterm_undo';

/**
A file change as cardterm can take it back: the hunks of an update, or the whole text of a file
created (`content`: what it holds) or deleted (`content`: what it held).
*/
export type FileChange =
	| {readonly operation: 'update'; readonly path: string; readonly diffs: readonly FileDiff[]}
	| {readonly operation: 'create' | 'delete'; readonly path: string; readonly content: string};

/**
The arguments of an undo card: undo or redo; what it took back (`edit`, `write`, `command`, …, joined
by `+`); the file; the id of the `/undo` or `/redo` it belongs to (`op`, one per command, shared by its
cards); the change groups that command took back (`targets`).
*/
export type UndoArgs = {
	readonly action: 'undo' | 'redo';
	readonly undoes: string;
	readonly path: string;
	readonly op: string;
	readonly targets: readonly string[];
};

/** `meta` of a card that records a change (an undo card's, an ACP write's note). */
export function changeMeta(change: FileChange): JsonValue {
	return change.operation === 'update' ? {operation: 'update', diffs: change.diffs as unknown as JsonValue} : {operation: change.operation, content: change.content};
}

/** A change read back from `meta`; `undefined` when it is not one. */
export function changeFromMeta(path: string, meta: unknown): FileChange | undefined {
	if (!isPlainRecord(meta)) {
		return undefined;
	}

	if ((meta.operation === 'create' || meta.operation === 'delete') && typeof meta.content === 'string') {
		return {operation: meta.operation, path, content: meta.content};
	}

	if (meta.operation === 'update') {
		return {operation: 'update', path, diffs: diffsFromMeta(meta) ?? []};
	}

	return undefined;
}

/** The arguments of an undo card, when `args` are one. */
export function undoArgs(args: unknown): UndoArgs | undefined {
	if (!isPlainRecord(args) || (args.action !== 'undo' && args.action !== 'redo')) {
		return undefined;
	}

	const {undoes, path, op, targets} = args;
	const named = Array.isArray(targets) && targets.every(target => typeof target === 'string') ? targets as string[] : undefined;
	return typeof undoes === 'string' && typeof path === 'string' && typeof op === 'string' && named !== undefined ? {action: args.action, undoes, path, op, targets: named} : undefined;
}

/** What a change shows: its hunks, or the whole file as added or removed. */
export function changeDiffs(change: FileChange): FileDiff[] {
	switch (change.operation) {
		case 'update': {
			return [...change.diffs];
		}

		case 'create': {
			return [{path: change.path, oldText: null, newText: change.content}];
		}

		case 'delete': {
			// A deleted file's text is the old side; the new side is empty.
			return [{path: change.path, oldText: change.content, newText: ''}];
		}
	}
}

function title(args: unknown): string {
	const parsed = undoArgs(args);
	if (parsed === undefined) {
		return 'Undo';
	}

	return `${parsed.action === 'undo' ? 'Undo' : 'Redo'} ${parsed.undoes} ${parsed.path}`;
}

/** The undo card's presenter. */
export const undoPresenter: Presenter = {
	presentCall(args: unknown): DiffCallView {
		const path = undoArgs(args)?.path ?? '';
		return {card: 'diff', title: title(args), diffs: [], locations: path === '' ? [] : [{path}]};
	},
	presentResult(args: unknown, result: ToolResult): DiffResultView | undefined {
		const path = undoArgs(args)?.path;
		const change = path === undefined || result.isError ? undefined : changeFromMeta(path, result.meta);
		return change === undefined ? undefined : {card: 'diff', title: title(args), diffs: changeDiffs(change)};
	},
};

/** `lookup` with the undo card's presenter for `cardterm_undo`. */
export function withUndoPresenter(lookup: PresenterLookup): PresenterLookup {
	return name => name === UNDO_TOOL ? undoPresenter : lookup(name);
}
