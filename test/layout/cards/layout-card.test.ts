import {beforeEach, describe, expect, it} from 'vitest';
import {FAILURE_ROW_BUDGET, OK_ROW_BUDGET} from '../../../src/layout/cards/fold-body.js';
import {clearLayoutCache, LAYOUT_CACHE_LIMIT, layoutCacheSize, layoutCard} from '../../../src/layout/cards/layout-card.js';
import {colorTheme} from '../../../src/layout/text/theme.js';
import {displayWidth} from '../../../src/layout/text/text-width.js';
import {inState, KINDS, makeCard, numberedLines, text} from '../fixtures.js';
import {cardTexts, options, texts} from '../helpers.js';

beforeEach(() => {
	clearLayoutCache();
});

const terminalCall = {card: 'terminal', title: 'make build'} as const;

function terminalCard(output: string, extra: {exitCode?: number; signal?: string} = {}) {
	// The result text carries the exit marker the view was read from, as a real bash result does.
	const marker = extra.signal === undefined ? (extra.exitCode === undefined || extra.exitCode === 0 ? '' : `\n[exit code: ${extra.exitCode}]`) : `\n[killed by signal: ${extra.signal}]`;
	return makeCard({name: 'bash', callView: terminalCall, result: {content: text(output + marker), view: {card: 'terminal', output, ...extra}}});
}

