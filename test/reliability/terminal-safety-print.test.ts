/**
Promise 1 (issue 8), print mode: untrusted text in every field of every card kind never reaches the
terminal as anything but visible text; only the SGR styles cardterm chooses and OSC 8 links to URLs
it validated appear. Checked by a strict scanner and by a terminal emulator (@xterm/headless) whose
parser hooks record anything it would act on. Seeded and bounded in CI; `CARDTERM_FUZZ_CASES=N`
runs N cases per property, `CARDTERM_FUZZ_SEED=S` another seed.
*/
import xterm from '@xterm/headless';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {clearLayoutCache, layoutCard} from '../../src/layout/cards/layout-card.js';
import type {Expansion} from '../../src/layout/text/layout-options.js';
import {renderLines} from '../../src/layout/terminal/render-lines.js';
import {colorTheme, monochromeTheme} from '../../src/layout/text/theme.js';
import type {Card} from '../../src/presentation/card.js';
import {makeCard, text} from '../layout/fixtures.js';
import {scanTerminalOutput, type ScanRules} from './escape-scanner.js';
import {hostileCards} from './hostile-cards.js';
import {fuzzCases, fuzzSeed, HOSTILE_FRAGMENTS, hostileText} from './hostile-text.js';

const NOW = 1_790_000_005_000;
const pool = fc.array(hostileText(), {minLength: 1, maxLength: 12});
const expansions: readonly Expansion[] = ['summary', 'bounded', 'full'];

function expectClean(output: string, rules: ScanRules, context: string): void {
	const {violations} = scanTerminalOutput(output, rules);
	if (violations.length > 0) {
		throw new Error(`${context}: ${violations.slice(0, 5).join('; ')}`);
	}
}

describe('the escape scanner', () => {
	it('flags every hostile fragment that holds a control, escape, bidi control or lone surrogate', () => {
		const dangerous = HOSTILE_FRAGMENTS.filter(fragment => /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u061C\u2028\u2029\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]/u.test(fragment));
		const missed = dangerous.filter(fragment => scanTerminalOutput(fragment, {hyperlinks: true, inkCursor: false}).violations.length === 0);
		// Only what cardterm itself may write passes: a plain SGR, and (with hyperlinks) nothing the tool sent, since its targets fail validation or its terminators differ.
		expect(missed).toEqual(['\u001B[31m', '\u001B[1;4;38;5;9m', '\u001B[38;2;255;0;0m', '\u001B[48;5;1m', '\u001B[0m', '\u001B]8;;https://evil.example/\u001B\\click\u001B]8;;\u001B\\']);
		expect(dangerous.length).toBeGreaterThan(80);
	});

	it('allows Ink cursor sequences only when asked to, and never a screen clear', () => {
		expect(scanTerminalOutput('\u001B[2K\u001B[1A\u001B[G\u001B[?25l', {hyperlinks: false, inkCursor: true}).violations).toEqual([]);
		expect(scanTerminalOutput('\u001B[2K', {hyperlinks: false, inkCursor: false}).violations).toEqual(['CSI "\\u001b[2K" at 0']);
		expect(scanTerminalOutput('\u001B[2J', {hyperlinks: false, inkCursor: true}).violations).toEqual(['CSI "\\u001b[2J" at 0']);
	});

	it('allows bracketed paste mode on and off only when asked to', () => {
		expect(scanTerminalOutput('\u001B[?2004h\u001B[?2004l', {hyperlinks: false, inkCursor: true, pasteMode: true}).violations).toEqual([]);
		expect(scanTerminalOutput('\u001B[?2004h', {hyperlinks: false, inkCursor: true}).violations).toEqual(['CSI "\\u001b[?2004h" at 0']);
		expect(scanTerminalOutput('\u001B[?2005h', {hyperlinks: false, inkCursor: true, pasteMode: true}).violations).toHaveLength(1);
	});
});

