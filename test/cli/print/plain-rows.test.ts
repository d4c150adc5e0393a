/**
Printing without colour lays rows out with the plain theme, which skips the work whose only product
is a style (a diff's word highlights: issue 34's `replay --expand all` rows/s). What that relies on:
the rows' text is the same whichever theme laid them out — the plain output is exactly the colour
output with its SGR sequences removed — over every entry of the bench's seeded logs, at every
expansion, and on hostile text where a highlight would cut a grapheme.
*/
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, describe, expect, it} from 'vitest';
import {referencePresenters} from '../../../src/acp/reference-presenters.js';
import {entryLayoutOptions, entryOutput} from '../../../src/cli/print/entry-output.js';
import type {OutputOptions} from '../../../src/cli/print/output-options.js';
import {TranscriptStream} from '../../../src/cli/print/transcript-stream.js';
import {layoutDiffBody} from '../../../src/layout/cards/diff-card.js';
import {layoutSearchMatchesBody} from '../../../src/layout/cards/search-card.js';
import type {Expansion} from '../../../src/layout/text/layout-options.js';
import type {StyledLine} from '../../../src/layout/text/styled-line.js';
import {colorTheme, monochromeTheme, plainTheme} from '../../../src/layout/text/theme.js';
import type {TranscriptEntry} from '../../../src/presentation/entry.js';
import {SessionFold} from '../../../src/session/fold/fold.js';
import {openSessionLog} from '../../../src/session/reader/read-session-log.js';
import type {FileDiff, SearchMatchesResultView} from '../../../src/tools/views.js';

const generator = pathToFileURL(join(import.meta.dirname, '../../../bench/lib/log-generator.mjs')).href;
const {generateLogLines} = await import(generator) as {generateLogLines: (options: {events: number; seed: number; shape: 'large' | 'small'}) => Iterable<string>};
const folder = mkdtempSync(join(tmpdir(), 'cardterm-plain-rows-'));
afterAll(() => rmSync(folder, {recursive: true, force: true}));

/** Every entry of the seeded log, as `replay --print` streams them. */
async function seededEntries(shape: 'large' | 'small', events: number): Promise<TranscriptEntry[]> {
	const file = join(folder, `${shape}.jsonl`);
	writeFileSync(file, `${[...generateLogLines({events, seed: 1, shape})].join('\n')}\n`);
	const log = await openSessionLog(file);
	const fold = new SessionFold(referencePresenters(log.header.cwd ?? folder));
	const entries: TranscriptEntry[] = [];
	const stream = new TranscriptStream(fold, entry => entries.push(entry));
	for await (const event of log.events) {
		fold.apply(event);
		stream.advance();
	}

	stream.finish();
	return entries;
}

/** The print options of a pipe: colour (the colour theme) or not (the theme `outputColors` picks without it). */
function printOptions(color: boolean, width: number, expansion: Expansion | undefined): OutputOptions {
	return {
		json: false, width, isTTY: false, unwrap: false, answerAsWritten: false, color, depth: 'ansi16', hyperlinks: false,
		theme: color ? colorTheme : monochromeTheme, sessionCwd: '/home/u/proj', now: 1_790_000_000_000,
		...(expansion === undefined ? {} : {expansion}),
	};
}

