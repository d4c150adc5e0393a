import {beforeEach, describe, expect, it} from 'vitest';
import {clearLayoutCache, layoutCard} from '../../../src/layout/cards/layout-card.js';
import {colorTheme} from '../../../src/layout/text/theme.js';
import type {ToolResultView} from '../../../src/tools/views.js';
import {inState, KINDS, makeCard, text} from '../fixtures.js';
import {cardTexts, options} from '../helpers.js';

beforeEach(() => {
	clearLayoutCache();
});

function settled(name: string, args: unknown, view: ToolResultView, content = text('raw')) {
	return makeCard({name, args, callView: {card: 'generic', title: name}, result: {content, view}});
}

describe('search card', () => {
	it('groups matches by file with a count, line numbers and a footer', () => {
		expect(cardTexts(inState(KINDS.search, 'ok')).slice(1)).toEqual([
			'src/config.ts · 1 match',
			'2:   DEBUG: false,',
			'src/log.ts · 2 matches',
			'10: if (config.DEBUG) console.debug(msg)',
			'14: export const DEBUG_PREFIX = \'[debug]\'',
			'3 matches in 2 files',
		]);
	});

	const files = (...counts: Array<[string, number]>): ToolResultView => ({card: 'search', shape: 'matches', truncated: false, total: counts.reduce((sum, [, count]) => sum + count, 0), files: counts.map(([name, count]) => ({
		path: name,
		matches: Array.from({length: count}, (_, index) => ({lineNumber: index + 1, line: `hit ${name} ${index + 1}`})),
	}))});
	const afterMarker = (view: ToolResultView) => {
		const lines = cardTexts(settled('grep', {pattern: 'hit'}, view));
		return lines.slice(lines.findIndex(line => line.startsWith('… ')));
	};

	it('repeats a file\'s header after the fold marker when the fold hid it', () => {
		expect(afterMarker(files(['a.ts', 10], ['b.ts', 10]))).toEqual([
			'… 13 lines hidden (of 22)',
			'b.ts · 10 matches',
			' 7: hit b.ts 7', ' 8: hit b.ts 8', ' 9: hit b.ts 9', '10: hit b.ts 10',
			'20 matches in 2 files',
		]);
		expect(afterMarker(files(['a.ts', 12], ['b.ts', 2], ['c.ts', 2]))).toEqual([
			'… 10 lines hidden (of 19)',
			'b.ts · 2 matches', '2: hit b.ts 2',
			'c.ts · 2 matches', '1: hit c.ts 1', '2: hit c.ts 2',
			'16 matches in 3 files',
		]);
	});

	it('does not repeat a header shown above the marker', () => {
		expect(afterMarker(files(['a.ts', 3], ['b.ts', 20]))).toEqual([
			'… 15 lines hidden (of 25)',
			'16: hit b.ts 16', '17: hit b.ts 17', '18: hit b.ts 18', '19: hit b.ts 19', '20: hit b.ts 20',
			'23 matches in 2 files',
		]);
	});

	it('starts the tail at the next file when a repeated header would leave no row of its own file', () => {
		expect(afterMarker(files(['a.ts', 12], ['b.ts', 1], ['c.ts', 3]))).toEqual([
			'… 10 lines hidden (of 19)',
			'c.ts · 3 matches', '1: hit c.ts 1', '2: hit c.ts 2', '3: hit c.ts 3',
			'16 matches in 3 files',
		]);
	});

	it('highlights the matched text and links the file', () => {
		const lines = layoutCard(inState(KINDS.search, 'ok'), options(80));
		expect(lines[1]).toEqual({spans: [
			{text: 'src/config.ts', style: {bold: true}, link: 'file:///home/u/proj/src/config.ts'},
			{text: ' · 1 match', style: {dim: true}},
		]});
		expect(lines[4]).toEqual({spans: [
			{text: '10: ', style: {dim: true}},
			{text: 'if (config.', style: {dim: true}},
			{text: 'DEBUG', style: colorTheme.match},
			{text: ') console.debug(msg)', style: {dim: true}},
		]});
	});

	it('highlights in ripgrep\'s dialect, case-insensitively after (?i), and falls back to no highlight when the pattern does not compile', () => {
		const grep = (pattern: string, line: string) => settled('grep', {pattern}, {card: 'search', shape: 'matches', files: [{path: 'a', matches: [{lineNumber: 1, line}]}], truncated: false, total: 1});
		const plain = (line: string) => ({spans: [{text: '1: ', style: {dim: true}}, {text: line, style: {dim: true}}]});
		for (const pattern of ['(?<!x)y', '(?P<n>x', '(a)\\1']) {
			expect(layoutCard(grep(pattern, 'xy aa'), options(80))[2]).toEqual(plain('xy aa'));
		}

		expect(layoutCard(grep('(?i)debug', 'a DEBUG b'), options(80))[2]).toEqual({spans: [
			{text: '1: ', style: {dim: true}},
			{text: 'a ', style: {dim: true}},
			{text: 'DEBUG', style: colorTheme.match},
			{text: ' b', style: {dim: true}},
		]});
		// Syntax JavaScript lacks: a named group and inline flags in the middle.
		expect(layoutCard(grep('(?P<w>x)(?i:Y)', 'axyb'), options(80))[2]).toEqual({spans: [
			{text: '1: ', style: {dim: true}},
			{text: 'a', style: {dim: true}},
			{text: 'xy', style: colorTheme.match},
			{text: 'b', style: {dim: true}},
		]});
	});

	it('trims a long line around the match', () => {
		const line = `${'a'.repeat(100)}NEEDLE${'b'.repeat(100)}`;
		const card = settled('grep', {pattern: 'NEEDLE'}, {card: 'search', shape: 'matches', files: [{path: 'a', matches: [{lineNumber: 7, line}]}], truncated: false, total: 1});
		expect(cardTexts(card, 40)[2]).toBe(`7: …${'a'.repeat(12)}NEEDLE${'b'.repeat(17)}…`);
	});

	it('says when the tool truncated the matches', () => {
		const card = settled('grep', {pattern: 'x'}, {card: 'search', shape: 'matches', files: [{path: 'a', matches: [{lineNumber: 1, line: 'x'}]}], truncated: true, total: 1204});
		expect(layoutCard(card, options(80)).at(-1)).toEqual({spans: [{text: 'showing 1 of 1 204 matches in 1 file (tool truncated)', style: colorTheme.warning}]});
	});

	it('says when nothing matched', () => {
		const card = settled('grep', {pattern: 'x'}, {card: 'search', shape: 'matches', files: [], truncated: false, total: 0});
		expect(cardTexts(card).slice(1)).toEqual(['no matches']);
	});

	it('lists paths one per row with the tool truncation notice', () => {
		const card = settled('glob', {pattern: '*'}, {card: 'search', shape: 'paths', paths: ['tree/a.ts', 'tree/b.ts'], truncated: true, total: 8});
		expect(cardTexts(card).slice(1)).toEqual(['tree/a.ts', 'tree/b.ts', 'showing 2 of 8 paths (tool truncated)']);
		const empty = settled('glob', {pattern: '*'}, {card: 'search', shape: 'paths', paths: [], truncated: false, total: 0});
		expect(cardTexts(empty).slice(1)).toEqual(['no files found']);
	});
});

