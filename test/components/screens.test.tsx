import {afterAll, afterEach, beforeAll, describe, expect, it, vi} from 'vitest';
import {asEntries, cardsOf} from '../../src/presentation/entry.js';

vi.hoisted(() => {
	// Ink's <Text> colours come from chalk, which looks at the real stdout: force the 16 colours a terminal has.
	process.env.FORCE_COLOR = '1';
});

const {arrayEntrySource} = await import('../../src/transcript/entry-source.js');
const {checkpoint, inventory} = await import('./harness/checkpoints.js');
const {keys} = await import('./harness/fake-terminal.js');
const {startInteractive} = await import('./harness/interactive-screen.js');
const {growingSource, startPager} = await import('./harness/pager-screen.js');
const {KeptDiagnostics} = await import('../../src/session/reader/kept-diagnostics.js');
const {makeCard, text} = await import('../layout/fixtures.js');
type Card = import('../../src/presentation/card.js').Card;

/** Every screen this file must produce, one snapshot file each (snapshots/screens/<name>.frame). */
const CHECKPOINTS = [
	'interactive-after-commands',
	'interactive-running-live-output',
	'interactive-approval-dialog',
	'interactive-after-approval',
	'interactive-pager-from-ctrl-o',
	'interactive-after-pager',
	'interactive-resized-narrow',
	'interactive-multiline-write',
	'interactive-agent-working',
	'interactive-agent-retry-wait',
	'interactive-queue-w60',
	'interactive-queue-w80',
	'interactive-queue-w120',
	'interactive-queue-w200',
	'pager-opens-on-newest',
	'pager-cursor-moved-up',
	'pager-expansion-summary',
	'pager-expansion-full',
	'pager-search-highlight',
	'pager-failed-card-jump',
	'follow-before-append',
	'follow-after-append',
	'pager-damage-status-w80',
	'pager-damage-list-w80',
	'pager-damage-status-w40',
	'pager-damage-list-w40',
	'pager-model-view',
];

/** Tests in this file; with fewer run (vitest -t), only the files are checked. */
const TEST_COUNT = 14;
let testsRun = 0;
afterEach(() => {
	testsRun++;
});

const files = {'notes.txt': 'alpha\n// TODO beta\ngamma\n', 'long.txt': Array.from({length: 40}, (_, index) => `row ${index + 1}`).join('\n') + '\n'};

