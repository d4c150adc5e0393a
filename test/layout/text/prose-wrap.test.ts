/**
Word wrapping of prose (`wrapProse`, `wrapProseSpans`): rows fit the width, a word no wider than a
row is never cut, a row breaks only when the next word (with its space) does not fit, and the rows
joined give back the text exactly, so a soft-wrapped paragraph still copies as one line.
*/
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {lineText, wrapProseSpans} from '../../../src/layout/text/spans.js';
import type {Span} from '../../../src/layout/text/styled-line.js';
import {displayWidth, wrapProse} from '../../../src/layout/text/text-width.js';

const segmenter = new Intl.Segmenter();
const segments = (text: string) => Array.from(segmenter.segment(text), segment => segment.segment);

/** Prose pieces: short and long words, CJK runs (no spaces), emoji, marks, and runs of spaces. */
const pieces = [
	'a', 'to', 'word', 'tick1z', 'wrapping', 'supercalifragilisticexpialidocious', 'https://example.com/a/very/long/path?query=1',
	'日本', '今日は晴れです。気温は二十五度で、風は弱いでしょう。', '한국어', '🚀', '👍🏽', '❤️', '🇫🇷', 'e\u0301', 'ß', '—', '…', 'a\u00a0b',
	' ', ' ', ' ', ' ', '  ', '     ',
];
const prose = fc.array(fc.constantFrom(...pieces), {maxLength: 40}).map(parts => parts.join(''));
/** Only narrow pieces: the path that measures text by its length. */
const narrowProse = fc.array(fc.constantFrom(...pieces.filter(piece => /^[ -~ß—…]*$/.test(piece))), {maxLength: 40}).map(parts => parts.join(''));

/** The words of `text` (maximal runs of graphemes other than a space) as UTF-16 [start, end) ranges. */
function wordRanges(text: string): Array<[number, number]> {
	const ranges: Array<[number, number]> = [];
	let offset = 0;
	let start: number | undefined;
	for (const grapheme of segments(text)) {
		if (grapheme === ' ') {
			if (start !== undefined) {
				ranges.push([start, offset]);
				start = undefined;
			}
		} else {
			start ??= offset;
		}

		offset += grapheme.length;
	}

	if (start !== undefined) {
		ranges.push([start, offset]);
	}

	return ranges;
}

/** UTF-16 offsets where rows after the first start. */
function breaks(rows: readonly string[]): number[] {
	const offsets: number[] = [];
	let offset = 0;
	for (const row of rows.slice(0, -1)) {
		offset += row.length;
		offsets.push(offset);
	}

	return offsets;
}

describe('wrapProse', () => {
	it('breaks after a space and keeps it on the row, so the rows join back into the text', () => {
		expect(wrapProse('tick1z tick2z', 8)).toEqual(['tick1z ', 'tick2z']);
		expect(wrapProse('run a shell command (bash)', 12)).toEqual(['run a shell ', 'command ', '(bash)']);
		expect(wrapProse('short', 8)).toEqual(['short']);
		expect(wrapProse('', 8)).toEqual(['']);
	});

	it('moves a word that fits the row only without its following space; the text\'s last word needs no space', () => {
		expect(wrapProse('abc defgh', 8)).toEqual(['abc ', 'defgh']);
		expect(wrapProse('abc defg', 8)).toEqual(['abc defg']);
		expect(wrapProse('abc defg h', 8)).toEqual(['abc ', 'defg h']);
	});

	it('cuts a word wider than the row by columns, starting where the row has room, and cuts CJK between wide characters', () => {
		expect(wrapProse('a supercalifragilistic word', 8)).toEqual(['a superc', 'alifragi', 'listic ', 'word']);
		expect(wrapProse('日本語のテキスト', 5)).toEqual(['日本', '語の', 'テキ', 'スト']);
		expect(wrapProse('ab 日本語', 5)).toEqual(['ab 日', '本語']);
		expect(wrapProse('ab 日本', 5)).toEqual(['ab ', '日本']);
	});

	it('keeps spaces that do not fit the end of a row at the start of the next, and never breaks at a no-break space', () => {
		expect(wrapProse('abc      de', 5)).toEqual(['abc  ', '    ', 'de']);
		expect(wrapProse('ab\u00a0cd ef', 6)).toEqual(['ab\u00a0cd ', 'ef']);
	});

	it('on any prose: rows fit, join back into the text, never cut a word that fits a row, and break only when the next word does not fit', () => {
		fc.assert(fc.property(prose, fc.integer({min: 2, max: 60}), checkRows), {numRuns: 1500, seed: 12});
		fc.assert(fc.property(narrowProse, fc.integer({min: 1, max: 60}), checkRows), {numRuns: 1000, seed: 14});
	});
});

