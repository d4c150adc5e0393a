/**
@module What a diff body shows, position by position (a position is one unwrapped row: a file's
path, a diff line, a gap row…), at a context level: the unchanged lines kept on each side of a
change. At `FULL_CONTEXT` a body shows what its line diffs hold; a lower level hides the context
lines farther from a change, so a fold can hide context before it hides a changed line.

Hidden lines join the gap they touch: a run between two shown lines is one `⋯ N unchanged lines`
row (a run of one context line is shown instead: its row costs the same); a run at a file's start
or end shows a gap row only when the line diff drew one there (a whole-file diff's long unchanged
head), since a hunk's outer context is the producer's choice, not part of the change. Between two
hunks of a file the gap row counts the lines between them when both are numbered, else says `⋯`.

Line numbers (`hunkStarts`): a removed line shows its old number, an added or context line its new
one, as pi and Gemini CLI number them; a hunk without starts is not numbered.
*/
import {hunkStarts} from '../../presentation/hunk-starts.js';
import type {FileDiff} from '../../tools/views.js';
import type {LineDiff} from './line-diff.js';

/** The level that hides nothing: every context line the line diff holds. */
export const FULL_CONTEXT = Number.POSITIVE_INFINITY;

/** One hunk (one `FileDiff`) with its line diff and where its lines are in the file. */
export type PlannedHunk = {
	readonly diff: FileDiff;
	readonly lineDiff: LineDiff;
	/** The old and new line of its first row; undefined when not numbered. */
	readonly starts: {readonly old: number; readonly new: number} | undefined;
	/** The new line after its last row (`starts.new` + its new side's lines), when numbered. */
	readonly newEnd: number | undefined;
	/** The largest line number it shows (0 when not numbered). */
	readonly largestNumber: number;
};

/** Consecutive diffs of one path: a file's hunks under one header. */
export type FileGroup = {readonly diffs: readonly FileDiff[]; readonly hunks: readonly PlannedHunk[]};

/** One position of a diff body. `group` is the index of its file group. */
export type DiffPosition =
	| {readonly kind: 'blank'; readonly group: number}
	| {readonly kind: 'header'; readonly group: number}
	| {readonly kind: 'notice'; readonly group: number; readonly hunk: PlannedHunk}
	/** Unchanged lines not shown: `count` when known, else a bare `⋯`. */
	| {readonly kind: 'gap'; readonly group: number; readonly count: number | undefined}
	/** Row `row` of the hunk's line diff; `number` is its gutter number, `change` whether it is `-`/`+`. */
	| {readonly kind: 'line'; readonly group: number; readonly hunk: PlannedHunk; readonly row: number; readonly number: number | undefined; readonly change: boolean};

/** A hunk prepared for planning: its line diff, numbered when its starts are known. */
export function planHunk(diff: FileDiff, lineDiff: LineDiff): PlannedHunk {
	const starts = hunkStarts(diff);
	if (starts === undefined) {
		return {diff, lineDiff, starts, newEnd: undefined, largestNumber: 0};
	}

	let oldLine = starts.old;
	let newLine = starts.new;
	for (const row of lineDiff.rows) {
		switch (row.kind) {
			case 'gap': {
				oldLine += row.count;
				newLine += row.count;
				break;
			}

			case 'context': {
				oldLine++;
				newLine++;
				break;
			}

			case 'removed': {
				oldLine++;
				break;
			}

			case 'added': {
				newLine++;
				break;
			}
		}
	}

	return {diff, lineDiff, starts, newEnd: newLine, largestNumber: Math.max(oldLine, newLine) - 1};
}

/** Where `planDiff` puts positions: an array, or a counter when only their number matters. */
export type PositionSink = {push(position: DiffPosition): unknown};

/** Counts the positions pushed to it (a plan's size without building it). */
export class PositionCount implements PositionSink {
	count = 0;

	push(): void {
		this.count++;
	}
}

/** Unchanged lines waiting to be shown as one gap row, or not at all. */
type HiddenRun = {
	count: number | undefined;
	/** The line diff drew a gap row here, or a hunk boundary is in it: the run is a row wherever it is. */
	row: boolean;
	/** The run is one hidden context line: shown instead of a gap row between shown lines. */
	only: DiffPosition | undefined;
};

