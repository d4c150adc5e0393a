import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {grammarFor} from '../../../src/layout/highlight/highlight-lang.js';
import {HIGHLIGHT_MAX_LINES, highlightLines} from '../../../src/layout/highlight/highlight.js';

describe('highlightLines', () => {
	test('TypeScript lines get 16-colour token styles, and a comment keeps its colour across lines', () => {
		expect(highlightLines(['const x: number = 1; // one', '/* two', 'end */ return "s";', ''], 'ts')).toEqual([
			[
				{text: 'const', style: {fg: 'magenta'}},
				{text: ' x: '},
				{text: 'number', style: {fg: 'cyan'}},
				{text: ' = '},
				{text: '1', style: {fg: 'blue'}},
				{text: '; '},
				{text: '// one', style: {fg: 'gray', italic: true}},
			],
			[{text: '/* two', style: {fg: 'gray', italic: true}}],
			[
				{text: 'end */', style: {fg: 'gray', italic: true}},
				{text: ' '},
				{text: 'return', style: {fg: 'magenta'}},
				{text: ' '},
				{text: '"s"', style: {fg: 'yellow'}},
				{text: ';'},
			],
			[],
		]);
	});

	test('an unknown language is not highlighted, and nothing is auto-detected', () => {
		expect(highlightLines(['const x = 1;'], 'klingon')).toBeUndefined();
		expect(highlightLines(['const x = 1;'], '')).toBeUndefined();
	});

	test('input over the size limit, or holding an escape byte or newline, is not highlighted', () => {
		expect(highlightLines(Array.from({length: HIGHLIGHT_MAX_LINES + 1}, () => 'x = 1'), 'py')).toBeUndefined();
		expect(highlightLines(['x = "\u001B[31m"'], 'py')).toBeUndefined();
		expect(highlightLines(['a\nb'], 'py')).toBeUndefined();
	});

	test('input an HTML parser would alter is not coloured: a CR, a NUL, a lone low surrogate right before another', () => {
		expect(highlightLines(['x = 1\r'], 'py')).toBeUndefined();
		expect(highlightLines(['x = "\0"'], 'py')).toBeUndefined();
		expect(highlightLines(['x = "\uDC01\uDC02"'], 'py')).toBeUndefined();
		// A pair, and a lone low surrogate that a token's start separates from the next, are coloured.
		expect(highlightLines(['x = "\uD83D\uDE00"'], 'py')).toEqual([[{text: 'x = '}, {text: '"\uD83D\uDE00"', style: {fg: 'yellow'}}]]);
		expect(highlightLines(['\uDC01"\uDC02"'], 'py')).toEqual([[{text: '\uDC01'}, {text: '"\uDC02"', style: {fg: 'yellow'}}]]);
	});

	test('a class is read up to its first non-word character and nested tokens keep the outer attributes', () => {
		// `meta-keyword` reads as `meta` (gray), not as a keyword; a doctag (gray) inside a comment stays
		// italic, so it merges with the comment around it.
		expect(highlightLines(['#include <x.h>'], 'c')).toEqual([[{text: '#include <x.h>', style: {fg: 'gray'}}]]);
		expect(highlightLines(['/** @param x */'], 'ts')).toEqual([[{text: '/** @param x */', style: {fg: 'gray', italic: true}}]]);
	});

	test('no lines are zero span lists', () => {
		expect(highlightLines([], 'ts')).toEqual([]);
	});

	test('highlighting never changes the text of any line', () => {
		fc.assert(
			fc.property(fc.array(fc.string({unit: 'grapheme', maxLength: 30}), {maxLength: 6}), fc.constantFrom('ts', 'py', 'html', 'json', 'sh'), (texts, lang) => {
				const lines = texts.map(text => text.replaceAll('\n', ' '));
				const spans = highlightLines(lines, lang);
				if (spans !== undefined) {
					expect(spans.map(line => line.map(span => span.text).join(''))).toEqual(lines);
				}
			}),
			{numRuns: 100},
		);
	});
});

describe('languages', () => {
	test('read-card lang values map to highlight.js grammars', () => {
		expect(['ts', 'tsx', 'sh', 'toml', 'md', 'html', 'cs', 'kotlin', 'typescript', 'nope'].map(lang => grammarFor(lang))).toEqual([
			'typescript', 'typescript', 'bash', 'ini', 'markdown', 'xml', 'csharp', 'kotlin', 'typescript', undefined,
		]);
	});
});
