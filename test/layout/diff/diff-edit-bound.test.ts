import {diffArrays} from 'diff';
import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {diffStopsAtEditLength} from '../../../src/layout/diff/diff-edit-bound.js';

/** What the `diff` package itself does with these bounds: its result and the comparisons it made. */
function runMyers(oldLines: string[], newLines: string[], maxEditLength: number): {readonly finished: boolean; readonly comparisons: number} {
	let comparisons = 0;
	const changes = diffArrays(oldLines, newLines, {
		maxEditLength,
		comparator: (left: string, right: string) => {
			comparisons++;
			return left === right;
		},
	});
	return {finished: changes !== undefined, comparisons};
}

/** Long lines that differ only in the middle: the bound's cheap line key does not tell them apart. */
const middle = (text: string) => `${'<'.repeat(16)}${text}${'>'.repeat(16)}`;

// Few distinct lines: long runs of equal pairs on many diagonals, where Myers compares the most.
const lines = fc.array(fc.constantFrom('a', 'b', 'c', '', '}', 'x = 1', middle('p'), middle('q')), {maxLength: 40});

describe('diffStopsAtEditLength', () => {
	test('when it says the diff stops at the edit length, the diff package gives up there within the comparison bound', () => {
		let proved = 0;
		fc.assert(fc.property(lines, lines, fc.integer({min: 0, max: 12}), fc.integer({min: 1, max: 600}), (oldLines, newLines, maxEditLength, maxComparisons) => {
			const {finished, comparisons} = runMyers(oldLines, newLines, maxEditLength);
			// The bound it is asked about, and the one the diff just needed: it must refuse the latter when short of it.
			for (const bound of [maxComparisons, comparisons - 1, comparisons]) {
				if (diffStopsAtEditLength(oldLines, newLines, maxEditLength, bound)) {
					proved++;
					expect(finished).toBe(false);
					expect(comparisons).toBeLessThanOrEqual(bound);
				}
			}
		}), {numRuns: 3000});
		// The property says something only if the proof is found often enough.
		expect(proved).toBeGreaterThan(300);
	});

	test('a half-rewritten file is proved out of reach; a small edit, or a bound too tight to rule out, is not', () => {
		const old = Array.from({length: 2000}, (_, index) => `line ${index}`);
		const rewritten = old.map((line, index) => (index % 2 === 1 ? `${line} changed` : line));
		expect(diffStopsAtEditLength(old, rewritten, 500, 5_000_000)).toBe(true);
		expect(runMyers(old, rewritten, 500).finished).toBe(false);

		const oneEdit = old.map((line, index) => (index === 1000 ? 'edited' : line));
		expect(diffStopsAtEditLength(old, oneEdit, 500, 5_000_000)).toBe(false);
		// 1 000 unmatched lines, but too few comparisons allowed to know which bound Myers would hit first.
		expect(diffStopsAtEditLength(old, rewritten, 500, 100_000)).toBe(false);
	});

	test('lines that differ only far from their ends look alike to it, so it proves nothing about them', () => {
		const old = Array.from({length: 600}, (_, index) => middle(`old ${String(index).padStart(3, '0')}`));
		const rewritten = old.map(line => line.replace('old', 'new'));
		expect(runMyers(old, rewritten, 500).finished).toBe(false);
		expect(diffStopsAtEditLength(old, rewritten, 500, 5_000_000)).toBe(false);
		expect(diffStopsAtEditLength(old, rewritten.map(line => `${line}!`), 500, 5_000_000)).toBe(true);
	});

	test('repeated lines count as a multiset: reordering them proves nothing, and neither do sides shorter than the bound', () => {
		const blocks = Array.from({length: 600}, (_, index) => `block ${index % 3}`);
		expect(diffStopsAtEditLength(blocks, [...blocks].reverse(), 100, 5_000_000)).toBe(false);
		expect(diffStopsAtEditLength(['a', 'b'], ['c', 'd'], 4, 5_000_000)).toBe(false);
		expect(diffStopsAtEditLength(['a', 'b'], ['c', 'd'], 3, 5_000_000)).toBe(true);
	});
});
