/**
@module A diff body fitted to a fold's row budget: context goes first, changed lines last, and a
`-`/`+` run is never cut when it can be shown whole.

1. The whole body fits: it is shown as it is.
2. Else context is hidden, level by level (2, 1, then 0 unchanged lines around each change; see
   diff-plan.ts), until the body fits.
3. Else (the changed lines alone do not fit) a head and a tail of the body are shown around one
   `… N changed lines hidden (of M)` marker, cut only between runs of changed lines: the choice
   shows as many changed lines as it can, then both ends, then as many rows, then a head and tail
   of even size (else the longer head); a gap, blank or context row never sits against the marker,
   and a tail that starts inside a file repeats its path. Only a run larger than the room is cut.

The first file's path and the footer stay pinned. Rows are counted, not built, for positions no fold
shows: a 40 000-line created file costs a pass over its lines, not 40 000 wrapped rows.
*/
import {FULL_CONTEXT, PositionCount, planDiff, type DiffPosition, type FileGroup} from './diff-plan.js';

/** Context levels tried, most context first. */
const LEVELS = [FULL_CONTEXT, 2, 1, 0] as const;

/** The positions a fold shows, and where its marker goes. */
export type DiffFit = {
	readonly positions: readonly DiffPosition[];
	readonly marker?: {
		/** Index in `positions` the marker row goes before. */
		readonly at: number;
		/** Changed lines behind it, and in the whole body. */
		readonly hiddenChanges: number;
		readonly changes: number;
		/** Positions behind it (for a marker that hides no changed line). */
		readonly hiddenPositions: number;
	};
};

/** Rows a position takes at the width. */
export type RowCounter = (position: DiffPosition) => number;

/**
The positions of `groups` that fit `budget` rows with `footerRows` below them. Without a fit
(pinned rows leave no room), every position at the lowest level, for the card's fold to cut.
*/
export function fitDiff(groups: readonly FileGroup[], budget: number, footerRows: number, rowsOf: RowCounter): DiffFit {
	// Paths, blank rows between files, notices and changed lines are at every level: too many, and no level fits.
	let changes = 0;
	let fixed = footerRows + 2 * groups.length - 1;
	for (const group of groups) {
		for (const {lineDiff} of group.hunks) {
			changes += lineDiff.added + lineDiff.removed;
			fixed += lineDiff.added + lineDiff.removed + (lineDiff.approximate === undefined ? 0 : 1);
		}
	}

	for (const level of fixed > budget ? [] : LEVELS) {
		const count = new PositionCount();
		planDiff(groups, level, count);
		// Each position is at least one row: too many positions cannot fit, whatever they hold.
		if (count.count + footerRows > budget) {
			continue;
		}

		const positions: DiffPosition[] = [];
		planDiff(groups, level, positions);
		let rows = footerRows;
		for (const position of positions) {
			rows += rowsOf(position);
		}

		if (rows <= budget) {
			return {positions};
		}
	}

	const positions: DiffPosition[] = [];
	planDiff(groups, 0, positions);
	return foldChanges(positions, changes, budget, footerRows, rowsOf) ?? {positions};
}

const isChange = (position: DiffPosition): boolean => position.kind === 'line' && position.change;

/** A gap or a blank row: nothing to read. */
const isFiller = (position: DiffPosition): boolean => position.kind === 'gap' || position.kind === 'blank';

/** Filler, or a context line (at level 0, one between two changes): nothing to read next to the marker. */
const isLoose = (position: DiffPosition): boolean => isFiller(position) || (position.kind === 'line' && !position.change);

/**
Half-open ranges of positions that are cut only between: a run of changed lines of one hunk that
has both `-` and `+` lines (it pairs them), or one position (a line of a run that only adds or only
removes pairs with nothing).
*/
function atomsOf(positions: readonly DiffPosition[], from: number): Array<readonly [number, number]> {
	const atoms: Array<readonly [number, number]> = [];
	for (let start = from; start < positions.length;) {
		let end = start + 1;
		const first = positions[start]!;
		if (first.kind === 'line' && first.change) {
			let removes = false;
			let adds = false;
			for (;;) {
				const last = positions[end - 1]!;
				const kind = last.kind === 'line' ? last.hunk.lineDiff.rows[last.row]!.kind : undefined;
				removes ||= kind === 'removed';
				adds ||= kind === 'added';
				const next = positions[end];
				if (next?.kind !== 'line' || !next.change || next.hunk !== first.hunk) {
					break;
				}

				end++;
			}

			if (!removes || !adds) {
				for (let index = start; index < end; index++) {
					atoms.push([index, index + 1]);
				}

				start = end;
				continue;
			}
		}

		atoms.push([start, end]);
		start = end;
	}

	return atoms;
}

/** One way to fold: the first `head` atoms and the last `tail` atoms shown, trimmed of filler at the marker. */
type Candidate = {
	readonly headEnd: number;
	readonly tailStart: number;
	readonly repeat: DiffPosition | undefined;
	/** Changed lines shown. */
	readonly changes: number;
	/** Both ends of the body shown (a head past the pinned path, and a tail). */
	readonly ends: boolean;
	/** Rows shown that are not filler. */
	readonly rows: number;
	/** Rows of the head (filler included), and how far head and tail are from even. */
	readonly headRows: number;
	readonly imbalance: number;
};

/** Whether `a` shows more than `b`: changed lines first, then both ends, then rows, then a head and tail of even size. */
function better(a: Candidate, b: Candidate | undefined): boolean {
	if (b === undefined) {
		return true;
	}

	if (a.changes !== b.changes) {
		return a.changes > b.changes;
	}

	if (a.ends !== b.ends) {
		return a.ends;
	}

	if (a.rows !== b.rows) {
		return a.rows > b.rows;
	}

	// Even ends, else the longer head: a body reads from the top.
	return a.imbalance === b.imbalance ? a.headRows > b.headRows : a.imbalance < b.imbalance;
}

