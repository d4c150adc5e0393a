import {readFileSync} from 'node:fs';
import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {HIGHLIGHT_MAX_LINES, highlightLines} from '../../../src/layout/highlight/highlight.js';
import {parseSgrLines} from './cli-highlight-sgr.js';
import {referenceHighlightLines} from './cli-highlight-reference.js';

// One lang value per grammar highlightLines knows (highlight-lang.ts).
const langs = ['ts', 'js', 'json', 'py', 'rb', 'go', 'rs', 'java', 'c', 'cs', 'swift', 'php', 'sh', 'yaml', 'ini', 'md', 'html', 'css', 'scss', 'less', 'sql', 'lua', 'cpp', 'kotlin'] as const;

/** Pieces that open and close the constructs grammars nest: strings, comments, templates, tags, sub-languages. */
const codePieces = [
	'const', 'let', 'def ', 'fn ', 'class ', 'return', 'import', 'if', 'else', '#include', '#!/bin/sh', 'SELECT', 'function', 'end', 'local',
	' ', '  ', '\t', '\n', '\n', '\n', '(', ')', '{', '}', '[', ']', '<', '>', '</', '/>', '=', ';', ':', ',', '.', '$', '${', '`', '@', '&', '&amp;',
	'"', '\'', '"""', '/*', '*/', '/**', '//', '#', '--', '<!--', '-->', '<?php', '?>', '<script>', '</script>', '<style>', '</style>', '<div class="a">',
	'0x1F', '42', '3.14', 'true', 'null', 'None', 'nil', '@param', '**bold**', '_em_', '# Title', '- item', '[link](http://x)', '```', '---', 'key: value',
	'[section]', 'a = 1', '\\', '\\n', 'é', '漢字', '😀', '\uD83D', '\uDE00', '\uDC01', '\r', '\0', '\uFEFF', '\u0007',
];

const code = fc.array(fc.oneof(fc.constantFrom(...codePieces), fc.string({maxLength: 4})), {maxLength: 60}).map(pieces => pieces.join(''));

describe('highlightLines walks highlight.js\'s token tree into the very spans cli-highlight\'s HTML round trip gave', () => {
	test('on random code in every grammar, lone surrogates, CR, NUL and BOM included', () => {
		fc.assert(
			fc.property(code, fc.constantFrom(...langs), (text, lang) => {
				const lines = text.split('\n');
				expect(highlightLines(lines, lang)).toEqual(referenceHighlightLines(lines, lang));
			}),
			{numRuns: 1500},
		);
	});

	test('on real files: this repository\'s sources, docs and manifest', () => {
		const files: Array<[path: string, lang: string]> = [
			['src/layout/cards/diff-card.ts', 'ts'], ['src/layout/markdown/markdown-code.ts', 'ts'], ['bench/diff-layout.mjs', 'js'], ['package.json', 'json'],
			['docs/architecture.md', 'md'], ['docs/performance.md', 'md'], ['README.md', 'md'], ['tsconfig.json', 'json'],
		];
		let compared = 0;
		for (const [path, lang] of files) {
			const lines = readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8').split('\n');
			for (let start = 0; start < lines.length; start += HIGHLIGHT_MAX_LINES / 4) {
				const chunk = lines.slice(start, start + HIGHLIGHT_MAX_LINES / 4);
				const expected = referenceHighlightLines(chunk, lang);
				expect(highlightLines(chunk, lang)).toEqual(expected);
				compared += expected === undefined ? 0 : 1;
			}
		}

		// The comparison is of coloured output, not of two refusals.
		expect(compared).toBeGreaterThan(20);
	});
});

describe('parseSgrLines (the reference\'s SGR parser)', () => {
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