describe('layoutCard', () => {
	it('gives no rows at a width of zero or less', () => {
		expect(layoutCard(inState(KINDS.generic, 'ok'), options(0))).toEqual([]);
		expect(layoutCard(inState(KINDS.generic, 'ok'), options(-3))).toEqual([]);
	});

	it('starts every card with a header of glyph, tool name, title and time', () => {
		expect(cardTexts(inState(KINDS.terminal, 'running'))[0]).toBe('○ bash npm test · 1m 05s');
		expect(cardTexts(inState(KINDS.terminal, 'ok'))[0]).toBe('● bash npm test · 1.2s');
		expect(cardTexts(inState(KINDS.terminal, 'error'))[0]).toBe('✗ bash npm test · 1.2s');
		expect(cardTexts(inState(KINDS.terminal, 'cancelled'))[0]).toBe('⊘ bash npm test · 8.2s');
		expect(cardTexts(inState(KINDS.terminal, 'interrupted'))[0]).toBe('◌ bash npm test');
	});

	it('colours only the glyph by status and bolds the tool name', () => {
		const [header] = layoutCard(inState(KINDS.generic, 'error'), options(80));
		expect(header!.spans.slice(0, 3)).toEqual([
			{text: '✗', style: {fg: 'red'}},
			{text: ' '},
			{text: 'todo_write', style: {bold: true}},
		]);
	});

	it('draws a failed exit as a failure even though the status is ok', () => {
		const card = terminalCard('boom', {exitCode: 2});
		expect(card.status).toBe('ok');
		expect(cardTexts(card)).toEqual(['✗ bash make build · 1.2s', '$ make build', 'boom', '[exit 2]']);
		expect(layoutCard(card, options(80)).at(-1)).toEqual({spans: [{text: '[exit 2]', style: {fg: 'red'}}]});
	});

	it('shows a signal in the footer', () => {
		expect(cardTexts(terminalCard('…', {signal: 'SIGTERM'})).at(-1)).toBe('[signal SIGTERM]');
	});

	it('truncates a long header to the width with an ellipsis and never wraps it', () => {
		const card = makeCard({name: 'bash', callView: {card: 'terminal', title: 'x'.repeat(200)}});
		const [header] = cardTexts(card, 40);
		expect(header).toBe(`○ bash ${'x'.repeat(23)}… · 1m 05s`);
		expect(displayWidth(header!)).toBe(40);
	});

	it('drops the time before the title gets too short to read', () => {
		const card = makeCard({name: 'a_rather_long_tool_name', callView: {card: 'generic', title: 'title that is long'}});
		expect(cardTexts(card, 40)[0]).toBe('○ a_rather_long_tool_name title that is…');
	});

	it('escapes newlines and controls in the header so it stays one row', () => {
		const card = makeCard({name: 'bash', callView: {card: 'terminal', title: 'echo a\necho \u001B[2Jb'}});
		expect(cardTexts(card, 80)[0]).toBe('○ bash echo a\\necho \\x1b[2Jb · 1m 05s');
	});

	it('keeps every line of a multi-line command in the body', () => {
		const card = makeCard({name: 'bash', callView: {card: 'terminal', title: 'cd src &&\n  make'}});
		expect(cardTexts(card, 80).slice(1)).toEqual(['$ cd src &&', '  make']);
	});

	it('shows an approval badge while approval is asked', () => {
		const card = makeCard({name: 'bash', callView: terminalCall, approval: {state: 'asked', id: 'a1'}});
		expect(cardTexts(card, 80)[0]).toBe('○ bash make build · 1m 05s · awaiting approval');
	});

	it('shows the arguments of a tool without a presenter when fully expanded, before its output', () => {
		const args = {sessionId: 'term-7', text: 'npm test\n'};
		const card = makeCard({name: 'terminal_send', args, callView: {card: 'generic', title: 'terminal_send', kind: 'other', rawInput: args}, result: {content: text('sent 9 bytes')}});
		const full = cardTexts(card, 80, {expansion: 'full'});
		expect(full.slice(1)).toEqual(['{', '  "sessionId": "term-7",', '  "text": "npm test\\n"', '}', 'sent 9 bytes']);
		// Folded, the header's summary stands for them.
		expect(cardTexts(card, 80).slice(1)).toEqual(['sent 9 bytes']);
		// A tool with a presenter keeps its own view.
		const read = makeCard({name: 'job_output', callView: {card: 'generic', title: 'Read output of bash-1', kind: 'read', rawInput: 'bash-1'}, result: {content: text('ready')}});
		expect(cardTexts(read, 80, {expansion: 'full'}).slice(1)).toEqual(['ready']);
	});

	it('omits the title when it only repeats the tool name', () => {
		const card = makeCard({name: 'job_list', callView: {card: 'generic', title: 'job_list'}, result: {content: text('(no background jobs)')}});
		expect(cardTexts(card)).toEqual(['● job_list · 1.2s', '(no background jobs)']);
	});

	it('folds a long successful output to head and tail around a marker that counts lines, not pinned rows', () => {
		const lines = cardTexts(terminalCard(numberedLines(100)));
		expect(lines).toHaveLength(1 + OK_ROW_BUDGET);
		expect(lines).toEqual([
			'● bash make build · 1.2s',
			'$ make build',
			'line 1', 'line 2', 'line 3', 'line 4', 'line 5',
			'… 90 lines hidden (of 100)',
			'line 96', 'line 97', 'line 98', 'line 99', 'line 100',
		]);
	});

	it('opens failures further and keeps more of their tail, footer included', () => {
		const lines = cardTexts(terminalCard(numberedLines(100), {exitCode: 1}));
		expect(lines).toHaveLength(1 + FAILURE_ROW_BUDGET);
		expect(lines.slice(0, 10)).toEqual(['✗ bash make build · 1.2s', '$ make build', 'line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'line 6', 'line 7', '… 79 lines hidden (of 100)']);
		expect(lines.slice(-2)).toEqual(['line 100', '[exit 1]']);
	});

	it('shows everything at full expansion', () => {
		expect(cardTexts(terminalCard(numberedLines(100)), 80, {expansion: 'full'})).toHaveLength(102);
	});

	it('shows the header and one line in summary: the footer of a failure, else the first line after the command', () => {
		expect(cardTexts(terminalCard(numberedLines(3), {exitCode: 1}), 80, {expansion: 'summary'})).toEqual(['✗ bash make build · 1.2s', '[exit 1]']);
		expect(cardTexts(terminalCard(numberedLines(3)), 80, {expansion: 'summary'})).toEqual(['● bash make build · 1.2s', 'line 1']);
	});

	it('counts wrapped rows when folding and soft-wraps long lines without an indent', () => {
		const lines = layoutCard(terminalCard('a'.repeat(25)), options(10));
		expect(texts(lines).slice(1)).toEqual(['$ make bui', 'ld', 'aaaaaaaaaa', 'aaaaaaaaaa', 'aaaaa']);
		expect(lines.map(line => line.softWrap ?? false)).toEqual([false, false, true, false, true, true]);
	});

	it('never marks the row after a fold marker as a soft wrap', () => {
		const lines = layoutCard(terminalCard('a'.repeat(400)), options(10));
		const marker = texts(lines).findIndex(line => line.startsWith('… '));
		expect(texts(lines)[marker]).toBe('… 31 wrap…');
		expect(marker).toBeGreaterThan(0);
		expect(lines[marker + 1]!.softWrap).toBeUndefined();
	});

	it('counts the lines a fold hides, not the rows they wrap to', () => {
		const output = Array.from({length: 30}, (_, index) => `${String(index + 1).padStart(2, '0')} ${'x'.repeat(30)}`).join('\n');
		const lines = texts(layoutCard(terminalCard(output), options(20)));
		// 30 lines of 33 columns wrap to 60 rows at 20 columns; 5 rows at each end show lines 1–3 and
		// 28–30 in part, so lines 4–28 begin in the hidden rows.
		expect(lines.find(line => line.startsWith('… '))).toBe('… 25 lines hidden (…');
		expect(texts(layoutCard(terminalCard(output), options(60))).find(line => line.startsWith('… '))).toBe('… 20 lines hidden (of 30)');
	});

	it('says wrapped rows when the hidden rows are the middle of one long line', () => {
		const lines = texts(layoutCard(terminalCard('a'.repeat(1000)), options(40)));
		expect(lines.find(line => line.startsWith('… '))).toBe('… 15 wrapped rows hidden');
	});

	it('returns the cached rows for the same card, width, expansion and theme', () => {
		const card = inState(KINDS.search, 'ok');
		const first = layoutCard(card, options(80));
		expect(layoutCard(card, options(80))).toBe(first);
		expect(layoutCard(card, options(81))).not.toBe(first);
		expect(layoutCard(card, options(80, {color: false}))).not.toBe(first);
	});

	it('lays a running card out again only when its elapsed second changes', () => {
		const card = inState(KINDS.terminal, 'running');
		const first = layoutCard(card, options(80, {now: card.callTime! + 3000}));
		expect(layoutCard(card, options(80, {now: card.callTime! + 3999}))).toBe(first);
		expect(texts(layoutCard(card, options(80, {now: card.callTime! + 4000})))[0]).toBe('○ bash npm test · 4s');
	});

	it('draws the running glyph as a spinner frame per elapsed second when asked, ○ otherwise, and settled glyphs as they are', () => {
		const card = inState(KINDS.terminal, 'running');
		const at = (seconds: number, spinner: boolean) => texts(layoutCard(card, {...options(80, {now: card.callTime! + (seconds * 1000)}), spinner}))[0]!.slice(0, 1);
		expect([0, 1, 2, 3, 4].map(seconds => at(seconds, true))).toEqual(['◐', '◓', '◑', '◒', '◐']);
		expect(at(1, false)).toBe('○');
		expect(texts(layoutCard(inState(KINDS.terminal, 'ok'), {...options(80), spinner: true}))[0]!.slice(0, 1)).toBe('●');
	});

	it('does not confuse two cards that share an id and revision', () => {
		const a = makeCard({name: 'x', callView: {card: 'generic', title: 'A'}});
		const b = makeCard({name: 'x', callView: {card: 'generic', title: 'B'}});
		expect(texts(layoutCard(a, options(80)))[0]).toBe('○ x A · 1m 05s');
		expect(texts(layoutCard(b, options(80)))[0]).toBe('○ x B · 1m 05s');
	});

	it('bounds the cache', () => {
		for (let index = 0; index < LAYOUT_CACHE_LIMIT + 10; index++) {
			layoutCard(makeCard({name: 'x', callId: `c${index}`, callView: {card: 'generic', title: 'A'}}), options(40));
		}

		expect(layoutCacheSize()).toBe(LAYOUT_CACHE_LIMIT);
	});

	it('renders the raw result content when the presenter declined, error-styled on failure', () => {
		const card = makeCard({name: 'edit', callView: KINDS.diff.callView, result: {content: text('Error: old_string was not found\nin src/a.ts'), isError: true, error: {name: 'FsError', code: 'FS_EDIT_NOT_FOUND'}}});
		expect(layoutCard(card, options(80)).slice(1)).toEqual([
			{spans: [{text: 'Error: old_string was not found', style: {fg: 'red'}}]},
			{spans: [{text: 'in src/a.ts', style: {dim: true}}]},
			// The code is for looking the failure up: dim; the message above it says what went wrong.
			{spans: [{text: 'FsError · FS_EDIT_NOT_FOUND', style: {dim: true}}]},
		]);
		// Collapsed, the card shows the message, the code dim after it.
		expect(layoutCard(card, {...options(80), expansion: 'summary'}).slice(1)).toEqual([
			{spans: [{text: 'Error: old_string was not found', style: {fg: 'red'}}, {text: ' · FsError · FS_EDIT_NOT_FOUND', style: {dim: true}}]},
		]);
	});

	it('shows non-text blocks as placeholders and hides paired code fences', () => {
		const card = makeCard({name: 'shot', callView: {card: 'generic', title: 'Screenshot'}, result: {content: [
			{type: 'text', text: '```console\nstarted background job bash-1\n```'},
			{type: 'image', attachment: {attachmentId: 'a', mediaType: 'image/png', bytes: 10, width: 640, height: 480}},
			{type: 'image', attachment: {attachmentId: 'b', mediaType: 'image/png', bytes: 10, width: 2, height: 3, name: 'dot.png'}},
			{type: 'audio'} as never,
		]}});
		expect(cardTexts(card).slice(1)).toEqual(['started background job bash-1', '[image 640×480]', '[image dot.png 2×3]', '[audio]']);
	});

	it('shows a pending string input verbatim and other input as pretty JSON in the default tone', () => {
		const call = makeCard({name: 'x', callView: {card: 'generic', title: 'X', rawInput: {a: [1]}}});
		expect(layoutCard(call, options(80)).slice(1)).toEqual([{spans: [{text: '{'}]}, {spans: [{text: '  "a": ['}]}, {spans: [{text: '    1'}]}, {spans: [{text: '  ]'}]}, {spans: [{text: '}'}]}]);
		expect(cardTexts(makeCard({name: 'x', callView: {card: 'generic', title: 'X', rawInput: 'a\tb'}})).slice(1)).toEqual(['a       b']);
	});

	it('shows live progress of a running command and notes dropped output', () => {
		const card = makeCard({name: 'bash', callView: terminalCall, progress: {text: 'step 9\r\u001B[Kstep 10\n', truncated: true}});
		expect(cardTexts(card).slice(1)).toEqual(['$ make build', '… earlier output dropped', 'step 10']);
	});

	it('shows the cwd only when it differs from the session cwd', () => {
		const at = (cwd: string) => cardTexts(makeCard({name: 'bash', callView: {card: 'terminal', title: 'ls', cwd}})).slice(1);
		expect(at('/home/u/proj')).toEqual(['$ ls']);
		expect(at('.')).toEqual(['$ ls']);
		expect(at('packages/a')).toEqual(['$ ls', 'in packages/a']);
		expect(at('/tmp')).toEqual(['$ ls', 'in /tmp']);
	});

	it('keeps output colours as styles and drops them in monochrome', () => {
		const card = terminalCard('\u001B[31mred\u001B[0m plain');
		expect(layoutCard(card, options(80)).at(-1)).toEqual({spans: [{text: 'red', style: {fg: 'red'}}, {text: ' plain', style: {dim: true}}]});
		expect(layoutCard(card, options(80, {color: false})).at(-1)).toEqual({spans: [{text: 'red'}, {text: ' plain'}]});
	});

	it('words the tool’s own output truncation as a warning, not as a fold', () => {
		const card = terminalCard('tail of output\n[output truncated; full output: /tmp/spill-1.txt]');
		expect(layoutCard(card, options(80)).at(-1)).toEqual({spans: [{text: '[output truncated; full output: /tmp/spill-1.txt]', style: colorTheme.warning}]});
	});
});

describe('layoutCard sub-calls', () => {
	it('lists Code Mode sub-calls as header rows after the body, except in summary', () => {
		const child = makeCard({name: 'read', callId: 'c1', callView: {card: 'generic', title: 'Read a.ts'}, result: {content: text('x')}, durationMs: 3});
		const parent = {...makeCard({name: 'run_code', callView: {card: 'generic', title: 'Count'}, result: {content: text('2')}}), children: [child]};
		expect(cardTexts(parent)).toEqual(['● run_code Count · 1.2s', '2', '↳ ● read a.ts · 3ms']);
		expect(cardTexts(parent, 80, {expansion: 'summary'})).toEqual(['● run_code Count · 1.2s', '2']);
	});
});
