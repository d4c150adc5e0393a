import fc from 'fast-check';
import {beforeEach, describe, expect, test} from 'vitest';
import {extendSplit, splitMarkdown} from '../../../src/layout/markdown/markdown-blocks.js';
import {clearMarkdownCache, layoutMarkdown, markdownLayoutStats} from '../../../src/layout/markdown/markdown-layout.js';
import {createMarkdownStream} from '../../../src/layout/markdown/markdown-stream.js';
import {lineText} from '../../../src/layout/text/spans.js';
import {colorTheme} from '../../../src/layout/text/theme.js';

beforeEach(() => {
	clearMarkdownCache();
});

/** Lines that exercise every splitting rule: fences, blanks, indentation, lists, quotes, definitions. */
const markdownLine = fc.constantFrom(
	'', '', '  ', 'para text', 'more *em* text', '# Heading', '- item', '  - nested', '1. first', '   continued',
	'> quote', '```ts', '```', '~~~', '````', '    indented code', '| a | b |', '|-|-|', '[d]: https://x.y', 'see [d]', '<div>', '`inline`', '```a`b',
);
const markdownText = fc.array(markdownLine, {maxLength: 30}).map(lines => lines.join('\n'));

describe('splitMarkdown', () => {
	test('blocks split at blank lines, an indented line after a blank continues its block, a column-0 fence is its own block', () => {
		const blocks = splitMarkdown('intro\ntext\n\n- a\n\n  still a\n```ts\ncode\n\nmore\n```\nafter').blocks;
		expect(blocks.map(block => [block.kind, block.text])).toEqual([
			['markdown', 'intro\ntext'],
			['markdown', '- a\n\n  still a'],
			['fence', '```ts\ncode\n\nmore\n```'],
			['markdown', 'after'],
		]);
		expect(blocks[2]).toMatchObject({lang: 'ts', marker: '```', closed: true});
	});

	test('a backtick fence whose info string holds a backtick is text, not a fence', () => {
		expect(splitMarkdown('``` a`b\nx').blocks.map(block => block.kind)).toEqual(['markdown']);
	});

	test('extending a split by any appended text gives the split of the whole text, reusing the final blocks', () => {
		fc.assert(fc.property(markdownText, fc.nat(), (text, cutSeed) => {
			const cut = text.length === 0 ? 0 : cutSeed % (text.length + 1);
			const before = splitMarkdown(text.slice(0, cut));
			const extended = extendSplit(before, text);
			expect(extended.blocks).toEqual(splitMarkdown(text).blocks);
			// All but the last two blocks are the very same objects.
			const reusable = Math.max(0, before.blocks.length - 2);
			for (let index = 0; index < reusable; index++) {
				expect(extended.blocks[index]).toBe(before.blocks[index]);
			}
		}), {numRuns: 500, seed: 12});
	});
});

describe('streaming layout', () => {
	test('a stream fed character by character lays out exactly like the whole text, at every step', () => {
		fc.assert(fc.property(markdownText, fc.array(fc.integer({min: 1, max: 9}), {minLength: 1, maxLength: 40}), (text, steps) => {
			clearMarkdownCache();
			const stream = createMarkdownStream();
			let at = 0;
			let step = 0;
			while (at < text.length) {
				const next = Math.min(text.length, at + steps[step++ % steps.length]!);
				stream.append(text.slice(at, next));
				at = next;
				const streamed = stream.lines({width: 30, theme: colorTheme});
				clearMarkdownCache();
				expect(streamed).toEqual(layoutMarkdown(stream.text, {width: 30, theme: colorTheme}));
			}
		}), {numRuns: 150, seed: 7});
	});

	test('an append lays out at most the last two blocks again, however long the message', () => {
		const paragraphs = Array.from({length: 200}, (_, index) => `Paragraph ${index} with **bold** and \`code\` and a [link](https://example.com/${index}).`);
		const stream = createMarkdownStream(paragraphs.join('\n\n'));
		stream.lines({width: 80, theme: colorTheme});
		for (const delta of [' more', ' words', '\n\nA new paragraph', ' grows', '\n- a list', '\n- item']) {
			const before = markdownLayoutStats.blocksLaidOut;
			stream.append(delta);
			const lines = stream.lines({width: 80, theme: colorTheme});
			expect(markdownLayoutStats.blocksLaidOut - before).toBeLessThanOrEqual(2);
			expect(lines.map(line => lineText(line)).join('')).toContain(delta.trim().replace(/^- /, '• '));
		}
	});

	test('layoutMarkdown of a text extending an earlier one reuses the earlier blocks too', () => {
		const base = Array.from({length: 100}, (_, index) => `Block ${index}.`).join('\n\n');
		layoutMarkdown(base, {width: 80, theme: colorTheme});
		const before = markdownLayoutStats.blocksLaidOut;
		layoutMarkdown(`${base} Appended.`, {width: 80, theme: colorTheme});
		expect(markdownLayoutStats.blocksLaidOut - before).toBe(1);
	});
});