describe('web card', () => {
	it('shows the query, the answer and numbered sources with http links', () => {
		const lines = layoutCard(inState(KINDS.web, 'ok'), options(80));
		expect(lines.slice(1).map(line => line.spans.map(item => item.text).join(''))).toEqual([
			'query vitest environment option',
			'Set `test.environment` in `vitest.config.ts`.',
			'1. Configuring Vitest · vitest.dev',
			'2. How to set jsdom per file? · github.com',
			'3. stackoverflow.com',
		]);
		expect(lines[3]!.spans[1]).toEqual({text: 'Configuring Vitest', style: colorTheme.link, link: 'https://vitest.dev/config/'});
	});

	it('never links a source that is not http or https', () => {
		const card = settled('web_search', {queries: ['q']}, {card: 'web', kind: 'search', sources: [{url: 'javascript:alert(1)', title: 'x'}, {url: 'file:///etc/passwd', title: 'y'}], truncated: true});
		const lines = layoutCard(card, options(80));
		expect(lines.slice(2).flatMap(line => line.spans.filter(item => item.link !== undefined))).toEqual([]);
		expect(cardTexts(card).at(-1)).toBe('showing the first 2 sources (tool truncated)');
	});

	it('shows a fetch with its URL, status, truncation notice and the fetched text', () => {
		const card = settled('web_fetch', {url: 'https://example.com/x'}, {card: 'web', kind: 'fetch', url: 'https://example.com/x', statusCode: 404, truncated: true}, text('Fetched https://example.com/x (HTTP 404)\n\n# Not found\nSorry.'));
		const lines = layoutCard(card, options(80));
		expect(cardTexts(card).slice(1)).toEqual(['https://example.com/x · HTTP 404', 'content truncated by the tool', '# Not found', 'Sorry.']);
		expect(lines[1]!.spans[2]).toEqual({text: 'HTTP 404', style: colorTheme.error});
	});
});

