/**
@module Taking a recorded change back: the applied hunks of a diff card (`hunks.ts`) reversed on a
file's text as it is now. A hunk goes back only where its new side (context and added lines) still
stands exactly as written — at its recorded line, or moved by lines added or removed above it — and
otherwise the reversal is refused with the lines the hunk expected and those found: nothing anyone
wrote after the change is overwritten.

Known limit of the recorded hunks: they drop "\ No newline at end of file", so a change of the last
line's newline is taken back only when it is the hunk's only change (its two sides read alike).
*/
import type {FileDiff} from '../../tools/views.js';

/** Why a hunk does not go back: where it was expected (1-based), what it expected there, what is there. */
export type HunkConflict = {
	readonly path: string;
	readonly line: number;
	readonly expected: readonly string[];
	readonly found: readonly string[];
};

export type Reversal = {readonly ok: true; readonly text: string} | {readonly ok: false; readonly conflict: HunkConflict};

/** `text` with `diffs` (hunks of one file, in file order) taken back, or the first hunk that does not apply. */
export function reverseHunks(text: string, diffs: readonly FileDiff[]): Reversal {
	const lines = text === '' ? [] : text.split('\n');
	// A text ending in a newline splits into a last empty element: it is the terminator, never a line
	// to match. An empty file has no lines; what comes back into it ends with a newline.
	const terminated = text === '' || lines.at(-1) === '';
	let body = terminated && text !== '' ? lines.slice(0, -1) : lines;
	let toggleNewline = false;
	// Last hunk first: the line numbers of the hunks above stay those they were recorded with.
	for (let index = diffs.length - 1; index >= 0; index--) {
		const hunk = diffs[index]!;
		const wanted = sideLines(hunk.newText, text === '');
		const at = locate(body, wanted, hunk.newStart);
		if (at === undefined) {
			const line = Math.max(1, hunk.newStart ?? 1);
			return {ok: false, conflict: {path: hunk.path, line, expected: wanted, found: body.slice(line - 1, line - 1 + Math.max(1, wanted.length))}};
		}

		if (hunk.oldText === hunk.newText) {
			// The two sides read alike: the only change was the newline after the last line.
			toggleNewline = !toggleNewline;
			continue;
		}

		body = [...body.slice(0, at), ...(hunk.oldText === null ? [] : hunk.oldText.split('\n')), ...body.slice(at + wanted.length)];
	}

	const ends = terminated !== toggleNewline;
	const joined = body.join('\n');
	return {ok: true, text: ends && body.length > 0 ? `${joined}\n` : joined};
}

/** A hunk side's lines; an empty side of an empty file has none. */
function sideLines(side: string, emptyFile: boolean): string[] {
	return side === '' && emptyFile ? [] : side.split('\n');
}

/**
Where `wanted` stands in `lines`: at `start` (1-based) when it is there, else the nearest place it
stands exactly; without a recorded start, only a single place counts.
*/
function locate(lines: readonly string[], wanted: readonly string[], start: number | undefined): number | undefined {
	const fits = (at: number): boolean => at >= 0 && at + wanted.length <= lines.length && wanted.every((line, offset) => lines[at + offset] === line);
	if (start === undefined) {
		const places: number[] = [];
		for (let at = 0; at + wanted.length <= lines.length && places.length < 2; at++) {
			if (fits(at)) {
				places.push(at);
			}
		}

		return places.length === 1 ? places[0] : undefined;
	}

	// An added-only hunk at the top records start 0 for its old side; its new side starts at line 1.
	const expected = Math.max(0, start - 1);
	for (let distance = 0; distance <= lines.length; distance++) {
		if (fits(expected - distance)) {
			return expected - distance;
		}

		if (fits(expected + distance)) {
			return expected + distance;
		}
	}

	return undefined;
}
