/**
@module Applied-change hunks for the diff card: a 3-line-context structured patch from the `diff`
package, one `FileDiff` per hunk (spec contract.md §E2.4–§E2.5).
*/
import {diffPackage} from '../../presentation/diff-package.js';
import {isLineStart} from '../../presentation/hunk-starts.js';
import type {FileDiff} from '../../tools/views.js';

/** Context lines around each change. */
const HUNK_CONTEXT_LINES = 3;

/**
The hunks that turn `before` into `after`, labelled with `displayPath` (the path as the model gave
it). Each hunk's old side is its context and removed lines, its new side its context and added lines,
joined by `\n` without a trailing newline; `\ No newline at end of file` markers are dropped; a hunk
without old lines has `oldText: null`; `oldStart` / `newStart` are the hunk header's, for the card's
line numbers. Identical texts give `[]`.
*/
export function computeHunks(displayPath: string, before: string, after: string): FileDiff[] {
	const patch = diffPackage().structuredPatch(displayPath, displayPath, before, after, undefined, undefined, {context: HUNK_CONTEXT_LINES});
	return patch.hunks.map((hunk) => {
		const oldLines: string[] = [];
		const newLines: string[] = [];
		for (const line of hunk.lines) {
			const marker = line[0];
			const text = line.slice(1);
			if (marker === ' ') {
				oldLines.push(text);
				newLines.push(text);
			} else if (marker === '-') {
				oldLines.push(text);
			} else if (marker === '+') {
				newLines.push(text);
			}
			// '\' lines ("No newline at end of file") carry no text.
		}

		return {path: displayPath, oldText: oldLines.length === 0 ? null : oldLines.join('\n'), newText: newLines.join('\n'), oldStart: hunk.oldStart, newStart: hunk.newStart};
	});
}

/** Narrow a persisted `meta.diffs` to a non-empty list of well-formed `FileDiff`s, else `undefined`. */
export function diffsFromMeta(meta: unknown): FileDiff[] | undefined {
	if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
		return undefined;
	}

	const {diffs} = meta as {diffs?: unknown};
	if (!Array.isArray(diffs) || diffs.length === 0) {
		return undefined;
	}

	const narrowed: FileDiff[] = [];
	for (const entry of diffs) {
		if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
			return undefined;
		}

		const {path, oldText, newText, oldStart, newStart} = entry as Record<string, unknown>;
		if (typeof path !== 'string' || (oldText !== null && typeof oldText !== 'string') || typeof newText !== 'string') {
			return undefined;
		}

		// Hunk starts are kept only as a pair of line numbers: an older log has none, and a bad one numbers nothing.
		narrowed.push(isLineStart(oldStart) && isLineStart(newStart) ? {path, oldText, newText, oldStart, newStart} : {path, oldText, newText});
	}

	return narrowed;
}

