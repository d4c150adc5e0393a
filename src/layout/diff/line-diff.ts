/**
@module The bounded line diff of one `FileDiff`, computed once per `FileDiff` object.

A pending view carries model-written text of any size, and the diff runs on the synchronous render
path, so the comparison is bounded, cheapest step first:
1. The common prefix and suffix are trimmed (exact, linear).
2. When the middles' lengths differ by more than `maxEditLength`, the exact diff is skipped.
3. Myers' diff (`diffArrays` of the `diff` package on the split lines) with `maxEditLength`: it gives
   up after O(maxEditLength²) steps whatever the file size. Adversarial input (long repeated snakes
   on many diagonals) can still make each step walk far, so a cap on line comparisons
   (`maxComparisons`) is the last safety net. Both bounds count work, not time, so a card's rows are
   the same live and on replay, on any machine under any load. Myers runs with a short bound first
   (most edits are small); past it, a multiset lower bound on the edit length (diff-edit-bound.ts)
   skips the full run when it could only give up, which is what keeps a half-rewritten 20 000-line
   file cheap (hashing every line costs more than a small diff, hence not first).
Beyond a bound the middle falls back to whole sides (all old lines `-`, all new lines `+`), and
the result says so (`approximate`). Long unchanged runs collapse to a gap row, keeping
`CONTEXT_LINES` on each side of a change.
*/
import type {ChangeObject} from 'diff';
import {diffPackage} from '../../presentation/diff-package.js';
import type {FileDiff} from '../../tools/views.js';
import {diffStopsAtEditLength, myersWalks} from './diff-edit-bound.js';

/** Default bound on the edit length (removed + added lines) of an exact line diff. */
const DEFAULT_MAX_EDIT_LENGTH = 500;

/**
Safety net: the exact diff gives up after this many line comparisons. Far above what `maxEditLength`
lets Myers spend on real input (a 20 000-line file with 20 edits compares about 21 000 lines, a
half-rewritten one about 130 000 before giving up on the edit length), so only adversarial input
reaches it; deterministic, unlike a clock.
*/
const DEFAULT_MAX_COMPARISONS = 5_000_000;

/** Unchanged lines kept on each side of a change; longer unchanged runs collapse into a gap row. */
const CONTEXT_LINES = 3;

/** A gap row must hide at least this many lines, or the lines are shown instead. */
const MIN_GAP = 2;

/** Bounds of the exact line diff; tests inject small ones. */
export type DiffLimits = {
	/** Largest edit length (removed + added lines) compared exactly. Default `DEFAULT_MAX_EDIT_LENGTH`. */
	readonly maxEditLength?: number;
	/** Line comparisons after which the exact diff gives up. Default `DEFAULT_MAX_COMPARISONS`. */
	readonly maxComparisons?: number;
};

/** One displayed line of a file diff, or a gap standing for `count` unchanged lines. */
export type DiffRow =
	| {readonly kind: 'context' | 'removed' | 'added'; readonly text: string}
	| {readonly kind: 'gap'; readonly count: number};

/** Why a line diff is approximate. */
export type DiffApproximation = {
	/** `edit-length`: more changed lines than the bound; `comparisons`: the exact diff compared more lines than its bound. */
	readonly reason: 'edit-length' | 'comparisons';
	readonly maxEditLength: number;
	readonly maxComparisons: number;
};

/** The line diff of one `FileDiff`. Context lines are neutral: only `-`/`+` lines are counted. */
export type LineDiff = {
	readonly rows: readonly DiffRow[];
	readonly added: number;
	readonly removed: number;
	/** Present when a bound was hit and the changed middle is shown as whole sides. */
	readonly approximate?: DiffApproximation;
};

/**
Split a side into lines: `""` is zero lines, one trailing `\n` ends the last line (no phantom empty
line), interior blank lines are kept, and a `\r` before a `\n` belongs to the line ending.
*/
export function splitLines(text: string): string[] {
	if (text === '') {
		return [];
	}

	const lines = text.split('\n');
	if (lines.at(-1) === '') {
		lines.pop();
	}

	// Most texts hold no CR: one native search instead of a look at every line's end.
	if (!text.includes('\r')) {
		return lines;
	}

	for (let index = 0; index < lines.length; index++) {
		const line = lines[index]!;
		// The last line has no `\n` after it, so a `\r` ending it is content, not a line ending.
		if (line.endsWith('\r') && (index < lines.length - 1 || text.endsWith('\n'))) {
			lines[index] = line.slice(0, -1);
		}
	}

	return lines;
}

