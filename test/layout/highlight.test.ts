import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {parseSgrLines} from '../../src/layout/highlight-ansi.js';
import {grammarFor} from '../../src/layout/highlight-lang.js';
import {HIGHLIGHT_MAX_LINES, highlightLines} from '../../src/layout/highlight.js';

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

describe('parseSgrLines', () => {
	test('SGR codes become styles, resets clear them, other sequences are dropped and styles span lines', () => {
		expect(parseSgrLines('a\u001B[31;1mb\nc\u001B[22md\u001B[0m\u001B[2Je\u001B[94mf\u001B[39m')).toEqual([
			[{text: 'a'}, {text: 'b', style: {fg: 'red', bold: true}}],
			[{text: 'c', style: {fg: 'red', bold: true}}, {text: 'd', style: {fg: 'red'}}, {text: 'e'}, {text: 'f', style: {fg: 'brightBlue'}}],
		]);
	});

	test('styles stay right past the size of its memo of applied codes (any text can be parsed, not only the highlighter\'s)', () => {
		// 5 000 distinct parameter lists (bold and a code nothing draws), more than the memo keeps; red applies on top.
		for (let index = 0; index < 5000; index++) {
			expect(parseSgrLines(`\u001B[1;${1000 + index}ma\u001B[31mb`)).toEqual([[{text: 'a', style: {bold: true}}, {text: 'b', style: {fg: 'red', bold: true}}]]);
		}
	});

	test('background and 256-colour codes are ignored, and equal neighbours merge', () => {
		expect(parseSgrLines('\u001B[41mx\u001B[38;5;1my\u001B[0mz')).toEqual([[{text: 'xyz'}]]);
	});
});

describe('languages', () => {
	test('read-card lang values map to highlight.js grammars', () => {
		expect(['ts', 'tsx', 'sh', 'toml', 'md', 'html', 'cs', 'kotlin', 'typescript', 'nope'].map(lang => grammarFor(lang))).toEqual([
			'typescript', 'typescript', 'bash', 'ini', 'markdown', 'xml', 'csharp', 'kotlin', 'typescript', undefined,
		]);
	});
});
