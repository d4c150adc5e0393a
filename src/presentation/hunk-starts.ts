/**
@module Where a `FileDiff`'s lines are in the file: the hunk starts a producer gave (`oldStart`,
`newStart`), checked here once for whoever reads them (a persisted `meta`, a plugin's view, the
layout's line numbers).
*/
import type {FileDiff} from '../tools/views.js';

/** A hunk header's start line: 0 (an empty side, as unified diff writes it) or a 1-based line number. */
export function isLineStart(value: unknown): value is number {
	return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
The old and new line of a diff's first line: its starts when both are valid; from line 1 for a
whole-file diff without them (`oldText: null` and no starts: a created file, or the new text of an
overwrite, whose lines are the file's); else undefined (a literal replacement: where it lands is not known).
*/
export function hunkStarts(diff: FileDiff): {readonly old: number; readonly new: number} | undefined {
	if (isLineStart(diff.oldStart) && isLineStart(diff.newStart)) {
		return {old: diff.oldStart, new: diff.newStart};
	}

	return diff.oldText === null && diff.oldStart === undefined && diff.newStart === undefined ? {old: 0, new: 1} : undefined;
}
