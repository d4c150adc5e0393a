/**
A streaming answer in the live region (issue 16, attacker item 3): laid out from its end
(`liveRows`), its rows are the last rows of the full layout under one `… N earlier lines` row, and
the work of a frame is the rows shown, not the answer: a 4 MiB answer of one endless line lays out
one window of it per frame, and no version of the growing block stays in the shared cache (a
3 000-line code block streamed line by line held hundreds of MB of them).
*/
import fc from 'fast-check';
import {beforeEach, describe, expect, test} from 'vitest';
import {layoutEntry} from '../../../src/layout/entries/layout-entry.js';
import {clearMarkdownCache, markdownCacheSize, markdownLayoutStats, TAIL_WINDOW_CHARS} from '../../../src/layout/markdown/markdown-layout.js';
import {lineText} from '../../../src/layout/text/spans.js';
import {colorTheme} from '../../../src/layout/text/theme.js';
import type {AssistantEntry} from '../../../src/presentation/entry.js';

beforeEach(() => {
	clearMarkdownCache();
});

let nextSeq = 1000;

function streaming(seq: number, text: string, reasoning = '', revision = 0): AssistantEntry {
	return {entry: 'assistant', seq, time: 0, turn: 1, step: 1, text, reasoning, interrupted: false, streaming: true, preparing: [], revision};
}

const options = {width: 30, theme: colorTheme, now: 0, expansion: 'full'} as const;
const texts = (rows: readonly {spans: ReadonlyArray<{text: string}>}[]): string[] => rows.map(row => lineText(row as never));
/** Lines whose rows render one to one (no table), so the marker's count can be read off the full layout. */
const line = fc.constantFrom('', '', 'para *text* that is long enough to wrap at thirty columns', '# Head', '- item', '```ts', '```', 'const x = 1;', '> quote');

describe('a streaming answer laid out for the live region', () => {
	test('shows the last rows of the full layout under a marker counting the lines above them', () => {
		fc.assert(fc.property(fc.array(line, {maxLength: 40}).map(lines => lines.join('\n')), fc.integer({min: 2, max: 20}), (text, liveRows) => {
			const entry = streaming(nextSeq++, text);
			const full = layoutEntry(entry, options);
			const tail = layoutEntry(entry, {...options, liveRows});
			if (full.length <= liveRows) {
				expect(tail).toEqual(full);
				return;
			}

			expect(tail).toHaveLength(liveRows);
			expect(tail.slice(1)).toEqual(full.slice(full.length - (liveRows - 1)));
			// Lines whose first row is above the view (a line cut by its top counts as shown).
			const first = full.length - (liveRows - 1);
			const starts = full.slice(0, first).filter(row => row.softWrap !== true).length - (full[first]!.softWrap === true ? 1 : 0);
			expect(lineText(tail[0]!)).toBe(starts > 0 ? `… ${starts} earlier ${starts === 1 ? 'line' : 'lines'}` : '…');
		}), {numRuns: 200, seed: 16});
	});

	test('reasoning fills what the answer leaves, as the full view wraps it', () => {
		const reasoning = Array.from({length: 30}, (_, index) => `thought ${index}`).join('\n');
		const entry = streaming(nextSeq++, 'The answer.', reasoning);
		const tail = texts(layoutEntry(entry, {...options, liveRows: 5}));
		expect(tail).toEqual(['… 27 earlier lines', 'thought 27', 'thought 28', 'thought 29', 'The answer.']);
	});

	test('a 4 MiB answer of one endless line lays out one window of it per frame, not the answer', () => {
		const seq = nextSeq++;
		const sentence = 'The quick brown fox jumps over the lazy dog. ';
		let text = '';
		for (let frame = 0; frame < 64; frame++) {
			text += sentence.repeat(Math.ceil((64 * 1024) / sentence.length));
			const before = markdownLayoutStats.charsLaidOut;
			const rows = texts(layoutEntry(streaming(seq, text, '', frame), {...options, liveRows: 14}));
			expect(markdownLayoutStats.charsLaidOut - before).toBeLessThanOrEqual(TAIL_WINDOW_CHARS);
			expect(rows).toHaveLength(14);
			// One line, cut by the top of the view (the lexer's cut may start a row of its own in the window).
			expect(rows[0]).toMatch(/^…( 1 earlier line)?$/);
			expect(text.trimEnd().endsWith(rows.at(-1)!.trimEnd())).toBe(true);
		}

		expect(text.length).toBeGreaterThan(4 * 1024 * 1024);
	});

	test('a 3 000-line code block streamed line by line leaves no version of itself in the shared cache', () => {
		const seq = nextSeq++;
		let text = 'Here it is:\n\n```ts\n';
		for (let index = 0; index < 3000; index++) {
			text += `const value${index} = compute(${index}, "some string here");\n`;
			layoutEntry(streaming(seq, text, '', index), {...options, width: 80, liveRows: 14});
			if (index % 100 === 0) {
				layoutEntry(streaming(seq, text, '', index), {...options, width: 80});
			}
		}

		// The closed paragraph before it, at most.
		expect(markdownCacheSize().blocks).toBeLessThanOrEqual(1);
		const rows = texts(layoutEntry(streaming(seq, text, '', 3000), {...options, width: 80, liveRows: 3}));
		// Above: the paragraph, the blank row and 2 999 lines of code (a fence draws no row; code is indented); the open fence's last line is empty.
		expect(rows).toEqual(['… 3 001 earlier lines', '  const value2999 = compute(2999, "some string here");', '']);
	});
});
