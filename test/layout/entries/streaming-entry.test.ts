import fc from 'fast-check';
import {beforeEach, describe, expect, test} from 'vitest';
import {layoutEntry} from '../../../src/layout/entries/layout-entry.js';
import {clearMarkdownCache, markdownLayoutStats} from '../../../src/layout/markdown/markdown-layout.js';
import {lineText} from '../../../src/layout/text/spans.js';
import {colorTheme} from '../../../src/layout/text/theme.js';
import type {AssistantEntry} from '../../../src/presentation/entry.js';

beforeEach(() => {
	clearMarkdownCache();
});

let nextSeq = 100;

function streamingEntry(seq: number, text: string, revision: number, preparing: readonly string[] = []): AssistantEntry {
	return {entry: 'assistant', seq, time: 0, turn: 1, step: 1, text, reasoning: '', interrupted: false, streaming: true, preparing, revision};
}

const line = fc.constantFrom('', '', 'para *text*', '# Head', '- item', '```ts', '```', 'const x = 1;', '| a | b |', '|-|-|', '> quote');

describe('layoutEntry of a streaming assistant entry', () => {
	test('lays out every prefix exactly as the settled entry with that text, fully expanded', () => {
		fc.assert(fc.property(fc.array(line, {maxLength: 25}).map(lines => lines.join('\n')), fc.integer({min: 1, max: 12}), (text, step) => {
			const seq = nextSeq++;
			for (let at = step, revision = 0; at < text.length + step; at += step, revision++) {
				const prefix = text.slice(0, at);
				const streamed = layoutEntry(streamingEntry(seq, prefix, revision), {width: 30, theme: colorTheme, now: 0, expansion: 'full'});
				const settled = layoutEntry({...streamingEntry(seq, prefix, revision), streaming: false}, {width: 30, theme: colorTheme, now: 0, expansion: 'full'});
				expect(streamed).toEqual(settled);
			}
		}), {numRuns: 120, seed: 5});
	});

	test('an appended delta lays out at most the last two blocks again, even after the shared cache was emptied', () => {
		const seq = nextSeq++;
		let text = Array.from({length: 200}, (_, index) => `Paragraph ${index} with **bold** and \`code\`.`).join('\n\n');
		layoutEntry(streamingEntry(seq, text, 0), {width: 80, theme: colorTheme, now: 0, expansion: 'full'});
		for (const [revision, delta] of [' more', ' words', '\n\nA new paragraph', ' grows', '\n- a list', '\n- item'].entries()) {
			// Other views' layouts may evict the shared block cache at any time.
			clearMarkdownCache();
			const before = markdownLayoutStats.blocksLaidOut;
			text += delta;
			const rows = layoutEntry(streamingEntry(seq, text, revision + 1), {width: 80, theme: colorTheme, now: 0, expansion: 'full'});
			expect(markdownLayoutStats.blocksLaidOut - before).toBeLessThanOrEqual(2);
			expect(rows.map(row => lineText(row)).join('\n')).toContain(delta.trim().replace(/^- /, '• '));
		}
	});

	test('a text that no longer extends the stream (a retried attempt) is laid out afresh', () => {
		const seq = nextSeq++;
		layoutEntry(streamingEntry(seq, 'First attempt says **this**', 0), {width: 40, theme: colorTheme, now: 0});
		const rows = layoutEntry(streamingEntry(seq, 'Second', 1), {width: 40, theme: colorTheme, now: 0});
		expect(rows.map(row => lineText(row))).toEqual(['Second']);
	});

	test('a bounded view follows the end of a long stream; a preparing row follows the text', () => {
		const text = Array.from({length: 60}, (_, index) => `- line ${index}`).join('\n');
		const rows = layoutEntry(streamingEntry(nextSeq++, text, 0, ['grep']), {width: 40, theme: colorTheme, now: 0}).map(row => lineText(row));
		expect(rows[0]).toBe('… 37 earlier lines');
		expect(rows.at(-2)).toBe('• line 59');
		expect(rows.at(-1)).toBe('◌ preparing grep…');
		expect(rows).toHaveLength(25);
	});
});
