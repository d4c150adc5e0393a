/**
`cardterm --resume` without an id, in a terminal (issue 16 item 9): the real `bin/cardterm` in tmux
lists this directory's sessions by their first prompt, turns and id, newest first; ↓ and Enter
continue the one picked (its history above the prompt, the model sees it); Esc quits without
starting. Sessions of another directory are not offered. `watch ID` takes the same ids. Needs tmux
and a built dist/.
*/
import {execFile} from 'node:child_process';
import {mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {buildDist, cardterm, cardtermCommand, killTmuxServer, reportingExit, screen, shellWord, shownExit, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

describe.skipIf(tmuxMissing)('cardterm --resume picks a session in tmux (skipped when tmux is not installed)', () => {
	let folder = '';
	let elsewhere = '';
	let sessions = '';
	let server: FakeModelServer | undefined;
	const environment = (): Record<string, string> => ({CARDTERM_SESSION_DIR: sessions, OPENAI_API_KEY: 'test', XDG_CONFIG_HOME: join(folder, 'config')});

	beforeAll(async () => {
		buildDist();
		folder = mkdtempSync(join(tmpdir(), 'cardterm-picker-'));
		elsewhere = mkdtempSync(join(tmpdir(), 'cardterm-picker-elsewhere-'));
		sessions = join(folder, 'sessions');
		server = await startFakeModelServer({script: [{text: 'Noted the first.'}, {text: 'Noted the second.'}, {text: 'Noted elsewhere.'}, {text: 'Back on the first.'}]});
	}, 300_000);

	afterAll(async () => {
		killTmuxServer();
		await server?.close();
		for (const dir of [folder, elsewhere]) {
			if (dir !== '') {
				rmSync(dir, {recursive: true, force: true});
			}
		}
	});

	it('lists this directory\'s sessions by first prompt and turns; ↓ Enter continues the older one', async () => {
		await recordAsync(folder, 'remember the first thing');
		await recordAsync(folder, 'remember the second thing');
		await recordAsync(elsewhere, 'a prompt of another directory');
		const ids = readdirSync(sessions).filter(name => !name.startsWith('.'));
		expect(ids).toHaveLength(3);

		const command = cardtermCommand(environment(), '--base-url', server!.url, '--model', 'fake-model', '--resume').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'picker', '-x', '120', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', 'picker', 'remain-on-exit', 'on');
		await shows(`Resume a session of ${folder} (2 sessions):`, 'picker');
		const rows = screen('picker').split('\n');
		const newest = rows.findIndex(row => row.includes('remember the second thing'));
		const older = rows.findIndex(row => row.includes('remember the first thing'));
		expect([newest >= 0, older > newest]).toEqual([true, true]);
		expect(rows[newest]).toMatch(/^› .*remember the second thing {2}1 turn {2}\S+$/u);
		expect(rows[older]).toMatch(/^ {2}.*remember the first thing {2}1 turn {2}\S+$/u);
		expect(screen('picker')).not.toContain('another directory');

		tmux('send-keys', '-t', 'picker', 'Down');
		await waitFor('the older session highlighted', () => screen('picker').split('\n').some(row => row.startsWith('› ') && row.includes('remember the first thing')), 10_000, 'picker');
		tmux('send-keys', '-t', 'picker', 'Enter');
		await shows('cardterm: continuing session', 'picker');
		await shows('Noted the first.', 'picker');
		tmux('send-keys', '-t', 'picker', 'go on', 'Enter');
		await shows('Back on the first.', 'picker');
		// The model was sent the picked session's conversation.
		expect(JSON.stringify(server!.requests.at(-1)!.body.messages)).toContain('remember the first thing');
		tmux('send-keys', '-t', 'picker', 'C-d');
		await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', 'picker', '#{pane_dead}').trim() === '1', 20_000, 'picker');
		expect(readdirSync(sessions).filter(name => !name.startsWith('.'))).toHaveLength(3);
	}, 120_000);

	it('Esc quits without starting a session', async () => {
		const before = readdirSync(sessions).length;
		const command = reportingExit(cardtermCommand(environment(), '--base-url', server!.url, '--model', 'fake-model', '--resume').map(word => shellWord(word)).join(' '));
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'quit', '-x', '120', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', 'quit', 'remain-on-exit', 'on');
		await shows('Enter resume · / filter · Esc quit', 'quit');
		tmux('send-keys', '-t', 'quit', 'Escape');
		expect(await shownExit('quit')).toBe(130);
		expect(readdirSync(sessions)).toHaveLength(before);
	}, 60_000);

	it('watch ID follows the session `sessions` lists under that id (it took only a path)', async () => {
		// Ids made in the same second sort by their random suffix: find the session by its prompt.
		const id = readdirSync(sessions).find(name => !name.startsWith('.') && readFileSync(join(sessions, name, 'session.jsonl'), 'utf8').includes('remember the first thing'))!;
		const command = cardtermCommand(environment(), 'watch', id, '--no-color').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'watch', '-x', '120', '-y', '30', '-c', elsewhere, command);
		tmux('set-option', '-t', 'watch', 'remain-on-exit', 'on');
		await shows('remember the first thing', 'watch');
		await shows(`${id} · writer finished`, 'watch');
		tmux('send-keys', '-t', 'watch', 'q');
		await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', 'watch', '#{pane_dead}').trim() === '1', 20_000, 'watch');
	}, 60_000);

	/** One `-p` turn in `cwd`, recorded in `sessions` (asynchronously: this process serves the fake model). */
	async function recordAsync(cwd: string, prompt: string): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			execFile(process.execPath, [cardterm, '-p', prompt, '--base-url', server!.url, '--model', 'fake-model'], {cwd, env: {PATH: process.env.PATH, HOME: folder, ...environment()}}, error => {
				if (error === null) {
					resolve();
				} else {
					reject(error);
				}
			});
		});
	}
});