/** The properties of `wrapProse`'s rows for one text and width. */
function checkRows(text: string, width: number): void {
	const rows = wrapProse(text, width);
	expect(rows.join('')).toBe(text);
	for (const row of rows) {
		expect(displayWidth(row)).toBeLessThanOrEqual(width);
		expect(row === '' && text !== '').toBe(false);
	}

	const cuts = breaks(rows);
	for (const [start, end] of wordRanges(text)) {
		if (displayWidth(text.slice(start, end)) <= width) {
			expect(cuts.filter(cut => cut > start && cut < end), `word ${JSON.stringify(text.slice(start, end))}`).toEqual([]);
		}
	}

	// A word goes on a row with its following space: a row starts with a space only after a row of
	// spaces that overflowed, or after a row that one word (or a long word's piece) fills exactly.
	for (const [index, row] of rows.entries()) {
		if (index > 0 && row.startsWith(' ')) {
			const previous = rows[index - 1]!;
			expect(previous.endsWith(' ') || (!previous.includes(' ') && displayWidth(previous) >= width - 1), JSON.stringify(rows)).toBe(true);
		}
	}

	// Greedy: where a row broke at a space, the next row's first word (with its space) did not fit.
	for (const [index, cut] of cuts.entries()) {
		const word = wordRanges(text).find(([start]) => start === cut);
		if (word === undefined || !rows[index]!.endsWith(' ')) {
			continue;
		}

		const spaced = word[1] < text.length ? 1 : 0;
		expect(displayWidth(rows[index]!) + displayWidth(text.slice(word[0], word[1])) + spaced).toBeGreaterThan(width);
	}
}

describe('wrapProseSpans', () => {
	it('slices styled spans at the word breaks; continuation rows are soft wraps', () => {
		const rows = wrapProseSpans([{text: 'tick1z ', style: {bold: true}}, {text: 'tick2z'}], 8);
		expect(rows).toEqual([
			{spans: [{text: 'tick1z ', style: {bold: true}}]},
			{spans: [{text: 'tick2z'}], softWrap: true},
		]);
	});

	it('on any prose split into styled spans: the rows are wrapProse\'s and every character keeps its span\'s style', () => {
		const styled = fc.array(fc.tuple(prose, fc.constantFrom(undefined, 'bold', 'italic')), {minLength: 1, maxLength: 5});
		fc.assert(fc.property(styled, fc.integer({min: 2, max: 40}), (parts, width) => {
			const spans: Span[] = parts.map(([text, style]) => (style === undefined ? {text} : {text, style: {[style]: true}}));
			const text = parts.map(([part]) => part).join('');
			const rows = wrapProseSpans(spans, width);
			expect(rows.map(row => lineText(row))).toEqual(wrapProse(text, width));
			expect(rows.slice(1).every(row => row.softWrap === true) && rows[0]!.softWrap === undefined).toBe(true);
			const styleAt = (list: readonly Span[]) => list.flatMap(item => [...item.text].map(() => JSON.stringify(item.style ?? {})));
			expect(rows.flatMap(row => styleAt(row.spans))).toEqual(styleAt(spans));
		}), {numRuns: 500, seed: 13});
	});
});
