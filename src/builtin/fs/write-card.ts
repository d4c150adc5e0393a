/**
@module The pure projections of `write`: argument rules, the model text, the persisted `meta`
(applied hunks) and the diff-card presenters (contract.md §E2.4).
*/
import type {JsonValue} from '../../json/json-value.js';
import type {ContentBlock} from '../../tools/content.js';
import {ToolArgsError} from '../../tools/errors.js';
import type {DiffCallView, DiffResultView, ToolResult} from '../../tools/views.js';
import {computeHunks, diffsFromMeta} from './hunks.js';

/** `write` arguments. */
export type WriteArgs = {readonly file_path: string; readonly content: string};

/** `write`'s canonical value. `before: null`: a create, or a prior file that could not serve as a diff basis. */
export type WriteValue = {readonly path: string; readonly operation: 'create' | 'update'; readonly before: string | null; readonly after: string};

/** Rules the schema cannot express; throws `ToolArgsError`. */
export function parseWriteArgs(args: WriteArgs): {readonly filePath: string; readonly content: string} {
	if (args.file_path.trim() === '') {
		throw new ToolArgsError(['"file_path" must not be blank']);
	}

	return {filePath: args.file_path, content: args.content};
}

/** The model text: the envelope with `Created file` or `Updated file`; the file text is never echoed. */
export function renderWrite(value: WriteValue): ContentBlock[] {
	const done = value.operation === 'create' ? 'Created file' : 'Updated file';
	return [{type: 'text', text: `<path>${value.path}</path>\n<type>file</type>\n<content>\n${done}\n</content>`}];
}

/**
The persisted `meta`: applied hunks against the prior text, none without a diff basis; a replaced
file whose prior text was not kept says so (`basis: false`), so `/undo` does not take "no hunks" for "no change".
*/
export function writePresentationMeta(args: WriteArgs, value: WriteValue): JsonValue {
	if (value.before === null) {
		return value.operation === 'update' ? {diffs: [], basis: false} : {diffs: []};
	}

	return {diffs: computeHunks(args.file_path, value.before, value.after)};
}

/** The whole-file diff the arguments describe. */
function argsDiff(args: WriteArgs): DiffResultView['diffs'] {
	return [{path: args.file_path, oldText: null, newText: args.content}];
}

/** Pending card: the whole new text. */
export function presentWriteCall(args: WriteArgs): DiffCallView {
	return {card: 'diff', title: `Write ${args.file_path}`, diffs: argsDiff(args), locations: [{path: args.file_path}]};
}

/** Completed card: always a diff on success; the meta hunks when usable, else the whole-file diff from the arguments. */
export function presentWriteResult(args: WriteArgs, result: ToolResult): DiffResultView | undefined {
	if (result.isError) {
		return undefined;
	}

	return {card: 'diff', title: `Write ${args.file_path}`, diffs: diffsFromMeta(result.meta) ?? argsDiff(args)};
}
