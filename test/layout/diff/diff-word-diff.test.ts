import {describe, expect, test} from 'vitest';
import {computeLineDiff} from '../../../src/layout/diff/line-diff.js';
import {rowWordHighlights, wordHighlights} from '../../../src/layout/diff/word-diff.js';

describe('wordHighlights', () => {
	test('a changed word is highlighted on both sides by its offsets', () => {
		expect(wordHighlights('  DEBUG: true,', '  DEBUG: false,')).toEqual({old: [[9, 13]], new: [[9, 14]]});
	});

	test('several changed words give several ranges, and adjacent changes merge', () => {
		expect(wordHighlights('const a = foo(1, 2);', 'const b = foo(1, 3);')).toEqual({old: [[6, 7], [17, 18]], new: [[6, 7], [17, 18]]});
		expect(wordHighlights('call(a)', 'call(a, b)')).toEqual({old: [], new: [[6, 9]]});
	});

	test('a pair sharing too little is not highlighted: the line colour already says it all changed', () => {
		expect(wordHighlights('x = 1', 'y = 2')).toBeUndefined();
		expect(wordHighlights('return alpha;', 'throw new Error(beta);')).toBeUndefined();
	});

	test('identical and over-long lines are not compared', () => {
		expect(wordHighlights('same', 'same')).toBeUndefined();
		expect(wordHighlights('a'.repeat(1001), `${'a'.repeat(1000)}b`)).toBeUndefined();
	});
});

describe('rowWordHighlights', () => {
	test('the i-th removed line pairs with the i-th added line of the same changed region', () => {
		const lineDiff = computeLineDiff({path: 'a', oldText: 'keep\nlet a = 1;\nlet b = 2;\nkeep', newText: 'keep\nlet a = 10;\nlet b = 20;\nextra line\nkeep'});
		// Rows: keep, -a, -b, +a, +b, +extra, keep.
		const words = rowWordHighlights(lineDiff);
		expect(lineDiff.rows.map((_, row) => words.get(row))).toEqual([undefined, [[8, 9]], [[8, 9]], [[8, 10]], [[8, 10]], undefined, undefined]);
	});

	test('only the first 200 pairs of a file are compared, whichever row is asked for first', () => {
		const old = Array.from({length: 210}, (_, index) => `keep ${index}\nlet v${index} = ${index};`);
		const lineDiff = computeLineDiff({path: 'a', oldText: old.join('\n'), newText: old.map(line => line.replace(/;$/, '0;')).join('\n')});
		const changed = lineDiff.rows.flatMap((row, index) => (row.kind === 'added' ? [index] : []));
		expect(changed).toHaveLength(210);
		const words = rowWordHighlights(lineDiff);
		// The 201st pair first: it stays without highlights though no pair before it was compared yet.
		expect(words.get(changed[200]!)).toBeUndefined();
		expect(words.get(changed[199]!)).toEqual([[11, 15]]);
		expect(words.get(changed[199]! - 1)).toEqual([[11, 14]]);
		expect(words.get(changed[0]!)).toEqual([[9, 11]]);
	});

	test('an approximate diff has no word highlights', () => {
		const lineDiff = computeLineDiff({path: 'a', oldText: 'let a = 1;\nlet b = 2;', newText: 'let a = 10;\nlet b = 20;'}, {maxEditLength: 1});
		expect(lineDiff.approximate?.reason).toBe('edit-length');
		const words = rowWordHighlights(lineDiff);
		expect(lineDiff.rows.map((_, row) => words.get(row)).filter(ranges => ranges !== undefined)).toEqual([]);
	});
});
