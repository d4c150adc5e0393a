import fc from 'fast-check';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {displayWidth, graphemeCount, graphemes, isNarrowText, truncateToWidth, wholeGraphemes, wrapToWidth} from '../../../src/layout/text/text-width.js';
import {narrowCharacters} from '../helpers.js';

// string-width, except that a mark never takes a cell (string-width measures a flag with a mark by its
// first code point); test/layout/text/sanitize-width.test.ts checks the widths against a terminal.
const reference = (text: string) => stringWidth(text.replaceAll(/(?![\uFE0E\uFE0F\u20E3])[\p{Mn}\p{Me}]/gu, ''), {ambiguousIsNarrow: true, countAnsiEscapeCodes: true});
const pieces = ['a', 'Z', ' ', 'é', 'ß', 'Ω', '日', '本', '가', 'ﾊ', 'Ａ', '🚀', '❤️', '👍🏽', '🇫🇷', 'e\u0301', '\u200b', '●', '⊘', '①', '…', '—', 'ǅ', '\u0300'];

describe('displayWidth', () => {
	it('agrees with string-width (ambiguous narrow, marks taking no cell) on mixed scripts, emoji, combining and zero-width characters', () => {
		fc.assert(fc.property(fc.array(fc.constantFrom(...pieces), {maxLength: 40}), parts => {
			const text = parts.join('');
			expect(displayWidth(text)).toBe(reference(text));
		}), {numRuns: 2000, seed: 7});
	});

	it('counts wide characters as two columns and VS16 emoji as two', () => {
		expect([displayWidth('日本'), displayWidth('❤️'), displayWidth('héllo'), displayWidth('a\u200bb')]).toEqual([4, 2, 5, 2]);
	});

	it('truncates and wraps by the same measure', () => {
		expect(truncateToWidth('日本語のメモ', 7)).toBe('日本語…');
		expect(wrapToWidth('ab日本', 3)).toEqual(['ab', '日', '本']);
	});
});

describe('narrow text (measured and cut by its length)', () => {
	const narrow = narrowCharacters();
	const segmenter = new Intl.Segmenter();
	const segments = (text: string) => Array.from(segmenter.segment(text), segment => segment.segment);

	it('is every character of the ranges, one column and a grapheme of its own beside anything narrow', () => {
		expect(narrow.length).toBeGreaterThan(1500);
		expect(narrow).toContain('—');
		expect(narrow).toContain('→');
		expect(narrow).toContain('✓');
		const wrong = narrow.filter(character => reference(character) !== 1
			|| segments(`a${character}a`).length !== 3 || segments(`${character}${character}`).length !== 2 || segments(`é${character}é`).length !== 3);
		expect(wrong.map(character => character.codePointAt(0)!.toString(16))).toEqual([]);
		expect(narrow.every(character => isNarrowText(character))).toBe(true);
	});

	it('leaves out what combines, joins or is wide', () => {
		for (const text of ['e\u0301', '\u200d', '\ufe0f', '日', '가', '\u1100', '❤', '🚀', '\u00ad', '\t', '\n', '\u2028']) {
			expect(isNarrowText(text)).toBe(false);
		}
	});

	it('judges long text (past its printable-ASCII shortcut) character by character, as short text', () => {
		const narrowSet = new Set(narrow);
		const ascii = 'x'.repeat(300);
		const others = ['日', 'e\u0301', '\u200b', '\t', '\n', '\u007f', '\u0080', '🚀', '\ud800'];
		const piece = fc.oneof(fc.constantFrom(ascii, ' {"a":1}', 'q'), fc.constantFrom(...narrow.filter((_, index) => index % 11 === 0)), fc.constantFrom(...others));
		fc.assert(fc.property(fc.array(piece, {minLength: 1, maxLength: 12}), parts => {
			const text = parts.join('');
			expect(isNarrowText(text)).toBe(Array.from(text).every(character => character.length === 1 && (narrowSet.has(character) || (character >= ' ' && character <= '~'))));
		}), {numRuns: 1000, seed: 13});
		expect(isNarrowText(`${ascii}—${ascii}`)).toBe(true);
		expect(isNarrowText(`${ascii}—${ascii}\u0301`)).toBe(false);
		expect(isNarrowText(`\u0301${ascii}`)).toBe(false);
	});

	it('measures, splits, wraps and truncates as the full measure does', () => {
		const sample = fc.array(fc.constantFrom(...narrow.filter((_, index) => index % 7 === 0), ' ', 'a'), {maxLength: 60}).map(parts => parts.join(''));
		fc.assert(fc.property(sample, fc.integer({min: 1, max: 30}), (text, width) => {
			expect(displayWidth(text)).toBe(reference(text));
			expect(graphemes(text)).toEqual(segments(text));
			const rows = wrapToWidth(text, width);
			expect(rows.join('')).toBe(text);
			expect(rows.every((row, index) => displayWidth(row) === (index === rows.length - 1 ? displayWidth(row) : width) && displayWidth(row) <= width)).toBe(true);
			expect(rows.length).toBe(Math.max(1, Math.ceil(text.length / width)));
			expect(displayWidth(truncateToWidth(text, width))).toBeLessThanOrEqual(width);
		}), {numRuns: 500, seed: 11});
	});
});

