/**
The real `bin/cardterm` driven in tmux as a person would use it: type at the prompt (a request
with no model connected, a paste, lines queued while a command runs, edited and dropped), cancel a
running command (its card keeps what it printed), open and close the pager, exit; then the saved
log replays to the same cards.
Needs tmux (CI installs it) and a built dist/ (rebuilt here when older than the sources).
*/
import {execFileSync} from 'node:child_process';
import {mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildDist, cardterm, cardtermCommand, descendants, killTmuxServer, running, screen, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

describe.skipIf(tmuxMissing)('cardterm in tmux (skipped when tmux is not installed)', () => {
	let folder = '';

	beforeAll(() => {
		buildDist();

		folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-'));
		writeFileSync(join(folder, 'README.md'), '# e2e\n\nA readme for the end-to-end test.\n');
	}, 300_000);

	afterAll(() => {
		killTmuxServer();
		if (folder !== '') {
			rmSync(folder, {recursive: true, force: true});
		}
	});

	it('runs commands, cancels a sleep with Ctrl+C keeping what it printed, opens and closes the pager, exits, and the log replays to the same cards', async () => {
		const sessions = join(folder, 'sessions');
		// Reduced motion: a running card keeps its plain ○ (the spinner is the other test's).
		const command = cardtermCommand({CARDTERM_SESSION_DIR: sessions, CARDTERM_REDUCED_MOTION: '1'}).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'e2e', '-x', '100', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', 'e2e', 'remain-on-exit', 'on');
		const appPid = Number(tmux('display-message', '-p', '-t', 'e2e', '#{pane_pid}').trim());

		await shows('type !command');
		// A request with no model connected is said not sent, with how to connect one; never offered to the shell.
		tmux('send-keys', '-t', 'e2e', 'fix the failing test', 'Enter');
		await shows('not sent: no model is connected to answer "fix the failing test"');
		await shows('/model PROVIDER:MODEL connects one now');
		expect(screen()).not.toContain('did you mean !fix');
		tmux('send-keys', '-t', 'e2e', '!echo hi', 'Enter');
		await shows('● bash echo hi');
		tmux('send-keys', '-t', 'e2e', '/read README.md', 'Enter');
		await shows('● read');

		tmux('send-keys', '-t', 'e2e', '!echo printed-before-the-cancel; sleep 30', 'Enter');
		await shows('○ bash echo printed-before-the-cancel; sleep 30');
		await waitFor('the sleep process', () => descendants(appPid).some(process => process.command === 'sleep 30'));
		const sleeps = descendants(appPid).filter(process => process.command === 'sleep 30').map(process => process.pid);
		tmux('send-keys', '-t', 'e2e', 'C-c');
		await shows('⊘ bash echo printed-before-the-cancel; sleep 30');
		await waitFor('the sleep process to end', () => sleeps.every(pid => !running(pid)), 10_000);
		// The cancelled card keeps its command, what it printed, and says it was cancelled.
		const cancelledRows = screen().split('\n');
		const header = cancelledRows.findIndex(row => row.startsWith('⊘ bash echo printed-before-the-cancel; sleep 30'));
		expect(cancelledRows.slice(header + 1, header + 4), screen()).toEqual(['$ echo printed-before-the-cancel; sleep 30', 'printed-before-the-cancel', '[cancelled]']);

		tmux('send-keys', '-t', 'e2e', 'C-o');
		await shows('j/k move');
		expect(tmux('display-message', '-p', '-t', 'e2e', '#{alternate_on}').trim()).toBe('1');
		tmux('send-keys', '-t', 'e2e', 'q');
		await waitFor('the main screen', () => tmux('display-message', '-p', '-t', 'e2e', '#{alternate_on}').trim() === '0');
		await shows('⊘ 1 cancelled');
		// Each settled card is in the scrollback exactly once.
		const transcript = screen();
		expect(['● bash echo hi', '● read', '⊘ bash echo printed-before-the-cancel; sleep 30'].map(title => transcript.split(title).length - 1)).toEqual([1, 1, 1]);

		tmux('send-keys', '-t', 'e2e', 'C-d');
		await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', 'e2e', '#{pane_dead}').trim() === '1');

		const [id] = readdirSync(sessions).filter(name => !name.startsWith('.'));
		const log = join(sessions, id!, 'session.jsonl');
		expect(screen()).toContain(`session saved: ${log}`);
		const replay = execFileSync(process.execPath, [cardterm, 'replay', log, '--json'], {encoding: 'utf8'});
		const cards = replay.trim().split('\n').map(line => JSON.parse(line) as {name: string; status: string; call: {title: string}; result: {output?: string} | null});
		expect(cards.map(card => ({name: card.name, status: card.status, title: card.call.title}))).toEqual([
			{name: 'bash', status: 'ok', title: 'echo hi'},
			{name: 'read', status: 'ok', title: expect.stringContaining('README.md') as unknown as string},
			{name: 'bash', status: 'cancelled', title: 'echo printed-before-the-cancel; sleep 30'},
		]);
		expect(JSON.stringify(cards[2]!.result)).toContain('printed-before-the-cancel');
	}, 180_000);

	it('takes a paste as one chip, cancels with Esc, edits and drops queued lines, keeps a tall settled card above the prompt through a resize, and Ctrl+O while a call settles', async () => {
		const target = 'live';
		const sessions = join(folder, 'sessions-live');
		const command = cardtermCommand({CARDTERM_SESSION_DIR: sessions}).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', target, '-x', '100', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', target, 'remain-on-exit', 'on');
		const pane = (): string => tmux('capture-pane', '-p', '-t', target);
		await shows('type !command', target);

		// A paste of two lines (tmux pastes bracketed when the app asked for it): text, nothing runs.
		tmux('set-buffer', '-b', 'two', '!echo pasted-one\necho pasted-two\n');
		tmux('paste-buffer', '-p', '-b', 'two', '-t', target);
		await shows('> [Pasted text #1 +2 lines]', target);
		await new Promise(resolve => {
			setTimeout(resolve, 500);
		});
		expect(screen(target)).not.toContain('● bash');
		tmux('send-keys', '-t', target, 'Enter');
		await shows('● bash echo pasted-one', target);
		expect(screen(target)).toMatch(/^pasted-two$/m);

		// Esc cancels the running call; the status line offered it.
		tmux('send-keys', '-t', target, '!sleep 30', 'Enter');
		await shows('Esc to cancel', target);
		tmux('send-keys', '-t', target, 'Escape');
		await shows('⊘ bash sleep 30', target);

		// Lines typed while a command runs wait above the prompt: Alt+↑ takes the newest back to edit
		// (Enter queues it again), Alt+↓ drops the newest; only what is left runs.
		tmux('send-keys', '-t', target, '!sleep 30', 'Enter');
		await waitFor('the running sleep', () => /[◐◓◑◒○] bash sleep 30/u.test(pane()), 30_000, target);
		tmux('send-keys', '-t', target, '!echo queud', 'Enter');
		await shows('↳ !echo queud', target);
		tmux('send-keys', '-t', target, '!echo unwanted', 'Enter');
		await shows('↳ !echo unwanted', target);
		await shows('Alt+↑ edit · Alt+↓ drop the newest', target);
		tmux('send-keys', '-t', target, 'M-Down');
		await shows('dropped 1 line that waited: !echo unwanted', target);
		tmux('send-keys', '-t', target, 'M-Up');
		await waitFor('the queued line back at the prompt', () => pane().includes('> !echo queud') && !pane().includes('↳'), 10_000, target);
		tmux('send-keys', '-t', target, 'BSpace', 'BSpace', 'ued', 'Enter');
		await shows('↳ !echo queued', target);
		tmux('send-keys', '-t', target, 'Escape');
		await shows('1 line still queued, not run: !echo queued', target);
		tmux('send-keys', '-t', target, 'Enter');
		await shows('● bash echo queued', target);
		expect(screen(target)).not.toMatch(/● bash echo (queud|unwanted)/u);

		// A card taller than the screen: once settled it sits right above the prompt, and stays there
		// when the window gets shorter.
		tmux('send-keys', '-t', target, '!for i in $(seq 1 60); do echo L$i; sleep 0.02; done', 'Enter');
		await shows('earlier lines not shown', target);
		await waitFor('the tall card to settle', () => pane().includes('● bash for i'), 30_000, target);
		const rowsAbove = (text: string): string[] => {
			const rows = text.split('\n');
			const prompt = rows.findIndex(row => row.startsWith('> '));
			return rows.slice(0, prompt);
		};

		expect(rowsAbove(pane()).slice(-3)).toEqual(['L59', 'L60', '']);
		tmux('resize-window', '-t', target, '-x', '100', '-y', '20');
		await waitFor('the shorter window', () => tmux('display-message', '-p', '-t', target, '#{pane_height}').trim() === '20', 10_000, target);
		await waitFor('the prompt after the resize', () => pane().includes('> '), 10_000, target);
		expect(rowsAbove(pane()).slice(-3)).toEqual(['L59', 'L60', '']);

		// Ctrl+O while a call runs: the pager turns it ● when it settles, and after q it is in the scrollback once.
		tmux('send-keys', '-t', target, '!sleep 2; echo MARK', 'Enter');
		// Motion is on: the running card's glyph is a spinner frame.
		await waitFor('the running card', () => /[◐◓◑◒] bash sleep 2; echo MARK/.test(pane()), 30_000, target);
		tmux('send-keys', '-t', target, 'C-o');
		await shows('j/k move', target);
		await waitFor('the pager to show the settled card', () => pane().includes('● bash sleep 2; echo MARK'), 30_000, target);
		tmux('send-keys', '-t', target, 'q');
		await waitFor('the main screen', () => tmux('display-message', '-p', '-t', target, '#{alternate_on}').trim() === '0', 10_000, target);
		await waitFor('MARK in the scrollback', () => screen(target).split('\n').includes('MARK'), 10_000, target);
		expect(screen(target).split('● bash sleep 2; echo MARK').length - 1).toBe(1);

		tmux('send-keys', '-t', target, 'C-d');
		await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', target, '#{pane_dead}').trim() === '1', 30_000, target);
		const replay = execFileSync(process.execPath, [cardterm, 'replay', join(sessions, readdirSync(sessions).find(name => !name.startsWith('.'))!, 'session.jsonl'), '--json'], {encoding: 'utf8'});
		expect(replay.trim().split('\n').map(line => (JSON.parse(line) as {status: string}).status)).toEqual(['ok', 'cancelled', 'cancelled', 'ok', 'ok', 'ok']);
	}, 180_000);
});