describe('interactive session screens', () => {
	it('shows settled cards once in the scrollback, in order, above the prompt and status line', async () => {
		const screen = await startInteractive('after-commands', {columns: 80, rows: 24, files});
		try {
			await screen.type('!echo hi', '● bash');
			await screen.type('/read notes.txt', '● read notes.txt');
			await screen.type('/grep TODO', '● grep TODO');
			await screen.type('!exit 3', '[exit 3]');
			await checkpoint('interactive-after-commands', screen.tty.frame(true));
		} finally {
			await screen.close();
		}
	});

	it('draws a running card with its live output above the prompt, and Ctrl+C cancels it', async () => {
		const screen = await startInteractive('running', {columns: 80, rows: 24});
		try {
			await screen.type('!printf "one\\ntwo\\n"; sleep 30', 'two');
			await checkpoint('interactive-running-live-output', screen.tty.frame(true));
			await screen.press(keys.ctrlC);
			await screen.tty.waitForText('⊘ 1 cancelled');
		} finally {
			await screen.close();
		}
	});

	it('asks before bash when the config says so, and runs the call once allowed', async () => {
		const screen = await startInteractive('approval', {columns: 80, rows: 24, ask: [{tool: 'bash'}]});
		try {
			await screen.type('!echo approved', 'Allow bash');
			await checkpoint('interactive-approval-dialog', screen.tty.frame(true));
			// Enter confirms the marked answer (Yes, once).
			await screen.stdin.send('\r');
			await screen.tty.waitForText('● 1 ok');
			await checkpoint('interactive-after-approval', screen.tty.frame(true));
		} finally {
			await screen.close();
		}
	});

	it('shows a model turn\'s time, tokens so far and first-token latency in the status line while it works', async () => {
		// 230 columns: tokens and latency come after the model, the window's meter and where, and a wide terminal has room for them.
		const screen = await startInteractive('agent-working', {columns: 230, rows: 24, files, agent: {script: [
			{toolCalls: [{id: 'c1', name: 'read', args: '{"file_path":"notes.txt"}'}], usage: {prompt_tokens: 1204, completion_tokens: 40, cached: 1000, reasoning: 30}},
			{text: ['Reading ', 'on'], hangAfterChunks: 3},
		]}});
		try {
			await screen.type('summarise notes.txt', 'Reading on');
			await screen.tty.waitForText('first token 0ms');
			expect(screen.tty.text()).toContain('Esc to cancel · working 0s · openai-compatible:fake-model via 127.0.0.1:8000 · 1k tokens · /tmp/cardterm-screen-agent-working · ● 1 ok · 1 204 in · 40 out · 30 reasoning · 1 000 cached · first token 0ms');
			await checkpoint('interactive-agent-working', screen.tty.frame(true));
			await screen.press(keys.escape);
			await screen.tty.waitForText('cancelled by you');
			expect(screen.tty.text()).not.toContain('working 0s');
		} finally {
			await screen.close();
		}
	});

	it('shows a retry\'s wait in the status line while the model is retried', async () => {
		const screen = await startInteractive('agent-retry', {columns: 120, rows: 24, agent: {script: [{status: 429, error: 'slow down', retryAfter: 1}, {text: 'Back.'}], retry: {maxRetries: 4, baseDelayMs: 1000, maxDelayMs: 30_000}}});
		try {
			await screen.type('hello', 'retrying in 1s (attempt 2 of 5)');
			await checkpoint('interactive-agent-retry-wait', screen.tty.frame(true));
			await screen.tty.waitForText('Back.');
			expect(screen.server!.received).toBe(2);
		} finally {
			await screen.close();
		}
	});

	it('shows messages typed while the model works as rows above the prompt, with the keys that edit and drop them, and the status line\'s most important facts first, at 60, 80, 120 and 200 columns', async () => {
		for (const columns of [60, 80, 120, 200]) {
			// In order: one width after the other
			const screen = await startInteractive(`queue-w${columns}`, {columns, rows: 24, files, agent: {script: [
				{toolCalls: [{id: 'c1', name: 'read', args: '{"file_path":"notes.txt"}'}], usage: {prompt_tokens: 1204, completion_tokens: 40}},
				{text: ['Reading ', 'on'], hangAfterChunks: 3},
			]}});
			try {
				await screen.type('summarise notes.txt', 'Reading on');
				await screen.type('then fix the failing test', '↳ then fix the failing test');
				await screen.press(`\u001B[200~${['and this trace:', 'Error: boom', '    at main (a.ts:1)'].join('\n')}\u001B[201~`);
				await screen.tty.waitForText('[Pasted text #1 +3 lines]');
				await screen.type('', '↳ and this trace: (+2 lines)');
				await checkpoint(`interactive-queue-w${columns}`, screen.tty.frame(false));
			} finally {
				await screen.close();
			}
		}
	});

	it('opens the pager on the alternate screen with Ctrl+O and comes back to the untouched transcript on q', async () => {
		const screen = await startInteractive('pager', {columns: 80, rows: 24, files});
		try {
			await screen.type('!echo hi', '● bash');
			await screen.type('/read notes.txt', '● read notes.txt');
			await screen.press(keys.ctrlO);
			expect(screen.tty.terminal.buffer.active.type).toBe('alternate');
			await checkpoint('interactive-pager-from-ctrl-o', screen.tty.frame(false));
			await screen.press('q');
			expect(screen.tty.terminal.buffer.active.type).toBe('normal');
			await checkpoint('interactive-after-pager', screen.tty.frame(true));
		} finally {
			await screen.close();
		}
	});

	it('re-lays out the live region at the new width on resize, leaving the scrollback as written', async () => {
		const screen = await startInteractive('resize', {columns: 80, rows: 24});
		try {
			await screen.type('!echo settled-before-resize', '● bash');
			await screen.type('!printf "%s\\n" "a line of live output that is longer than forty columns"; sleep 30', 'longer than');
			screen.tty.resize(40, 16);
			await screen.tty.settle();
			await checkpoint('interactive-resized-narrow', screen.tty.frame(false));
			await screen.press(keys.ctrlC);
			await screen.tty.waitForText('⊘ bash printf');
		} finally {
			await screen.close();
		}
	});

	it('collects /write content line by line, echoing each line, and writes the file on "."', async () => {
		const screen = await startInteractive('write', {columns: 80, rows: 24});
		try {
			await screen.type('/write x.txt', 'Type the content');
			await screen.type('first line');
			await screen.type('second line');
			await screen.type('.', '● write ');
			await checkpoint('interactive-multiline-write', screen.tty.frame(true));
		} finally {
			await screen.close();
		}
	});
});

