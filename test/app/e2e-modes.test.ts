/**
Modes in the real `bin/cardterm`, driven in tmux (issue 31): `--mode plan` starts in plan mode (the
status line says it, and a write is refused without a question), Shift+Tab as tmux sends it (BTab,
CSI Z) asks before bypass mode ("No" goes back to ask) and then switches to accept edits, where the
same write runs, and the log keeps each change for replay.
Needs tmux and a built dist/.
*/
import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildDist, cardterm, cardtermCommand, killTmuxServer, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

let folder = '';

beforeAll(() => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-modes-'));
}, 300_000);

afterAll(() => {
	if (!tmuxMissing) {
		killTmuxServer();
	}

	rmSync(folder, {recursive: true, force: true});
});

describe.skipIf(tmuxMissing)('modes in the real binary (skipped when tmux is not installed)', () => {
	it('--mode plan refuses a write; Shift+Tab (BTab) asks before bypass, then reaches accept edits, where the write runs; replay shows the changes', async () => {
		const project = join(folder, 'project');
		mkdirSync(project);
		const sessions = join(folder, 'sess');
		const target = 'modes';
		const script = cardtermCommand({CARDTERM_SESSION_DIR: sessions}, '--cwd', project, '--mode', 'plan').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', target, '-x', '140', '-y', '40', '-c', folder, script);
		tmux('set-option', '-t', target, 'remain-on-exit', 'on');
		await shows('mode plan', target);
		tmux('send-keys', '-t', target, '-l', 'write {"file_path": "a.txt", "content": "a"}');
		tmux('send-keys', '-t', target, 'Enter');
		await shows('plan mode: write was not run', target);
		expect(existsSync(join(project, 'a.txt'))).toBe(false);
		// plan → bypass asks first; "No" goes back to ask mode, and the next press is accept edits.
		tmux('send-keys', '-t', target, 'BTab');
		await shows('Allow bypass mode', target);
		tmux('send-keys', '-t', target, 'Down');
		tmux('send-keys', '-t', target, 'Enter');
		await shows('mode: ask (Shift+Tab)', target);
		tmux('send-keys', '-t', target, 'BTab');
		await shows('mode accept edits', target);
		tmux('send-keys', '-t', target, '-l', 'write {"file_path": "a.txt", "content": "a"}');
		tmux('send-keys', '-t', target, 'Enter');
		await waitFor('the write', () => existsSync(join(project, 'a.txt')), 30_000, target);
		tmux('send-keys', '-t', target, 'C-d');
		const log = (): string | undefined => readdirSync(sessions).map(name => join(sessions, name, 'session.jsonl')).find(path => existsSync(path));
		await waitFor('the log', () => log() !== undefined && readFileSync(log()!, 'utf8').includes('"permission/preset"'), 30_000, target);
		const replay = execFileSync(process.execPath, [cardterm, 'replay', '--print', '--no-color', '--width', '120', log()!], {encoding: 'utf8'});
		expect(replay).toContain('mode: accept edits (Shift+Tab)');
		expect(replay).toContain('plan mode: write was not run');
	}, 120_000);
});