const sgr = /\u001B\[[\d;]*m/g;

/** Every part of every entry that differs between the plain and the colour output, SGR removed. */
function differences(entries: readonly TranscriptEntry[], width: number, expansion: Expansion | undefined): string[] {
	const plain = entryOutput(printOptions(false, width, expansion));
	const colour = entryOutput(printOptions(true, width, expansion));
	const found: string[] = [];
	for (const [index, entry] of entries.entries()) {
		const text = plain(entry);
		const shown = colour(entry).replaceAll(sgr, '');
		if (text !== shown) {
			found.push(`entry ${index} (${entry.entry}):\n${text}\n--- with colour:\n${shown}`);
		}
	}

	return found;
}

/** The card kinds of `entries` (call view, and result view where there is one). */
function cardKinds(entries: readonly TranscriptEntry[]): string[] {
	const kinds = new Set<string>();
	for (const entry of entries) {
		if (entry.entry === 'card') {
			kinds.add(entry.card.callView.card);
			if (entry.card.resultView !== null) {
				kinds.add(entry.card.resultView.card);
			}
		}
	}

	return [...kinds].sort();
}

describe('print without colour: the colour output\'s text, whatever the theme skipped', () => {
	it.each([['large', 1500], ['small', 3000]] as const)('every entry of the seeded %s log, at each expansion and width', async (shape, events) => {
		const entries = await seededEntries(shape, events);
		if (shape === 'large') {
			expect(cardKinds(entries)).toEqual(['diff', 'generic', 'read', 'search', 'terminal', 'web']);
			// The colour output highlights changed words (inverse): what the plain theme skips is there to skip.
			const colour = entryOutput(printOptions(true, 120, 'full'));
			expect(entries.some(entry => entry.entry === 'card' && entry.card.resultView?.card === 'diff' && colour(entry).includes('\u001B[7;3'))).toBe(true);
		}

		for (const expansion of ['full', undefined, 'summary'] as const) {
			for (const width of [120, 33]) {
				expect(differences(entries, width, expansion)).toEqual([]);
			}
		}
	});

	it('lays rows out with the plain theme when colour is off, with the colour theme when it is on', () => {
		expect(entryLayoutOptions(printOptions(false, 80, 'full')).theme).toBe(plainTheme);
		expect(entryLayoutOptions(printOptions(true, 80, 'full')).theme).toBe(colorTheme);
		// Every role the other themes have, unstyled.
		const {name, ...roles} = plainTheme;
		expect(name).toBe('plain');
		expect(Object.keys(roles).sort()).toEqual(Object.keys(monochromeTheme).filter(role => role !== 'name').sort());
		expect(Object.values(roles).filter(style => Object.keys(style).length > 0)).toEqual([]);
	});
});

/** Rows as text. */
const rowsText = (rows: readonly StyledLine[]): string => rows.map(line => line.spans.map(item => item.text).join('')).join('\n');

/** A diff body's rows as text. */
function diffText(diffs: readonly FileDiff[], theme: typeof colorTheme, width: number): string {
	return rowsText(layoutDiffBody(diffs, {width, theme, expansion: 'full'}).lines);
}

describe('a changed word that ends inside a grapheme', () => {
	// Each pair changes a part of a grapheme (a skin tone, a combining mark, half a surrogate pair):
	// the highlight covers the whole grapheme, so the line reads as it does without highlights.
	const pairs: Array<[string, string]> = [
		['a 👍🏽 b', 'a 👍🏿 b'],
		['x cafe\u0301 one two', 'x cafe\u0302 one two'],
		['const 𝒳 = 1; // 👨‍👩‍👧 family', 'const 𝒴 = 1; // 👨‍👩‍👦 family'],
		['ab\u0301c\tde \u001B[31mred', 'ab\u0301x\tde \u001B[32mred'],
		['한글 ᄀ\u1161\u11A8 end', '한글 ᄀ\u1162\u11A8 end'],
	];

	it.each(pairs)('%j → %j: the same text with and without word highlights', (oldText, newText) => {
		const diffs: FileDiff[] = [{path: 'src/a.ts', oldText, newText, oldStart: 1, newStart: 1}, {path: 'b.txt', oldText, newText}];
		for (const width of [120, 9]) {
			const plain = diffText(diffs, plainTheme, width);
			expect(diffText(diffs, colorTheme, width)).toBe(plain);
			expect(diffText(diffs, monochromeTheme, width)).toBe(plain);
		}
	});
});

describe('a grep match that ends inside a grapheme, or a line trimmed around its match', () => {
	// The pattern matches part of a grapheme. Short lines fit at the wide width (the plain theme skips
	// the highlighter), a long one is trimmed around its match (the plain theme must still find it).
	const short = ['x 👍🏽 y', 'cafe\u0301 au lait', 'tab\there e\u0301 \u001B[31m'];
	const long = `${'pad '.repeat(30)}needle 👍🏿 e\u0301 tail ${'end '.repeat(20)}`;
	const view = (lines: readonly string[]): SearchMatchesResultView => ({card: 'search', shape: 'matches', files: [{path: 'src/a.ts', matches: lines.map((line, index) => ({lineNumber: index + 1, line}))}], truncated: false, total: lines.length});
	const text = (lines: readonly string[], pattern: string, width: number, theme: typeof colorTheme): string => rowsText(layoutSearchMatchesBody(view(lines), pattern, {width, theme, expansion: 'full'}).lines);

	it.each([['\\x{1F3FD}|e'], ['needle|e'], ['[^\\x00-\\x7f]']])('pattern %s: the same text under every theme, trimmed or not', pattern => {
		for (const lines of [short, [...short, long]]) {
			for (const width of [200, 40, 12]) {
				const plain = text(lines, pattern, width, plainTheme);
				expect(text(lines, pattern, width, colorTheme)).toBe(plain);
				expect(text(lines, pattern, width, monochromeTheme)).toBe(plain);
			}
		}
	});

	it('trims a long line around its match without colour too', () => {
		expect(text([long], 'needle', 40, plainTheme)).toMatch(/…[^\n]*needle/);
	});
});