type Cached = {readonly maxEditLength: number; readonly maxComparisons: number; readonly value: LineDiff};

const cache = new WeakMap<FileDiff, Cached>();

/**
The line diff of `diff`, bounded by `limits`. Cached per `FileDiff` object (and bound), so redraws,
resizes and expansion changes never repeat the comparison.
*/
export function computeLineDiff(diff: FileDiff, limits: DiffLimits = {}): LineDiff {
	const maxEditLength = limits.maxEditLength ?? DEFAULT_MAX_EDIT_LENGTH;
	const maxComparisons = limits.maxComparisons ?? DEFAULT_MAX_COMPARISONS;
	const hit = cache.get(diff);
	if (hit !== undefined && hit.maxEditLength === maxEditLength && hit.maxComparisons === maxComparisons) {
		return hit.value;
	}

	const value = Object.freeze(uncachedLineDiff(diff, maxEditLength, maxComparisons));
	cache.set(diff, {maxEditLength, maxComparisons, value});
	return value;
}

/** The edit-length bound tried first: most edits are this small, and giving up at it costs little. */
const QUICK_EDIT_LENGTH = 64;

/** Thrown by the counting comparator to stop the exact diff; never escapes `diffMiddle`. */
const overBudget = new Error('line diff comparison budget exhausted');

type Op = {readonly kind: 'context' | 'removed' | 'added'; readonly text: string};

function uncachedLineDiff(diff: FileDiff, maxEditLength: number, maxComparisons: number): LineDiff {
	const newLines = splitLines(diff.newText);
	if (diff.oldText === null) {
		return {rows: newLines.map(text => ({kind: 'added', text})), added: newLines.length, removed: 0};
	}

	const oldLines = splitLines(diff.oldText);
	let prefix = 0;
	const shorter = Math.min(oldLines.length, newLines.length);
	while (prefix < shorter && oldLines[prefix] === newLines[prefix]) {
		prefix++;
	}

	let suffix = 0;
	while (suffix < shorter - prefix && oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]) {
		suffix++;
	}

	const oldMiddle = oldLines.slice(prefix, oldLines.length - suffix);
	const newMiddle = newLines.slice(prefix, newLines.length - suffix);
	const ops: Op[] = [];
	for (let index = 0; index < prefix; index++) {
		ops.push({kind: 'context', text: oldLines[index]!});
	}

	let approximate: DiffApproximation | undefined;
	const middle = diffMiddle(oldMiddle, newMiddle, maxEditLength, maxComparisons);
	if (middle === 'edit-length' || middle === 'comparisons') {
		approximate = {reason: middle, maxEditLength, maxComparisons};
		pushChange(ops, oldMiddle, newMiddle);
	} else {
		for (const op of middle) {
			ops.push(op);
		}
	}

	for (let index = oldLines.length - suffix; index < oldLines.length; index++) {
		ops.push({kind: 'context', text: oldLines[index]!});
	}

	let added = 0;
	let removed = 0;
	for (const op of ops) {
		if (op.kind === 'added') {
			added++;
		} else if (op.kind === 'removed') {
			removed++;
		}
	}

	const rows = collapseContext(ops);
	return approximate === undefined ? {rows, added, removed} : {rows, added, removed, approximate};
}

function pushChange(ops: Op[], removed: readonly string[], added: readonly string[]): void {
	for (const text of removed) {
		ops.push({kind: 'removed', text});
	}

	for (const text of added) {
		ops.push({kind: 'added', text});
	}
}