describe('pager screens', () => {
	let cards: readonly Card[] = [];
	let cwd = '';

	beforeAll(async () => {
		const screen = await startInteractive('pager-fixture', {columns: 80, rows: 24, files});
		try {
			await screen.type('!echo first', '● bash');
			await screen.type('/read long.txt', '● read long.txt');
			await screen.type('!exit 2', '[exit 2]');
			await screen.type('/grep TODO', '● grep TODO');
			await screen.type('!echo last', '● 3 ok');
			cards = cardsOf(screen.controller.entries());
			cwd = screen.cwd;
		} finally {
			await screen.close();
		}
	});

	it('opens on the newest cards with the cursor on the last one, moves, cycles expansion, searches and jumps to failures', async () => {
		const pager = await startPager(arrayEntrySource(asEntries(cards)), {columns: 80, rows: 20, sessionCwd: cwd});
		try {
			await checkpoint('pager-opens-on-newest', pager.tty.frame(false));
			await pager.press('k');
			await pager.press('k');
			await pager.press('k');
			await checkpoint('pager-cursor-moved-up', pager.tty.frame(false));
			// The read card: bounded → full → summary.
			await pager.press(keys.enter);
			await pager.press(keys.enter);
			await checkpoint('pager-expansion-summary', pager.tty.frame(false));
			await pager.press(keys.enter);
			await checkpoint('pager-expansion-full', pager.tty.frame(false));
			await pager.press('g');
			await pager.press('/');
			await pager.press('TODO');
			await pager.press(keys.enter);
			await checkpoint('pager-search-highlight', pager.tty.frame(false));
			await pager.press('g');
			await pager.press('e');
			await checkpoint('pager-failed-card-jump', pager.tty.frame(false));
		} finally {
			await pager.close();
		}
	});

	it('follows a growing source: an appended card shows at the bottom with the cursor on it', async () => {
		const source = growingSource(cards.slice(0, 2));
		const pager = await startPager(source, {columns: 80, rows: 20, follow: true, title: 'following', sessionCwd: cwd});
		try {
			await checkpoint('follow-before-append', pager.tty.frame(false));
			source.append(cards[2]!);
			await pager.tty.waitForText('3/3');
			await checkpoint('follow-after-append', pager.tty.frame(false));
		} finally {
			await pager.close();
		}
	});
});

