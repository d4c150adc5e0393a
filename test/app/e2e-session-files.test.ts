/**
What the real `bin/cardterm` leaves on disk (issue 13 items 10, 11, 12), driven in tmux: `--cwd DIR`
makes DIR the workspace; a start and a quit with nothing done keeps no session and says nothing
about one; a named sessions folder (`CARDTERM_SESSION_DIR=/x/sess`) holds the prompt history
itself (`/x/sess/.history/`), never `/x/history/`. Needs tmux and a built dist/.
*/
import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildDist, cardterm, cardtermCommand, killTmuxServer, screen, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

let folder = '';

beforeAll(() => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-files-'));
}, 300_000);

afterAll(() => {
	if (!tmuxMissing) {
		killTmuxServer();
	}

	rmSync(folder, {recursive: true, force: true});
});

/** Starts `cardterm ARGS` in a tmux window in `folder`; resolves with its exit code once it ends. */
async function session(target: string, environment: Record<string, string>, args: readonly string[], use: () => Promise<void>): Promise<string> {
	const codeFile = join(folder, `code-${target}`);
	const script = `${cardtermCommand(environment, ...args).map(word => shellWord(word)).join(' ')}; echo $? > ${shellWord(codeFile)}`;
	tmux('-f', '/dev/null', 'new-session', '-d', '-s', target, '-x', '100', '-y', '30', '-c', folder, script);
	tmux('set-option', '-t', target, 'remain-on-exit', 'on');
	await shows('type !command', target);
	await use();
	tmux('send-keys', '-t', target, 'C-d');
	await waitFor('the exit code', () => existsSync(codeFile) && readFileSync(codeFile, 'utf8').trim() !== '', 30_000, target);
	return readFileSync(codeFile, 'utf8').trim();
}

/** Session folders under `root` (dot-folders such as `.history` are not sessions). */
const sessionsIn = (root: string): string[] => (existsSync(root) ? readdirSync(root).filter(name => !name.startsWith('.')) : []);

describe.skipIf(tmuxMissing)('the files a session leaves (skipped when tmux is not installed)', () => {
	it('keeps no session for a start and a quit with nothing done, and says nothing about one', async () => {
		const sessions = join(folder, 'empty', 'sess');
		const code = await session('empty', {CARDTERM_SESSION_DIR: sessions}, [], async () => undefined);
		expect(code).toBe('0');
		expect(screen('empty')).not.toContain('session saved');
		expect(sessionsIn(sessions)).toEqual([]);
		const listed = execFileSync(process.execPath, [cardterm, 'sessions', '--session-dir', sessions], {encoding: 'utf8'});
		expect(listed).toBe(`no saved sessions in ${sessions}\n`);
	}, 120_000);

	it('works in the --cwd folder and keeps the history inside the named sessions folder', async () => {
		const project = join(folder, 'project');
		mkdirSync(project);
		const sessions = join(folder, 'x', 'sess');
		const code = await session('cwd', {CARDTERM_SESSION_DIR: sessions}, ['--cwd', project], async () => {
			tmux('send-keys', '-t', 'cwd', '!pwd', 'Enter');
			await shows('● bash pwd', 'cwd');
			await shows(project, 'cwd');
		});
		expect(code).toBe('0');
		await shows('session saved:', 'cwd');
		const [id] = sessionsIn(sessions);
		const header = JSON.parse(readFileSync(join(sessions, id!, 'session.jsonl'), 'utf8').split('\n')[0]!) as {cwd: string};
		expect(header.cwd).toBe(project);
		expect(readdirSync(join(sessions, '.history')).length).toBe(1);
		expect(existsSync(join(folder, 'x', 'history'))).toBe(false);
	}, 120_000);

	// Attacker item 6 of issue 16: logs and history were 0644 in 0755 folders.
	it('makes every folder and file it creates the person\'s alone: sessions, the session, its log, the history', async () => {
		const sessions = join(folder, 'private', 'sess');
		const code = await session('modes', {CARDTERM_SESSION_DIR: sessions}, [], async () => {
			tmux('send-keys', '-t', 'modes', '!echo private', 'Enter');
			await shows('● bash echo private', 'modes');
		});
		expect(code).toBe('0');
		const [id] = sessionsIn(sessions);
		const [history] = readdirSync(join(sessions, '.history'));
		const modes = Object.fromEntries([join(folder, 'private'), sessions, join(sessions, id!), join(sessions, id!, 'session.jsonl'), join(sessions, '.history'), join(sessions, '.history', history!)]
			.map(path => [path.slice(folder.length), (statSync(path).mode & 0o777).toString(8)]));
		expect(modes).toEqual({'/private': '700', '/private/sess': '700', [`/private/sess/${id}`]: '700', [`/private/sess/${id}/session.jsonl`]: '600', '/private/sess/.history': '700', [`/private/sess/.history/${history}`]: '600'});
	}, 120_000);
});
