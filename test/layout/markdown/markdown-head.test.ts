import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {foldEntryHead, foldEntryRows, headRows} from '../../../src/layout/entries/entry-rows.js';
import {clearMarkdownCache, markdownHead} from '../../../src/layout/markdown/markdown-layout.js';
import {markdownRows} from '../../../src/layout/markdown/markdown-rows.js';
import {colorTheme, monochromeTheme} from '../../../src/layout/text/theme.js';
import {markdownCases} from '../markdown-cases.js';

/** The fold of every row of the message: what a folded answer showed before heads existed. */
function foldedWhole(text: string, expansion: 'summary' | 'bounded', width: number) {
	const {rows, lineStarts} = markdownRows(text, {width, theme: colorTheme, cache: false});
	return foldEntryRows(rows, lineStarts, expansion, colorTheme, width);
}

function foldedHead(text: string, expansion: 'summary' | 'bounded', width: number, cache: boolean) {
	return foldEntryHead(markdownHead(text, {width, theme: colorTheme, cache}, headRows(expansion)), expansion, colorTheme, width);
}

/** Blocks of every kind, joined by blank lines or not, so heads end inside and between blocks. */
const block = fc.constantFrom(
	'Plain words that wrap at narrow widths and more words after them.', 'a', '# Heading', '- one\n- two\n- three',
	'1. first\n2. second', '> quoted\n> text', '```ts\nconst a = 1;\nconst b = 2;\n```', '---', '| a | b |\n| - | - |\n| 1 | 2 |',
	'line one  \nline two', '[ref]: https://example.com', 'see [x][ref]', '', '   ', 'word **bold** `code` word.',
	'漢字のテキストが続きます漢字のテキストが続きます', 'long-unbroken-word-'.repeat(8),
);
const message = fc.array(fc.tuple(block, fc.constantFrom('\n\n', '\n', '\n\n\n')), {maxLength: 8}).map(parts => parts.map(([text, joint]) => text + joint).join(''));

describe('markdownHead', () => {
	test('folded from its head, a message shows exactly the rows folded from all its rows (random messages, widths, both folds)', () => {
		fc.assert(fc.property(message, fc.integer({min: 1, max: 90}), fc.constantFrom('summary' as const, 'bounded' as const), (text, width, expansion) => {
			expect(foldedHead(text, expansion, width, false)).toEqual(foldedWhole(text, expansion, width));
		}), {numRuns: 1500});
	});

	test('the Markdown snapshot subjects fold the same from their head, cached or not', () => {
		for (const {text} of markdownCases) {
			for (const width of [20, 40, 80, 120]) {
				for (const expansion of ['summary', 'bounded'] as const) {
					const whole = foldedWhole(text, expansion, width);
					expect(foldedHead(text, expansion, width, false)).toEqual(whole);
					clearMarkdownCache();
					expect(foldedHead(text, expansion, width, true)).toEqual(whole);
				}
			}
		}
	});

	test('a head has the rows asked for, says more rows follow, and counts every logical line', () => {
		const text = 'First paragraph.\n\n- a\n- b\n\n```\ncode\n```';
		const head = markdownHead(text, {width: 40, theme: monochromeTheme, cache: false}, 1);
		expect(head.rows.map(row => row.spans.map(span => span.text).join(''))).toEqual(['First paragraph.']);
		expect(head.more).toBe(true);
		// paragraph, blank, two items, blank, code (a code block has no fence rows)
		expect(head.lines).toBe(6);
		expect(markdownHead('One row.', {width: 40, theme: monochromeTheme, cache: false}, 1)).toEqual({rows: [{spans: [{text: 'One row.'}]}], more: false, lines: 1});
	});
});