describe('read card', () => {
	it('shows the path relative to the session, the window and numbered lines', () => {
		expect(cardTexts(inState(KINDS.read, 'ok')).slice(1)).toEqual([
			'src/config.ts · lines 1–4 of 4',
			'1 export const config = {',
			'2   DEBUG: true,',
			'3   level: \'info\',',
			'4 }',
		]);
	});

	it('says when the window is empty', () => {
		const card = settled('read', {}, {card: 'read', path: '/elsewhere/big.ts', offset: 40, lines: [], totalLines: 540});
		expect(cardTexts(card).slice(1)).toEqual(['/elsewhere/big.ts · no lines (from line 40 of 540)']);
	});

	it('soft-wraps a long line with its continuation indented under the text, not the gutter', () => {
		const card = settled('read', {}, {card: 'read', path: 'a.txt', offset: 9, lines: [{number: 9, text: 'x'.repeat(15)}], totalLines: 9});
		const lines = layoutCard(card, options(10));
		expect(lines.slice(-2).map(line => [line.spans.map(item => item.text).join(''), line.softWrap ?? false])).toEqual([['9 xxxxxxxx', false], ['  xxxxxxx', true]]);
		// Too narrow to spare a gutter's width twice: the text wraps under the gutter as before.
		expect(layoutCard(card, options(4)).slice(-5).map(line => line.spans.map(item => item.text).join(''))).toEqual(['9 xx', 'xxxx', 'xxxx', 'xxxx', 'x']);
	});

	it('shows a path envelope of any tool as its path and type, then its content', () => {
		const card = makeCard({name: 'read_image', args: {}, callView: {card: 'generic', title: 'red.png'}, result: {content: text('<path>/home/u/proj/red.png</path>\n<type>image</type>\n<content>\nimage/png image, 1x1 px\n</content>')}});
		expect(cardTexts(card).slice(1)).toEqual(['red.png · image', 'image/png image, 1x1 px']);
		expect(layoutCard(card, options(80))[1]!.spans[0]).toEqual({text: 'red.png', style: {bold: true}, link: 'file:///home/u/proj/red.png'});
	});
});

describe('terminal card', () => {
	it('resolves progress bars and neutralises hostile sequences in output', () => {
		const output = 'get 10%\rget 100%\n\u001B]0;pwned\u0007\u001B[2J\u001B]52;c;ZXZpbA==\u0007ok\u001B[?1049h\n\u009B31mx';
		const card = makeCard({name: 'bash', callView: {card: 'terminal', title: 'x'}, result: {content: text(output), view: {card: 'terminal', output, exitCode: 0}}});
		// The dropped OSC payloads are text the model reads and the card does not show: the card says so.
		expect(cardTexts(card).slice(2)).toEqual(['get 100%', 'ok', 'x', 'output hides text · expand to show raw']);
	});
});
