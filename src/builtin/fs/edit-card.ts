/**
@module The pure projections of `edit`: argument rules, the literal replacement itself, the model
text, the persisted `meta` (applied hunks) and the diff-card presenters (contract.md §E2.5).
*/
import type {JsonValue} from '../../json/json-value.js';
import type {ContentBlock} from '../../tools/content.js';
import {ToolArgsError} from '../../tools/errors.js';
import type {DiffCallView, DiffResultView, ToolResult} from '../../tools/views.js';
import {FsError} from '../workspace/fs-error.js';
import {computeHunks, diffsFromMeta} from './hunks.js';

/** `edit` arguments. */
export type EditArgs = {readonly file_path: string; readonly old_string: string; readonly new_string: string; readonly replace_all?: boolean};

/** `edit`'s canonical value: the whole text before and after. */
export type EditValue = {readonly path: string; readonly before: string; readonly after: string};

/** Validated `edit` input. */
export type EditInput = {readonly filePath: string; readonly oldString: string; readonly newString: string; readonly replaceAll: boolean};

/** Rules the schema cannot express; throws `ToolArgsError` (`INVALID_ARGS`). */
export function parseEditArgs(args: EditArgs): EditInput {
	const violations: string[] = [];
	if (args.file_path.trim() === '') {
		violations.push('"file_path" must not be blank');
	}

	if (args.old_string === '') {
		violations.push('"old_string" must not be empty');
	} else if (args.old_string === args.new_string) {
		violations.push('"new_string" must differ from "old_string"');
	}

	if (violations.length > 0) {
		throw new ToolArgsError(violations);
	}

	return {filePath: args.file_path, oldString: args.old_string, newString: args.new_string, replaceAll: args.replace_all ?? false};
}

/** Non-overlapping occurrences of `needle` in `text`. */
export function countOccurrences(text: string, needle: string): number {
	let count = 0;
	for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
		count += 1;
	}

	return count;
}

/**
Replace `oldString` literally (no `$` patterns). Throws `FS_EDIT_NOT_FOUND` when it does not occur
and `FS_AMBIGUOUS_EDIT` when it occurs more than once without `replaceAll`.
*/
export function applyEdit(text: string, input: EditInput, displayPath: string): string {
	const count = countOccurrences(text, input.oldString);
	if (count === 0) {
		throw new FsError(`old_string was not found in "${displayPath}"`, 'FS_EDIT_NOT_FOUND');
	}

	if (count > 1 && !input.replaceAll) {
		throw new FsError(
			`old_string was found ${count} times in "${displayPath}"; include more surrounding text to make it unique, or set replace_all to replace every occurrence`,
			'FS_AMBIGUOUS_EDIT',
		);
	}

	if (input.replaceAll) {
		return text.split(input.oldString).join(input.newString);
	}

	const at = text.indexOf(input.oldString);
	return text.slice(0, at) + input.newString + text.slice(at + input.oldString.length);
}

/** The model text: a one-sentence confirmation. */
export function renderEdit(args: EditArgs, value: EditValue): ContentBlock[] {
	const text =
		args.replace_all === true
			? `The file ${value.path} has been updated. All occurrences were successfully replaced.`
			: `The file ${value.path} has been updated successfully.`;
	return [{type: 'text', text}];
}

/** The persisted `meta`: one hunk per changed region, labelled with `file_path`. */
export function editPresentationMeta(args: EditArgs, value: EditValue): JsonValue {
	return {diffs: computeHunks(args.file_path, value.before, value.after)};
}

/** Pending card: the literal replacement. */
export function presentEditCall(args: EditArgs): DiffCallView {
	return {
		card: 'diff',
		title: `Edit ${args.file_path}`,
		diffs: [{path: args.file_path, oldText: args.old_string === '' ? null : args.old_string, newText: args.new_string}],
		locations: [{path: args.file_path}],
	};
}

/** Completed card: the applied hunks; declines on an error or unusable `meta`. */
export function presentEditResult(args: EditArgs, result: ToolResult): DiffResultView | undefined {
	if (result.isError) {
		return undefined;
	}

	const diffs = diffsFromMeta(result.meta);
	return diffs === undefined ? undefined : {card: 'diff', title: `Edit ${args.file_path}`, diffs};
}
