/**
@module Knowing, before running it, that the exact line diff would stop at its edit-length bound.

Myers' diff (`diffArrays` of the `diff` package) with a bound E on the edit length gives up after E
rounds when the sides need more edits. Giving up is its dearest outcome (about E²/2 diagonal walks,
~40 ms at E = 500 on a half-rewritten 20 000-line file) and an easy one to foresee: the lines one
side has and the other lacks, counted as multisets, must all be removed or added, so their number
is a lower bound on the edit length. When it exceeds E, the diff cannot finish.

Which bound stops it must not change, though (the card names it), so the comparison bound must be
out of reach too. Within E rounds the comparisons are at most:
- one unequal pair per diagonal walk, and round D walks at most D + 1 diagonals;
- plus the equal pairs (old line i, new line j) walked, each at most once: a walk moves along its
  diagonal, and a round starts each diagonal past where its previous walk on it ended (Myers'
  furthest-reaching points only move forward).
test/layout/diff-edit-bound.test.ts checks both claims against the `diff` package itself.
*/

/** Diagonal walks of Myers' diff within `maxEditLength` rounds, the first walk (round 0) included. */
function walksWithin(maxEditLength: number): number {
	return 1 + maxEditLength + (maxEditLength * (maxEditLength + 1)) / 2;
}

/**
Whether the exact diff of `oldLines` and `newLines` with these bounds is certain to give up on the
edit length, never reaching `maxComparisons` line comparisons. False when it cannot be sure.
*/
export function diffStopsAtEditLength(oldLines: readonly string[], newLines: readonly string[], maxEditLength: number, maxComparisons: number): boolean {
	const walks = walksWithin(maxEditLength);
	if (oldLines.length + newLines.length <= maxEditLength || walks > maxComparisons) {
		return false;
	}

	// One id per distinct old line, so the new side's pass looks each line up once.
	const ids = new Map<string, number>();
	const oldCounts = new Int32Array(oldLines.length);
	for (const line of oldLines) {
		let id = ids.get(line);
		if (id === undefined) {
			id = ids.size;
			ids.set(line, id);
		}

		oldCounts[id]!++;
	}

	const matchedCounts = new Int32Array(ids.size);
	let matched = 0;
	let equalPairs = 0;
	const budget = maxComparisons - walks;
	for (const line of newLines) {
		const id = ids.get(line);
		if (id === undefined) {
			continue;
		}

		const count = oldCounts[id]!;
		equalPairs += count;
		if (equalPairs > budget) {
			return false;
		}

		if (matchedCounts[id]! < count) {
			matchedCounts[id]!++;
			matched++;
		}
	}

	const unmatched = oldLines.length - matched + (newLines.length - matched);
	return unmatched > maxEditLength;
}
