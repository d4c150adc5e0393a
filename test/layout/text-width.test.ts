import fc from 'fast-check';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {displayWidth, truncateToWidth, wrapToWidth} from '../../src/layout/text-width.js';

// string-width, except that a mark never takes a cell (string-width measures a flag with a mark by its
// first code point); test/layout/sanitize-width.test.ts checks the widths against a terminal.
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