/** The exact diff of the changed middle, or which bound stopped it. */
function diffMiddle(oldMiddle: string[], newMiddle: string[], maxEditLength: number, maxComparisons: number): Op[] | 'edit-length' | 'comparisons' {
	if (oldMiddle.length === 0 || newMiddle.length === 0) {
		const ops: Op[] = [];
		pushChange(ops, oldMiddle, newMiddle);
		return ops;
	}

	// The sides' length difference is a lower bound on the edit length.
	if (Math.abs(oldMiddle.length - newMiddle.length) > maxEditLength) {
		return 'edit-length';
	}

	// Finding a short edit script is Myers' cheapest outcome and giving up its dearest: try a short
	// bound first (the same rounds the full bound starts with, so the same answer when it finishes,
	// and the same comparisons), then make sure the full bound can finish before spending it.
	const quick = Math.min(maxEditLength, QUICK_EDIT_LENGTH);
	const first = boundedMyers(oldMiddle, newMiddle, quick, maxComparisons);
	let {changes} = first;
	if (changes === undefined && quick < maxEditLength) {
		// The equal lines the short try walked over show how far its edits got. At that pace, when the
		// full bound could not cover the middle, the proof (a pass over every line) is worth trying;
		// a mostly unchanged file goes straight to the full run instead.
		const equalWalked = Math.max(0, first.comparisons - myersWalks(quick));
		const reach = (equalWalked * maxEditLength) / quick;
		if (reach < oldMiddle.length && diffStopsAtEditLength(oldMiddle, newMiddle, maxEditLength, maxComparisons)) {
			return 'edit-length';
		}

		changes = boundedMyers(oldMiddle, newMiddle, maxEditLength, maxComparisons).changes;
	}

	if (changes === 'comparisons') {
		return 'comparisons';
	}

	if (changes === undefined) {
		return 'edit-length';
	}

	// Within one changed region show every removed line before every added line, whatever order the
	// diff reported them in, so a replacement reads as "old block, then new block".
	const ops: Op[] = [];
	let removed: string[] = [];
	let added: string[] = [];
	for (const change of changes) {
		if (change.removed) {
			removed = removed.concat(change.value);
		} else if (change.added) {
			added = added.concat(change.value);
		} else {
			pushChange(ops, removed, added);
			removed = [];
			added = [];
			for (const text of change.value) {
				ops.push({kind: 'context', text});
			}
		}
	}

	pushChange(ops, removed, added);
	return ops;
}

/** A run of `diffArrays` stopped by either bound (undefined changes past the edit length), and the comparisons it made. */
type MyersRun = {readonly changes: ChangeObject<string[]>[] | 'comparisons' | undefined; readonly comparisons: number};

function boundedMyers(oldMiddle: string[], newMiddle: string[], maxEditLength: number, maxComparisons: number): MyersRun {
	// The comparator counts the work Myers does; throwing is the only way to stop `diffArrays` early.
	let comparisons = 0;
	const comparator = (left: string, right: string): boolean => {
		if (++comparisons > maxComparisons) {
			throw overBudget;
		}

		return left === right;
	};

	try {
		return {changes: diffPackage().diffArrays(oldMiddle, newMiddle, {maxEditLength, comparator}), comparisons};
	} catch (error) {
		if (error === overBudget) {
			return {changes: 'comparisons', comparisons};
		}

		throw error;
	}
}

/** Replace unchanged runs longer than the context around changes with one gap row. */
function collapseContext(ops: readonly Op[]): DiffRow[] {
	const rows: DiffRow[] = [];
	let index = 0;
	while (index < ops.length) {
		if (ops[index]!.kind !== 'context') {
			rows.push(ops[index]!);
			index++;
			continue;
		}

		let end = index;
		while (end < ops.length && ops[end]!.kind === 'context') {
			end++;
		}

		const atStart = index === 0;
		const atEnd = end === ops.length;
		// Keep context after the previous change and before the next one; a run touching both ends
		// (nothing changed) keeps its head.
		const keepHead = atStart && !atEnd ? 0 : CONTEXT_LINES;
		const keepTail = atEnd ? 0 : CONTEXT_LINES;
		const hidden = end - index - keepHead - keepTail;
		// Plain loops, not `push(...slice)`: a run can be longer than the engine's argument limit.
		if (hidden < MIN_GAP) {
			for (let at = index; at < end; at++) {
				rows.push(ops[at]!);
			}
		} else {
			for (let at = index; at < index + keepHead; at++) {
				rows.push(ops[at]!);
			}

			rows.push({kind: 'gap', count: hidden});
			for (let at = end - keepTail; at < end; at++) {
				rows.push(ops[at]!);
			}
		}

		index = end;
	}

	return rows;
}