describe('pager damaged lines', () => {
	/** The pager's cards plus the damage a reader reported, as the log's sources carry it. */
	function damagedSource(cards: readonly Card[], count: number) {
		const damage = new KeptDiagnostics();
		const file = '/home/u/proj/.cardterm/sessions/2026-01-01T00-00-00-aaaa/session.jsonl';
		for (let line = 2; line < 2 + count; line++) {
			damage.add({file, line: line * 7, kind: 'malformed', reason: line % 2 === 0 ? 'malformed line: not valid JSON (Unexpected token \'x\', "x\u001b]0;title" is not valid JSON)' : 'seq gap: expected seq 12, found seq 40 (28 events missing)'});
		}

		return {...arrayEntrySource(asEntries(cards)), damage: () => damage};
	}

	const cards = [0, 1, 2].map(index => ({...makeCard({name: 'bash', callId: `c${index}`, callView: {card: 'terminal', title: `echo ${index}`}, result: {content: text(`${index}`), isError: false}}), seq: index}));

	it('says how many lines were skipped and that ! lists them; the list scrolls and closes on q and Esc, at 80 and 40 columns', async () => {
		for (const columns of [80, 40]) {
			const pager = await startPager(damagedSource(cards, 12), {columns, rows: 12});
			try {
				await checkpoint(`pager-damage-status-w${columns}`, pager.tty.frame(false));
				expect(pager.tty.text()).toContain('12 damaged lines (! lists)');
				await pager.press('!');
				await checkpoint(`pager-damage-list-w${columns}`, pager.tty.frame(false));
				expect(pager.tty.text()).toContain('/home/u/proj/.cardterm/sessions/');
				expect(pager.tty.text()).toMatch(/12 damaged lines · 1–10\/\d+ · q close/);
				await pager.press('j');
				expect(pager.tty.text()).toMatch(/ 2–11\//);
				await pager.press('q');
				// q closes the list, not the pager.
				expect(pager.tty.text()).toContain('3/3 · ');
				await pager.press('!');
				await pager.press('G');
				expect(pager.tty.text()).toMatch(/ (\d+)–(\d+)\/\2 /);
				await pager.press(keys.escape);
				expect(pager.tty.text()).toContain('3/3 · ');
			} finally {
				await pager.close();
			}
		}
	});

	it('shows what the model knew in a log with a compaction: a ledger row per step, and the summarised turn\'s dim gutter at the newest step', async () => {
		const {openIndexedEntrySource} = await import('../../src/transcript/indexed-entry-source.js');
		const {referencePresenters} = await import('../../src/acp/reference-presenters.js');
		const source = await openIndexedEntrySource(new URL('../fixtures/logs/harness-compaction.jsonl', import.meta.url).pathname, {presenters: () => referencePresenters('/'), tail: false});
		await source.ready;
		const pager = await startPager(source, {columns: 80, rows: 20});
		try {
			await checkpoint('pager-model-view', pager.tty.frame(false));
			expect(pager.tty.text()).toContain('│ › Read the config and tell me the level.');
		} finally {
			await pager.close();
			source.close();
		}
	});

	it('counts the lines it did not keep, and says so when there are none', async () => {
		const pager = await startPager(damagedSource(cards, 1005), {columns: 80, rows: 12});
		try {
			await pager.press('!');
			await pager.press('G');
			expect(pager.tty.text()).toContain('… and 5 more (only the first 1000 are kept)');
		} finally {
			await pager.close();
		}

		const clean = await startPager(arrayEntrySource(asEntries(cards)), {columns: 80, rows: 12});
		try {
			expect(clean.tty.text()).not.toContain('damaged');
			await clean.press('!');
			expect(clean.tty.text()).toContain('no damaged lines');
		} finally {
			await clean.close();
		}
	});
});

afterAll(async () => {
	const {observed, files: onDisk} = await inventory();
	// No orphan and no missing snapshot file, whatever ran.
	expect(onDisk).toEqual([...CHECKPOINTS].sort());
	// Every declared screen was taken, unless the run was narrowed to some tests with -t.
	if (testsRun === TEST_COUNT) {
		expect(observed).toEqual([...CHECKPOINTS].sort());
	}
});