describe('graphemeCount and wholeGraphemes', () => {
	it('counts graphemes as graphemes() splits them, for any text', () => {
		fc.assert(fc.property(fc.string({unit: 'grapheme'}), text => {
			expect(graphemeCount(text)).toBe(graphemes(text).length);
		}), {numRuns: 300});
	});

	it('widens a range cut inside a grapheme to it, drops one the range before already took, keeps touching ranges apart', () => {
		const text = 'a 👍🏽 e\u0301 b';
		// 👍 is [2, 4), its skin tone [4, 6), e [7, 8), the mark [8, 9).
		expect(wholeGraphemes(text, [[4, 6], [8, 9]])).toEqual([[2, 6], [7, 9]]);
		expect(wholeGraphemes(text, [[2, 3], [3, 5], [5, 6]])).toEqual([[2, 6]]);
		expect(wholeGraphemes(text, [[0, 1], [1, 2]])).toEqual([[0, 1], [1, 2]]);
		const ascii = [[1, 3]] as const;
		expect(wholeGraphemes('abcd', ascii)).toBe(ascii);
	});

	it('gives ranges that start and end on grapheme boundaries and cover what was asked, for any text and ranges', () => {
		const input = fc.string({unit: 'grapheme', minLength: 1}).chain(text => fc.tuple(fc.constant(text), fc.uniqueArray(fc.integer({min: 0, max: text.length}), {minLength: 0, maxLength: 8})));
		fc.assert(fc.property(input, ([text, cuts]) => {
			const sorted = [...cuts].sort((a, b) => a - b);
			const ranges: Array<[number, number]> = [];
			for (let index = 0; index + 1 < sorted.length; index += 2) {
				ranges.push([sorted[index]!, sorted[index + 1]!]);
			}

			const boundaries = new Set([0]);
			let offset = 0;
			for (const grapheme of graphemes(text)) {
				offset += grapheme.length;
				boundaries.add(offset);
			}

			const widened = wholeGraphemes(text, ranges);
			for (const [start, end] of widened) {
				expect(boundaries.has(start) && boundaries.has(end) && start < end).toBe(true);
			}

			for (const [start, end] of ranges) {
				for (let unit = start; unit < end; unit++) {
					expect(widened.some(([from, to]) => from <= unit && unit < to)).toBe(true);
				}
			}

			for (let index = 1; index < widened.length; index++) {
				expect(widened[index]![0]).toBeGreaterThanOrEqual(widened[index - 1]![1]);
			}
		}), {numRuns: 300});
	});
});