describe('terminal safety of every card kind', () => {
	it('lays out hostile cards into spans that hold no escape, control, bidi control or lone surrogate', () => {
		fc.assert(fc.property(pool, fc.constantFrom(1, 9, 40, 100), fc.constantFrom(...expansions), (strings, width, expansion) => {
			clearLayoutCache();
			for (const card of hostileCards(strings)) {
				for (const theme of [colorTheme, monochromeTheme]) {
					for (const row of layoutCard(card, {width, theme, now: NOW, expansion, sessionCwd: strings[0]})) {
						for (const item of row.spans) {
							expectClean(item.text, {hyperlinks: false, inkCursor: false}, `span of ${card.callView.card} card`);
							expect(item.text.includes('\n')).toBe(false);
						}
					}
				}
			}
		}), {numRuns: fuzzCases(20), seed: fuzzSeed()});
	});

	it('prints hostile cards with only SGR styles, and OSC 8 links to validated URLs when hyperlinks are on', () => {
		fc.assert(fc.property(pool, fc.constantFrom(7, 40, 80), fc.constantFrom(...expansions), fc.boolean(), (strings, width, expansion, tty) => {
			clearLayoutCache();
			let links = 0;
			for (const card of hostileCards(strings)) {
				for (const [color, hyperlinks] of [[false, false], [true, false], [true, true]] as const) {
					const rows = layoutCard(card, {width, theme: color ? colorTheme : monochromeTheme, now: NOW, expansion, sessionCwd: '/home/u/proj'});
					const output = renderLines(rows, {color, hyperlinks, ...(tty ? {width} : {})});
					const {sequences} = scanTerminalOutput(output, {hyperlinks, inkCursor: false});
					expectClean(output, {hyperlinks, inkCursor: false}, `print of ${card.name} (color ${color}, hyperlinks ${hyperlinks})`);
					if (!color) {
						expect(sequences).toEqual([]);
					}

					links += sequences.filter(item => item.kind === 'osc').length;
				}
			}

			// Expanded web cards link their sources: the OSC 8 path is exercised, not just absent.
			if (expansion === 'full') {
				expect(links).toBeGreaterThan(0);
			}
		}), {numRuns: fuzzCases(25), seed: fuzzSeed()});
	});

	it('a terminal emulator fed the printed transcript sees no title, bell, clipboard, device string, cursor move or erase', async () => {
		const terminal = new xterm.Terminal({cols: 80, rows: 30, allowProposedApi: true, scrollback: 100});
		const acted: string[] = [];
		terminal.onTitleChange(title => acted.push(`title ${JSON.stringify(title)}`));
		terminal.onBell(() => acted.push('bell'));
		for (let final = 0x40; final <= 0x7e; final++) {
			const letter = String.fromCharCode(final);
			if (letter !== 'm') {
				terminal.parser.registerCsiHandler({final: letter}, () => {
					acted.push(`CSI ${letter}`);
					return false;
				});
			}

			for (const prefix of ['?', '>', '=', '<']) {
				terminal.parser.registerCsiHandler({prefix, final: letter}, () => {
					acted.push(`CSI ${prefix}${letter}`);
					return false;
				});
			}

			terminal.parser.registerDcsHandler({final: letter}, () => {
				acted.push(`DCS ${letter}`);
				return false;
			});
		}

		for (const osc of [0, 1, 2, 4, 7, 10, 11, 12, 52, 104, 133, 777, 1337]) {
			terminal.parser.registerOscHandler(osc, () => {
				acted.push(`OSC ${osc}`);
				return false;
			});
		}

		for (const final of 'cDEHMNOZ78=>') {
			terminal.parser.registerEscHandler({final}, () => {
				acted.push(`ESC ${final}`);
				return false;
			});
		}

		const write = async (data: string) => new Promise<void>(resolve => {
			terminal.write(data, resolve);
		});
		await fc.assert(fc.asyncProperty(pool, async strings => {
			clearLayoutCache();
			for (const card of hostileCards(strings)) {
				await write(renderLines(layoutCard(card, {width: 80, theme: colorTheme, now: NOW, expansion: 'full'}), {color: true, hyperlinks: true, width: 80}));
			}

			expect(acted).toEqual([]);
		}), {numRuns: fuzzCases(15), seed: fuzzSeed()});
		// The handlers do fire for a raw sequence, so an empty list means something.
		await write('\u001B]0;t\u0007\u001B[2J\u0007');
		expect(acted).toEqual(['OSC 0', 'title "t"', 'CSI J', 'bell']);
		terminal.dispose();
	});

	it('keeps zero-width characters out of one-row fields: file names, paths, titles and cwd show them escaped', () => {
		const name = 'se\u200Bcret\u2060.t\uFEFFxt\u00AD';
		const cards: Card[] = [
			makeCard({name: 'edit', callView: {card: 'diff', title: `Edit ${name}`, diffs: [{path: name, oldText: 'a', newText: 'b'}], locations: [{path: name}]}}),
			makeCard({name: 'read', callView: {card: 'generic', title: `Read ${name}`, locations: [{path: name, line: 2}]}, result: {content: text('x'), view: {card: 'read', path: name, offset: 1, lines: [{number: 1, text: 'x'}], totalLines: 1}}}),
			makeCard({name: 'glob', callView: {card: 'generic', title: 'glob'}, result: {content: text('x'), view: {card: 'search', shape: 'paths', paths: [name, `dir/${name}`], truncated: false, total: 2}}}),
			makeCard({name: 'grep', callView: {card: 'generic', title: 'grep'}, result: {content: text('x'), view: {card: 'search', shape: 'matches', files: [{path: name, matches: [{lineNumber: 1, line: 'x'}]}], truncated: false, total: 1}}}),
			makeCard({name: 'bash', callView: {card: 'terminal', title: 'cat notes', cwd: name}, result: {content: text('x'), view: {card: 'terminal', output: 'x', exitCode: 0}}}),
		];
		clearLayoutCache();
		for (const card of cards) {
			const output = renderLines(layoutCard(card, {width: 100, theme: monochromeTheme, now: NOW, expansion: 'full', sessionCwd: '/w'}), {color: false});
			expect([card.name, /[\u200B\u2060\uFEFF\u00AD]/.test(output)]).toEqual([card.name, false]);
			expect([card.name, output.includes('se\\u200bcret\\u2060.t\\ufeffxt\\xad')]).toEqual([card.name, true]);
		}
	});
});