function foldChanges(positions: readonly DiffPosition[], total: number, budget: number, footerRows: number, rowsOf: RowCounter): DiffFit | undefined {
	const topRows = rowsOf(positions[0]!);
	const room = budget - topRows - footerRows - 1;
	if (room < 2) {
		return undefined;
	}

	const atoms = atomsOf(positions, 1);
	const rowsMemo = new Map<number, number>();
	const rowsAt = (index: number): number => {
		let rows = rowsMemo.get(index);
		if (rows === undefined) {
			rows = rowsOf(positions[index]!);
			rowsMemo.set(index, rows);
		}

		return rows;
	};

	/** Rows of an atom, counted only until they pass `room` (a giant run is not measured whole). */
	const atomRows = (atom: readonly [number, number]): number => {
		let rows = 0;
		for (let index = atom[0]; index < atom[1] && rows <= room; index++) {
			rows += rowsAt(index);
		}

		return rows;
	};

	// Rows of the first h atoms and of the last s atoms, as far as they fit the room.
	const headRows = [0];
	while (headRows.length <= atoms.length && headRows.at(-1)! <= room) {
		headRows.push(headRows.at(-1)! + atomRows(atoms[headRows.length - 1]!));
	}

	const tailRows = [0];
	while (tailRows.length <= atoms.length && tailRows.at(-1)! <= room) {
		tailRows.push(tailRows.at(-1)! + atomRows(atoms[atoms.length - tailRows.length]!));
	}

	const headerOf = new Map<number, number>();
	for (let index = 0; index < positions.length; index++) {
		const position = positions[index]!;
		if (position.kind === 'header') {
			headerOf.set(position.group, index);
		}
	}

	let best: Candidate | undefined;
	for (let head = 0; head < headRows.length && headRows[head]! <= room; head++) {
		for (let tail = Math.min(tailRows.length - 1, atoms.length - head - 1); tail >= 0; tail--) {
			const candidate = candidateOf(head, tail);
			if (candidate !== undefined) {
				if (better(candidate, best)) {
					best = candidate;
				}

				break;
			}
		}
	}

	function candidateOf(head: number, tail: number): Candidate | undefined {
		let headEnd = head === 0 ? 1 : atoms[head - 1]![1];
		let tailStart = tail === 0 ? positions.length : atoms[atoms.length - tail]![0];
		let rows = headRows[head]! + tailRows[tail]!;
		if (rows > room) {
			return undefined;
		}

		// Nothing loose (nor a path with none of its lines) against the marker.
		while (headEnd > 1 && (isLoose(positions[headEnd - 1]!) || positions[headEnd - 1]!.kind === 'header')) {
			headEnd--;
			rows -= rowsAt(headEnd);
		}

		while (tailStart < positions.length && isLoose(positions[tailStart]!)) {
			rows -= rowsAt(tailStart);
			tailStart++;
		}

		const first = positions[tailStart];
		const header = first === undefined || first.kind === 'header' ? undefined : headerOf.get(first.group);
		const repeat = header !== undefined && header >= headEnd ? positions[header] : undefined;
		if (repeat !== undefined) {
			rows += rowsAt(header!);
			if (rows > room) {
				return undefined;
			}
		}

		let changes = 0;
		let filler = 0;
		let shownHead = 0;
		for (let index = 1; index < headEnd; index++) {
			changes += isChange(positions[index]!) ? 1 : 0;
			filler += isFiller(positions[index]!) ? rowsAt(index) : 0;
			shownHead += rowsAt(index);
		}

		for (let index = tailStart; index < positions.length; index++) {
			changes += isChange(positions[index]!) ? 1 : 0;
			filler += isFiller(positions[index]!) ? rowsAt(index) : 0;
		}

		const ends = headEnd > 1 && tailStart < positions.length;
		return {headEnd, tailStart, repeat, changes, ends, rows: rows - filler, headRows: shownHead, imbalance: Math.abs(2 * shownHead - rows)};
	}

	// Every run is larger than the room: cut by rows, a head and a tail, as any body folds.
	if (best === undefined || (best.changes === 0 && total > 0)) {
		best = rowCut(positions, room, rowsAt);
	}

	const shown: DiffPosition[] = positions.slice(0, best.headEnd);
	const at = shown.length;
	if (best.repeat !== undefined) {
		shown.push(best.repeat);
	}

	for (let index = best.tailStart; index < positions.length; index++) {
		shown.push(positions[index]!);
	}

	let shownChanges = 0;
	for (const position of shown) {
		shownChanges += isChange(position) ? 1 : 0;
	}

	return {positions: shown, marker: {at, hiddenChanges: total - shownChanges, changes: total, hiddenPositions: best.tailStart - best.headEnd}};
}

/** A head of about half the room and a tail of the rest, cut at any position. */
function rowCut(positions: readonly DiffPosition[], room: number, rowsAt: (index: number) => number): Candidate {
	let headEnd = 1;
	let headRows = 0;
	while (headEnd < positions.length && headRows + rowsAt(headEnd) <= Math.ceil(room / 2)) {
		headRows += rowsAt(headEnd);
		headEnd++;
	}

	let tailStart = positions.length;
	let tailRows = 0;
	while (tailStart - 1 > headEnd && headRows + tailRows + rowsAt(tailStart - 1) <= room) {
		tailStart--;
		tailRows += rowsAt(tailStart);
	}

	return {headEnd, tailStart, repeat: undefined, changes: 0, ends: true, rows: headRows + tailRows, headRows, imbalance: 0};
}
