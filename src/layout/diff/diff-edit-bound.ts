/**
@module Knowing, before running it, that the exact line diff would stop at its edit-length bound.

Myers' diff (`diffArrays` of the `diff` package) with a bound E on the edit length gives up after E
rounds when the sides need more edits. Giving up is its dearest outcome (about E²/2 diagonal walks,
~40 ms at E = 500 on a half-rewritten 20 000-line file) and an easy one to foresee: the lines one
side has and the other lacks, counted as multisets, must all be removed or added, so their number
is a lower bound on the edit length. When it exceeds E, the diff cannot finish. Lines are compared
by a cheap key here, which can only make the bound lower (hence still a bound).

Which bound stops it must not change, though (the card names it), so the comparison bound must be
out of reach too. Within E rounds the comparisons are at most:
- one unequal pair per diagonal walk, and round D walks at most D + 1 diagonals;
- plus the equal pairs (old line i, new line j) walked, each at most once: a walk moves along its
  diagonal, and a round starts each diagonal past where its previous walk on it ended (Myers'
  furthest-reaching points only move forward).
test/layout/diff/diff-edit-bound.test.ts checks both claims against the `diff` package itself.
*/

/** The most diagonal walks Myers' diff makes within `maxEditLength` rounds, the first walk (round 0) included. */
export function myersWalks(maxEditLength: number): number {
	return 1 + maxEditLength + (maxEditLength * (maxEditLength + 1)) / 2;
}

/** Characters read from each end of a line for its key. */
const KEY_END_CHARS = 16;

/**
A cheap key for a line (a hash of its length and up to `KEY_END_CHARS` characters from each end),
far cheaper than hashing the whole string for a map. Different lines may share a key; that only
weakens the proof (fewer lines left unmatched, more equal pairs counted), never makes it wrong.
*/
function lineKey(line: string): number {
	const {length} = line;
	let hash = Math.imul(0x81_1c_9d_c5 ^ length, 0x01_00_01_93);
	const head = Math.min(length, KEY_END_CHARS);
	for (let index = 0; index < head; index++) {
		hash = Math.imul(hash ^ line.charCodeAt(index), 0x01_00_01_93);
	}

	for (let index = Math.max(head, length - KEY_END_CHARS); index < length; index++) {
		hash = Math.imul(hash ^ line.charCodeAt(index), 0x01_00_01_93);
	}

	return hash;
}

/**
Whether the exact diff of `oldLines` and `newLines` with these bounds is certain to give up on the
edit length, never reaching `maxComparisons` line comparisons. False when it cannot be sure.
*/
export function diffStopsAtEditLength(oldLines: readonly string[], newLines: readonly string[], maxEditLength: number, maxComparisons: number): boolean {
	const walks = myersWalks(maxEditLength);
	if (oldLines.length + newLines.length <= maxEditLength || walks > maxComparisons) {
		return false;
	}

	// Old lines counted by key in an open-addressing table (linear probing) at most half full.
	let size = 2;
	while (size < 2 * oldLines.length) {
		size *= 2;
	}

	const mask = size - 1;
	const keys = new Int32Array(size);
	const oldCounts = new Int32Array(size);
	const matchedCounts = new Int32Array(size);
	const slotOf = (key: number): number => {
		let slot = key & mask;
		while (oldCounts[slot] !== 0 && keys[slot] !== key) {
			slot = (slot + 1) & mask;
		}

		return slot;
	};

	for (const line of oldLines) {
		const key = lineKey(line);
		const slot = slotOf(key);
		keys[slot] = key;
		oldCounts[slot]!++;
	}

	let matched = 0;
	let equalPairs = 0;
	const budget = maxComparisons - walks;
	for (const line of newLines) {
		const slot = slotOf(lineKey(line));
		const count = oldCounts[slot]!;
		equalPairs += count;
		if (equalPairs > budget) {
			return false;
		}

		if (matchedCounts[slot]! < count) {
			matchedCounts[slot]!++;
			matched++;
		}
	}

	const unmatched = oldLines.length - matched + (newLines.length - matched);
	return unmatched > maxEditLength;
}