/**
Distance of each context row to the nearest change of its hunk (1: next to one), counted over
context rows only: a gap row or the hunk's end is a wall. Changes and gaps get 0; a context row no
change reaches gets Infinity.
*/
function changeDistances(lineDiff: LineDiff): Float64Array {
	const {rows} = lineDiff;
	const distances = new Float64Array(rows.length).fill(Number.POSITIVE_INFINITY);
	let last = Number.NEGATIVE_INFINITY;
	for (let index = 0; index < rows.length; index++) {
		const {kind} = rows[index]!;
		if (kind === 'context') {
			distances[index] = index - last;
		} else {
			distances[index] = 0;
			last = kind === 'gap' ? Number.NEGATIVE_INFINITY : index;
		}
	}

	last = Number.POSITIVE_INFINITY;
	for (let index = rows.length - 1; index >= 0; index--) {
		const {kind} = rows[index]!;
		if (kind === 'context') {
			distances[index] = Math.min(distances[index]!, last - index);
		} else {
			last = kind === 'gap' ? Number.POSITIVE_INFINITY : index;
		}
	}

	return distances;
}

const distanceCache = new WeakMap<LineDiff, Float64Array>();

function distancesOf(lineDiff: LineDiff): Float64Array {
	let distances = distanceCache.get(lineDiff);
	if (distances === undefined) {
		distances = changeDistances(lineDiff);
		distanceCache.set(lineDiff, distances);
	}

	return distances;
}

/** Pushes one file group's positions, context lines farther than `context` from a change hidden. */
function planGroup(group: FileGroup, index: number, context: number, sink: PositionSink): void {
	let hidden: HiddenRun | undefined;
	let shownBefore = false;
	const hide = (count: number | undefined, row: boolean, only?: DiffPosition): void => {
		if (hidden === undefined) {
			hidden = {count, row, only};
			return;
		}

		hidden.count = hidden.count === undefined || count === undefined ? undefined : hidden.count + count;
		hidden.row ||= row;
		hidden.only = undefined;
	};

	/** A position is shown next: the hidden run before it becomes its row (or its one line), or nothing at a file's start. */
	const show = (position: DiffPosition): void => {
		if (hidden !== undefined) {
			if (hidden.only !== undefined && shownBefore && !hidden.row) {
				sink.push(hidden.only);
			} else if (hidden.row || shownBefore) {
				sink.push({kind: 'gap', group: index, count: hidden.count});
			}

			hidden = undefined;
		}

		shownBefore = true;
		sink.push(position);
	};

	let previous: PlannedHunk | undefined;
	for (const hunk of group.hunks) {
		if (previous !== undefined) {
			const between = previous.newEnd !== undefined && hunk.starts !== undefined ? hunk.starts.new - previous.newEnd : undefined;
			hide(between !== undefined && between >= 0 ? between : undefined, true);
		}

		previous = hunk;
		const {lineDiff} = hunk;
		if (lineDiff.approximate !== undefined) {
			show({kind: 'notice', group: index, hunk});
		}

		const distances = context === FULL_CONTEXT || context <= 0 ? undefined : distancesOf(lineDiff);
		let oldLine = hunk.starts?.old ?? 0;
		let newLine = hunk.starts?.new ?? 0;
		const numbered = hunk.starts !== undefined;
		const {rows} = lineDiff;
		for (let row = 0; row < rows.length; row++) {
			const line = rows[row]!;
			switch (line.kind) {
				case 'gap': {
					hide(line.count, true);
					oldLine += line.count;
					newLine += line.count;
					break;
				}

				case 'context': {
					const position: DiffPosition = {kind: 'line', group: index, hunk, row, number: numbered ? newLine : undefined, change: false};
					if (context === FULL_CONTEXT || (distances !== undefined && distances[row]! <= context)) {
						show(position);
					} else {
						hide(1, false, position);
					}

					oldLine++;
					newLine++;
					break;
				}

				case 'removed': {
					show({kind: 'line', group: index, hunk, row, number: numbered ? oldLine : undefined, change: true});
					oldLine++;
					break;
				}

				case 'added': {
					show({kind: 'line', group: index, hunk, row, number: numbered ? newLine : undefined, change: true});
					newLine++;
					break;
				}
			}
		}
	}

	// At the file's end a run is a row only where the line diff drew one.
	const last: HiddenRun | undefined = hidden;
	if (last?.row === true) {
		sink.push({kind: 'gap', group: index, count: last.count});
	}
}

/** Pushes the body's positions (footer aside) at `context` to `sink`: per file group its header, then its lines. */
export function planDiff(groups: readonly FileGroup[], context: number, sink: PositionSink): void {
	for (const [index, group] of groups.entries()) {
		if (index > 0) {
			sink.push({kind: 'blank', group: index});
		}

		sink.push({kind: 'header', group: index});
		planGroup(group, index, context, sink);
	}
}
