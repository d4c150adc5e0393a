import {describe, expect, test} from 'vitest';
import {computeHunks} from '../../../src/builtin/fs/hunks.js';
import {layoutDiffBody, type DiffLayoutContext} from '../../../src/layout/cards/diff-card.js';
import {lineText} from '../../../src/layout/text/spans.js';
import type {Style} from '../../../src/layout/text/styled-line.js';
import {colorTheme, monochromeTheme} from '../../../src/layout/text/theme.js';

const ctx: DiffLayoutContext = {width: 80, theme: colorTheme, expansion: 'bounded'};

const path: Style = {bold: true};
const body: Style = {dim: true};
const muted: Style = {dim: true};
const removed: Style = {fg: 'red'};
const added: Style = {fg: 'green'};
const removedWord: Style = {fg: 'red', inverse: true};
const addedWord: Style = {fg: 'green', inverse: true};

const row = (text: string, style: Style) => ({spans: [{text, style}]});
/** A numbered line: the muted gutter, then the marker and text in one style. */
const numbered = (gutter: string, text: string, style: Style) => ({spans: [{text: gutter, style: muted}, {text, style}]});

describe('layoutDiffBody', () => {
	test('a one-line edit shows its context neutral, the changed word highlighted on both sides, and counts one line each way', () => {
		const diffs = [{
			path: 'src/config.txt',
			oldText: "export const config = {\n  DEBUG: true,\n  level: 'info',\n}",
			newText: "export const config = {\n  DEBUG: false,\n  level: 'info',\n}",
		}];
		expect(layoutDiffBody(diffs, ctx)).toEqual({
			lines: [
				row('src/config.txt', path),
				row('  export const config = {', body),
				{spans: [{text: '-   DEBUG: ', style: removed}, {text: 'true', style: removedWord}, {text: ',', style: removed}]},
				{spans: [{text: '+   DEBUG: ', style: added}, {text: 'false', style: addedWord}, {text: ',', style: added}]},
				row("    level: 'info',", body),
				row('  }', body),
				row('+1 −1 · 1 file', muted),
			],
			pinnedTop: 1,
			pinnedBottom: 1,
		});
	});

	test('replace_all hunks of one path share one path row and are separated by a muted ⋯ row', () => {
		const hunk = (lines: string[], word: string) => lines.map(line => line.replace('WORD', word)).join('\n');
		const first = ['line 1', 'line 2', 'const WORD = true // 3', 'line 4', 'line 5', 'line 6'];
		const second = ['line 13', 'line 14', 'line 15', 'const WORD = true // 16', 'line 17', 'line 18', 'line 19'];
		const diffs = [
			{path: 'src/app.txt', oldText: hunk(first, 'DEBUG'), newText: hunk(first, 'RELEASE')},
			{path: 'src/app.txt', oldText: hunk(second, 'DEBUG'), newText: hunk(second, 'RELEASE')},
		];
		const changed = (number: number) => [
			{spans: [{text: '- const ', style: removed}, {text: 'DEBUG', style: removedWord}, {text: ` = true // ${number}`, style: removed}]},
			{spans: [{text: '+ const ', style: added}, {text: 'RELEASE', style: addedWord}, {text: ` = true // ${number}`, style: added}]},
		];
		expect(layoutDiffBody(diffs, {...ctx, expansion: 'full'})).toEqual({
			lines: [
				row('src/app.txt', path),
				row('  line 1', body),
				row('  line 2', body),
				...changed(3),
				row('  line 4', body),
				row('  line 5', body),
				row('  line 6', body),
				row('⋯', muted),
				row('  line 13', body),
				row('  line 14', body),
				row('  line 15', body),
				...changed(16),
				row('  line 17', body),
				row('  line 18', body),
				row('  line 19', body),
				row('+2 −2 · 1 file', muted),
			],
			pinnedTop: 1,
			pinnedBottom: 1,
		});
	});

	test('a created file shows `Created <path>` and every line, blank ones included, as added, numbered from 1', () => {
		expect(layoutDiffBody([{path: 'docs/notes.txt', oldText: null, newText: 'Notes\n\nHello\n'}], ctx)).toEqual({
			lines: [
				row('Created docs/notes.txt', path),
				numbered('1 ', '+ Notes', added),
				numbered('2 ', '+ ', added),
				numbered('3 ', '+ Hello', added),
				row('+3 −0 · 1 file', muted),
			],
			pinnedTop: 1,
			pinnedBottom: 1,
		});
	});

	test('an empty created file has no synthetic added row and counts +0 −0', () => {
		expect(layoutDiffBody([{path: 'empty.txt', oldText: null, newText: ''}], ctx)).toEqual({
			lines: [row('Created empty.txt', path), row('+0 −0 · 1 file', muted)],
			pinnedTop: 1,
			pinnedBottom: 1,
		});
	});

	test('a trailing newline ends the last line: meta hunks and whole-file sides render the same', () => {
		const expected = {
			lines: [row('a.txt', path), row('  keep', body), row('  ', body), row('- old', removed), row('+ new', added), row('+1 −1 · 1 file', muted)],
			pinnedTop: 1,
			pinnedBottom: 1,
		};
		expect(layoutDiffBody([{path: 'a.txt', oldText: 'keep\n\nold\n', newText: 'keep\n\nnew\n'}], ctx)).toEqual(expected);
		expect(layoutDiffBody([{path: 'a.txt', oldText: 'keep\n\nold', newText: 'keep\n\nnew'}], ctx)).toEqual(expected);
	});

	test('beyond the comparison bound the notice names the bound, not a time', () => {
		const diffs = [{path: 'src/large.txt', oldText: 'same\nold one\nold two', newText: 'same\nnew one\nnew two'}];
		expect(layoutDiffBody(diffs, ctx, {maxComparisons: 1})).toEqual({
			lines: [
				row('src/large.txt', path),
				row('[exact line diff omitted: over 1 line comparisons]', muted),
				row('  same', body),
				row('- old one', removed),
				row('- old two', removed),
				row('+ new one', added),
				row('+ new two', added),
				row('+2 −2 · 1 file · approximate', muted),
			],
			pinnedTop: 1,
			pinnedBottom: 1,
		});
	});

	test('beyond the diff bound the changed lines show as whole sides, said in the hunk and the footer', () => {
		const diffs = [{path: 'src/large.txt', oldText: 'same\nold one\nold two\nold three', newText: 'same\nnew one\nnew two\nnew three'}];
		expect(layoutDiffBody(diffs, ctx, {maxEditLength: 2})).toEqual({
			lines: [
				row('src/large.txt', path),
				row('[exact line diff omitted: over 2 changed lines]', muted),
				row('  same', body),
				row('- old one', removed),
				row('- old two', removed),
				row('- old three', removed),
				row('+ new one', added),
				row('+ new two', added),
				row('+ new three', added),
				row('+3 −3 · 1 file · approximate', muted),
			],
			pinnedTop: 1,
			pinnedBottom: 1,
		});
	});

	test('CJK and emoji lines wrap at 40 columns into soft-wrapped rows indented under the text', () => {
		const cjk = '漢字テキスト'.repeat(4);
		const hearts = '❤️'.repeat(20);
		const body40 = layoutDiffBody([{path: 'wide.txt', oldText: null, newText: `${cjk}\n${hearts}`}], {...ctx, width: 40});
		expect(body40).toEqual({
			lines: [
				row('Created wide.txt', path),
				numbered('1 ', `+ ${cjk.slice(0, 18)}`, added),
				{spans: [{text: '    '}, {text: cjk.slice(18), style: added}], softWrap: true, hang: 4},
				numbered('2 ', `+ ${'❤️'.repeat(18)}`, added),
				{spans: [{text: '    '}, {text: '❤️'.repeat(2), style: added}], softWrap: true, hang: 4},
				row('+2 −0 · 1 file', muted),
			],
			pinnedTop: 1,
			pinnedBottom: 1,
		});
	});

	test('a word highlight that crosses a wrap point keeps its style on both rows', () => {
		const diffs = [{path: 'w.txt', oldText: 'prefix text alpha', newText: 'prefix text omega'}];
		expect(layoutDiffBody(diffs, {...ctx, width: 16}).lines.slice(1, 5)).toEqual([
			{spans: [{text: '- prefix text ', style: removed}, {text: 'al', style: removedWord}]},
			{spans: [{text: 'pha', style: removedWord}], softWrap: true},
			{spans: [{text: '+ prefix text ', style: added}, {text: 'om', style: addedWord}]},
			{spans: [{text: 'ega', style: addedWord}], softWrap: true},
		]);
	});

	test('files are separated by an empty row, and the footer counts distinct paths', () => {
		const diffs = [
			{path: 'a.txt', oldText: 'x', newText: 'y'},
			{path: 'b.txt', oldText: null, newText: 'z'},
			{path: 'a.txt', oldText: 'p', newText: 'q'},
		];
		// The created file is numbered, the literal replacements are not: their rows leave the gutter blank.
		expect(layoutDiffBody(diffs, ctx).lines).toEqual([
			row('a.txt', path),
			numbered('  ', '- x', removed),
			numbered('  ', '+ y', added),
			{spans: []},
			row('Created b.txt', path),
			numbered('1 ', '+ z', added),
			{spans: []},
			row('a.txt', path),
			numbered('  ', '- p', removed),
			numbered('  ', '+ q', added),
			row('+3 −2 · 2 files', muted),
		]);
	});

	test('long unchanged runs collapse into a muted gap row with its count', () => {
		const old = Array.from({length: 12}, (_, index) => `l${index + 1}`);
		const diffs = [{path: 'g.txt', oldText: old.join('\n'), newText: old.map(line => (line === 'l12' ? 'last' : line)).join('\n')}];
		expect(layoutDiffBody(diffs, ctx).lines).toEqual([
			row('g.txt', path),
			row('⋯ 8 unchanged lines', muted),
			row('  l9', body),
			row('  l10', body),
			row('  l11', body),
			row('- l12', removed),
			row('+ last', added),
			row('+1 −1 · 1 file', muted),
		]);
	});

	test('tabs expand from the line start and control characters in text and path are shown escaped', () => {
		expect(layoutDiffBody([{path: 'x\ny.txt', oldText: null, newText: 'a\tb\u001B[31mred\u0007'}], ctx).lines).toEqual([
			row('Created x\\ny.txt', path),
			numbered('1 ', '+ a       b\\x1b[31mred\\x07', added),
			row('+1 −0 · 1 file', muted),
		]);
	});

	test('with a known language, added and context lines take syntax colours while removed lines stay wholly red', () => {
		const diffs = [{path: 'src/a.ts', oldText: 'let a = 1;\nconst keep = true;', newText: 'let a = 2;\nconst keep = true;'}];
		expect(layoutDiffBody(diffs, ctx).lines).toEqual([
			row('src/a.ts', path),
			{spans: [{text: '- let a = ', style: removed}, {text: '1', style: removedWord}, {text: ';', style: removed}]},
			{spans: [
				{text: '+ ', style: added},
				{text: 'let', style: {fg: 'magenta'}},
				{text: ' a = ', style: added},
				{text: '2', style: addedWord},
				{text: ';', style: added},
			]},
			{spans: [
				{text: '  ', style: body},
				{text: 'const', style: {dim: true, fg: 'magenta'}},
				{text: ' keep = ', style: body},
				{text: 'true', style: {dim: true, fg: 'blue'}},
				{text: ';', style: body},
			]},
			row('+1 −1 · 1 file', muted),
		]);
	});

	test('a created file in a known language is syntax-coloured with its + markers green', () => {
		expect(layoutDiffBody([{path: 'run.py', oldText: null, newText: 'import os\n'}], ctx).lines.slice(1, 2)).toEqual([
			{spans: [{text: '1 ', style: muted}, {text: '+ ', style: added}, {text: 'import', style: {fg: 'magenta'}}, {text: ' os', style: added}]},
		]);
	});

	test('summary expansion and the monochrome theme skip syntax colours; monochrome words are struck and underlined', () => {
		const diffs = [{path: 'src/b.ts', oldText: 'let a = 1;', newText: 'let a = 2;'}];
		expect(layoutDiffBody(diffs, {...ctx, expansion: 'summary'}).lines.slice(1, 3)).toEqual([
			{spans: [{text: '- let a = ', style: removed}, {text: '1', style: removedWord}, {text: ';', style: removed}]},
			{spans: [{text: '+ let a = ', style: added}, {text: '2', style: addedWord}, {text: ';', style: added}]},
		]);
		expect(layoutDiffBody(diffs, {...ctx, theme: monochromeTheme})).toEqual({
			lines: [
				row('src/b.ts', {bold: true}),
				{spans: [{text: '- let a = ', style: {}}, {text: '1', style: {strikethrough: true}}, {text: ';', style: {}}]},
				{spans: [{text: '+ let a = ', style: {}}, {text: '2', style: {underline: true}}, {text: ';', style: {}}]},
				row('+1 −1 · 1 file', {}),
			],
			pinnedTop: 1,
			pinnedBottom: 1,
		});
	});

	test('in bounded, a long created file shows a head and a tail of its lines, only those built and syntax-coloured; in full all are', () => {
		const newText = Array.from({length: 60}, (_, index) => `let v${index} = ${index};`).join('\n');
		const diffs = [{path: 'long.ts', oldText: null, newText}];
		const coloured = (index: number) => ({spans: [
			{text: `${String(index + 1).padStart(2)} `, style: muted},
			{text: '+ ', style: added},
			{text: 'let', style: {fg: 'magenta'}},
			{text: ` v${index} = `, style: added},
			{text: String(index), style: {fg: 'blue'}},
			{text: ';', style: added},
		]});
		const bounded = layoutDiffBody(diffs, ctx);
		expect(bounded.omitted).toBeUndefined();
		expect(bounded.lines).toEqual([
			row('Created long.ts', path),
			...[0, 1, 2, 3, 4].map(coloured),
			row('… 51 changed lines hidden (of 60)', muted),
			...[56, 57, 58, 59].map(coloured),
			row('+60 −0 · 1 file', muted),
		]);
		const full = layoutDiffBody(diffs, {...ctx, expansion: 'full'});
		expect(full.lines).toHaveLength(62);
		expect(full.lines[30]).toEqual(coloured(29));
	});

	test('in bounded, context is hidden before any changed line: the fix stays whole, numbered old and new (issue 16 item 5)', () => {
		// Three lines replaced in a 30-line file: 14 rows with three lines of context each side, 12 with two.
		const old = Array.from({length: 30}, (_, index) => `line ${index + 1}`);
		const hunks = computeHunks('src/b.txt', `${old.join('\n')}\n`, `${old.map((line, index) => (index >= 11 && index <= 13 ? `${line} new` : line)).join('\n')}\n`);
		expect(layoutDiffBody(hunks, {...ctx, theme: monochromeTheme}).lines.map(lineText)).toEqual([
			'src/b.txt',
			'10   line 10',
			'11   line 11',
			'12 - line 12',
			'13 - line 13',
			'14 - line 14',
			'12 + line 12 new',
			'13 + line 13 new',
			'14 + line 14 new',
			'15   line 15',
			'16   line 16',
			'+3 −3 · 1 file',
		]);
		// The card's generic fold kept the head and the tail: it hid the `+` lines behind `… N lines hidden`.
		expect(layoutDiffBody(hunks, {...ctx, theme: monochromeTheme, expansion: 'full'}).lines).toHaveLength(14);
	});

	test('expanded, a diff shows every line its hunks hold, and counts the lines between two numbered hunks', () => {
		const twenty = (word: string) => `${Array.from({length: 20}, (_, index) => (index === 2 || index === 15 ? `const ${word} = true // ${index + 1}` : `line ${index + 1}`)).join('\n')}\n`;
		const hunks = computeHunks('src/app.txt', twenty('DEBUG'), twenty('RELEASE'));
		const lines = layoutDiffBody(hunks, {...ctx, theme: monochromeTheme, expansion: 'full'}).lines.map(lineText);
		expect(lines).toHaveLength(18);
		expect(lines.slice(7, 10)).toEqual([' 6   line 6', '   ⋯ 6 unchanged lines', '13   line 13']);
	});

	test('in bounded, two far-apart changes keep their old and new numbers and one line of context each, the lines between counted', () => {
		const old = Array.from({length: 40}, (_, index) => `row ${index + 1}`);
		const changed = old.map(line => (line === 'row 31' ? 'row thirty-one' : line));
		const hunks = computeHunks('t.txt', `${old.join('\n')}\n`, `${[...changed.slice(0, 10), ...changed.slice(12)].join('\n')}\n`);
		expect(layoutDiffBody(hunks, {...ctx, theme: monochromeTheme}).lines.map(lineText)).toEqual([
			't.txt',
			'10   row 10',
			'11 - row 11',
			'12 - row 12',
			'11   row 13',
			'   ⋯ 16 unchanged lines',
			'28   row 30',
			'31 - row 31',
			'29 + row thirty-one',
			'30   row 32',
			'+1 −3 · 1 file',
		]);
	});

	test('in bounded, changed lines that do not fit are folded between runs, never between a − and its +', () => {
		// Twelve one-line replacements far apart, twelve −/+ runs: the marker sits between two runs.
		const old = Array.from({length: 240}, (_, index) => `line ${index + 1}`);
		const hunks = computeHunks('m.txt', `${old.join('\n')}\n`, `${old.map((line, index) => (index % 20 === 9 ? `${line} changed` : line)).join('\n')}\n`);
		expect(layoutDiffBody(hunks, {...ctx, theme: monochromeTheme}).lines.map(lineText)).toEqual([
			'm.txt',
			' 10 - line 10',
			' 10 + line 10 changed',
			'    ⋯ 19 unchanged lines',
			' 30 - line 30',
			' 30 + line 30 changed',
			'… 18 changed lines hidden (of 24)',
			'230 - line 230',
			'230 + line 230 changed',
			'+12 −12 · 1 file',
		]);
		// A failure's budget (24 rows) shows more runs, still whole: two rows are left, too few for a run and its gap.
		const failed = layoutDiffBody(hunks, {...ctx, theme: monochromeTheme, budget: 24}).lines.map(lineText);
		expect(failed).toHaveLength(22);
		expect(failed.slice(10, 15)).toEqual([' 70 - line 70', ' 70 + line 70 changed', '… 10 changed lines hidden (of 24)', '190 - line 190', '190 + line 190 changed']);
	});

	test('in bounded, a run that only adds is cut anywhere, and a tail that starts inside another file repeats its path after the marker', () => {
		const many = (prefix: string) => Array.from({length: 8}, (_, index) => `${prefix} ${index}`).join('\n');
		const diffs = [{path: 'a.txt', oldText: null, newText: many('a')}, {path: 'b.txt', oldText: null, newText: many('b')}];
		const lines = layoutDiffBody(diffs, {...ctx, theme: monochromeTheme}).lines.map(lineText);
		expect(lines).toEqual([
			'Created a.txt',
			'1 + a 0',
			'2 + a 1',
			'3 + a 2',
			'4 + a 3',
			'5 + a 4',
			'… 8 changed lines hidden (of 16)',
			'Created b.txt',
			'6 + b 5',
			'7 + b 6',
			'8 + b 7',
			'+16 −0 · 2 files',
		]);
	});

	test('hunk starts from a plugin or a log are used only when they are a pair of line numbers; huge ones widen the gutter within the width', () => {
		const hunk = {path: 'p.txt', oldText: 'a', newText: 'b'};
		for (const bad of [{oldStart: -1, newStart: 1}, {oldStart: 1.5, newStart: 1}, {oldStart: Number.NaN, newStart: 1}, {oldStart: '1', newStart: 1}, {newStart: 4}]) {
			expect(layoutDiffBody([{...hunk, ...bad} as never], {...ctx, theme: monochromeTheme}).lines.map(lineText)).toEqual(['p.txt', '- a', '+ b', '+1 −1 · 1 file']);
		}

		const huge = Number.MAX_SAFE_INTEGER - 1;
		for (const width of [6, 20, 40]) {
			const lines = layoutDiffBody([{...hunk, oldStart: huge, newStart: huge}], {...ctx, theme: monochromeTheme, width}).lines.map(lineText);
			expect(lines.every(line => line.length <= width)).toBe(true);
			expect(lines.join('')).toContain(String(huge));
		}
	});

	test('no diffs at all is just the footer', () => {
		expect(layoutDiffBody([], ctx)).toEqual({lines: [row('+0 −0 · 0 files', muted)], pinnedTop: 0, pinnedBottom: 1});
	});
});
