import {describe, expect, test} from 'vitest';
import {computeLineDiff, splitLines} from '../../../src/layout/diff/line-diff.js';

const numbered = (count: number, change?: (index: number) => string | undefined): string =>
	Array.from({length: count}, (_, index) => change?.(index) ?? `line ${index + 1}`).join('\n');

describe('splitLines', () => {
	test('an empty text is zero lines', () => {
		expect(splitLines('')).toEqual([]);
	});

	test('one trailing newline ends the last line instead of adding an empty one', () => {
		expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
		expect(splitLines('a\nb')).toEqual(['a', 'b']);
	});

	test('interior blank lines and a second trailing newline are kept', () => {
		expect(splitLines('a\n\nb\n\n')).toEqual(['a', '', 'b', '']);
		expect(splitLines('\n')).toEqual(['']);
	});

	test('a carriage return before a newline is part of the line ending, a final lone one is content', () => {
		expect(splitLines('a\r\nb\r\n')).toEqual(['a', 'b']);
		expect(splitLines('a\r\nb\r')).toEqual(['a', 'b\r']);
	});
});

describe('computeLineDiff', () => {
	test('a one-line change keeps its context neutral and counts one removed and one added line', () => {
		expect(computeLineDiff({path: 'a', oldText: 'x\nold\ny', newText: 'x\nnew\ny'})).toEqual({
			rows: [
				{kind: 'context', text: 'x'},
				{kind: 'removed', text: 'old'},
				{kind: 'added', text: 'new'},
				{kind: 'context', text: 'y'},
			],
			added: 1,
			removed: 1,
		});
	});

	test('a missing old side makes every new line an added line, blank ones included', () => {
		expect(computeLineDiff({path: 'a', oldText: null, newText: 'a\n\nb\n'})).toEqual({
			rows: [{kind: 'added', text: 'a'}, {kind: 'added', text: ''}, {kind: 'added', text: 'b'}],
			added: 3,
			removed: 0,
		});
	});

	test('sides that differ only by a trailing newline are unchanged', () => {
		expect(computeLineDiff({path: 'a', oldText: 'a\nb', newText: 'a\nb\n'})).toEqual({
			rows: [{kind: 'context', text: 'a'}, {kind: 'context', text: 'b'}],
			added: 0,
			removed: 0,
		});
	});

	test('long unchanged runs collapse to gaps that keep three lines around each change', () => {
		const diff = {path: 'a', oldText: numbered(20), newText: numbered(20, index => (index === 9 ? 'ten' : undefined))};
		expect(computeLineDiff(diff)).toEqual({
			rows: [
				{kind: 'gap', count: 6},
				{kind: 'context', text: 'line 7'},
				{kind: 'context', text: 'line 8'},
				{kind: 'context', text: 'line 9'},
				{kind: 'removed', text: 'line 10'},
				{kind: 'added', text: 'ten'},
				{kind: 'context', text: 'line 11'},
				{kind: 'context', text: 'line 12'},
				{kind: 'context', text: 'line 13'},
				{kind: 'gap', count: 7},
			],
			added: 1,
			removed: 1,
		});
	});

	test('a gap that would hide a single line shows the line instead', () => {
		const diff = {path: 'a', oldText: numbered(5), newText: numbered(5, index => (index === 4 ? 'five' : undefined))};
		expect(computeLineDiff(diff).rows).toEqual([
			{kind: 'context', text: 'line 1'},
			{kind: 'context', text: 'line 2'},
			{kind: 'context', text: 'line 3'},
			{kind: 'context', text: 'line 4'},
			{kind: 'removed', text: 'line 5'},
			{kind: 'added', text: 'five'},
		]);
	});

	test('within a changed region every removed line comes before every added line', () => {
		expect(computeLineDiff({path: 'a', oldText: 'a\nb\nc', newText: 'x\nb\ny\nz'}).rows).toEqual([
			{kind: 'removed', text: 'a'},
			{kind: 'added', text: 'x'},
			{kind: 'context', text: 'b'},
			{kind: 'removed', text: 'c'},
			{kind: 'added', text: 'y'},
			{kind: 'added', text: 'z'},
		]);
	});

	/** A rewritten middle between kept lines, and its whole-sides fallback. */
	const rewrite = {path: 'a', oldText: 'keep\na\nb\nc\nend', newText: 'keep\nx\ny\nz\nend'};
	const wholeSides = {
		rows: [
			{kind: 'context', text: 'keep'},
			{kind: 'removed', text: 'a'},
			{kind: 'removed', text: 'b'},
			{kind: 'removed', text: 'c'},
			{kind: 'added', text: 'x'},
			{kind: 'added', text: 'y'},
			{kind: 'added', text: 'z'},
			{kind: 'context', text: 'end'},
		],
		added: 3,
		removed: 3,
	};

	test('a rewrite beyond the edit-length bound falls back to whole sides of the changed middle', () => {
		expect(computeLineDiff({...rewrite}, {maxEditLength: 4})).toEqual({
			...wholeSides,
			approximate: {reason: 'edit-length', maxEditLength: 4, maxComparisons: 5_000_000},
		});
	});

	test('a diff needing more line comparisons than the bound falls back to whole sides', () => {
		expect(computeLineDiff({...rewrite}, {maxComparisons: 2})).toEqual({
			...wholeSides,
			approximate: {reason: 'comparisons', maxEditLength: 500, maxComparisons: 2},
		});
		expect(computeLineDiff({...rewrite}, {maxComparisons: 100}).approximate).toBeUndefined();
	});

	test('reordered lines stop at the edit-length bound like any other edit', () => {
		const diff = {path: 'a', oldText: 'a\nb\nc\nd', newText: 'd\nc\nb\na'};
		expect(computeLineDiff(diff, {maxEditLength: 3}).approximate).toEqual({reason: 'edit-length', maxEditLength: 3, maxComparisons: 5_000_000});
		expect(computeLineDiff({...diff}, {maxEditLength: 6}).approximate).toBeUndefined();
	});

	test('an edit past the short first try is still exact; a rewrite past the bound names the bound the exact diff would hit first', () => {
		const old = numbered(2000);
		const changed = (every: number) => numbered(2000, index => (index % every === every - 1 ? `line ${index + 1} changed` : undefined));
		// 200 changed lines: 400 edits, more than the first try's bound, fewer than the default.
		expect(computeLineDiff({path: 'a', oldText: old, newText: changed(10)})).toMatchObject({added: 200, removed: 200});
		expect(computeLineDiff({path: 'a', oldText: old, newText: changed(10)}).approximate).toBeUndefined();
		// Every other line: 1 999 lines each side after the common first line, whole sides either way.
		const half = {path: 'a', oldText: old, newText: changed(2)};
		expect(computeLineDiff({...half})).toMatchObject({added: 1999, removed: 1999, approximate: {reason: 'edit-length'}});
		expect(computeLineDiff({...half}, {maxComparisons: 200_000}).approximate?.reason).toBe('edit-length');
		expect(computeLineDiff({...half}, {maxComparisons: 100_000}).approximate?.reason).toBe('comparisons');
		expect(computeLineDiff({path: 'a', oldText: old, newText: changed(10)}, {maxComparisons: 30_000}).approximate?.reason).toBe('comparisons');
	});

	test('the result is computed once per FileDiff object and bound', () => {
		const diff = {path: 'a', oldText: 'a\nb', newText: 'a\nc'};
		const first = computeLineDiff(diff);
		expect(computeLineDiff(diff)).toBe(first);
		expect(computeLineDiff({...diff})).not.toBe(first);
		expect(computeLineDiff(diff, {maxEditLength: 1})).not.toBe(first);
	});
});
