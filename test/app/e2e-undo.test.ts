/**
`/undo`, `/redo` and `/fork` in the real `bin/cardterm`, driven in tmux (issue 20): a shell command's
changes are taken back from the shadow repository (kept beside the sessions, never in the project),
put back, and `/fork` goes on in a new session that `cardterm sessions` lists under its parent.
Needs tmux and a built dist/.
*/
import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildDist, cardterm, cardtermCommand, killTmuxServer, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

let folder = '';

beforeAll(() => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-undo-'));
}, 300_000);

afterAll(() => {
	if (!tmuxMissing) {
		killTmuxServer();
	}

	rmSync(folder, {recursive: true, force: true});
});

describe.skipIf(tmuxMissing)('/undo in the real binary (skipped when tmux is not installed)', () => {
	it('takes back a shell command\'s changes, puts them back, and forks', async () => {
		const project = join(folder, 'project');
		mkdirSync(project);
		writeFileSync(join(project, 'app.ts'), 'one\n');
		execFileSync('git', ['init', '--quiet'], {cwd: project});
		const sessions = join(folder, 'sess');
		const codeFile = join(folder, 'code');
		const target = 'undo';
		const script = `${cardtermCommand({CARDTERM_SESSION_DIR: sessions}, '--cwd', project).map(word => shellWord(word)).join(' ')}; echo $? > ${shellWord(codeFile)}`;
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', target, '-x', '120', '-y', '40', '-c', folder, script);
		tmux('set-option', '-t', target, 'remain-on-exit', 'on');
		await shows('type !command', target);
		tmux('send-keys', '-t', target, '-l', '!printf "two\\n" >> app.ts && printf "made\\n" > made.txt');
		tmux('send-keys', '-t', target, 'Enter');
		await waitFor('the command\'s changes', () => existsSync(join(project, 'made.txt')), 30_000, target);
		tmux('send-keys', '-t', target, '-l', '/undo');
		tmux('send-keys', '-t', target, 'Enter');
		await shows('undid the file changes of the last turn: app.ts, made.txt', target);
		await shows('Undo command made.txt', target);
		expect(readFileSync(join(project, 'app.ts'), 'utf8')).toBe('one\n');
		expect(existsSync(join(project, 'made.txt'))).toBe(false);
		tmux('send-keys', '-t', target, '-l', '/redo');
		tmux('send-keys', '-t', target, 'Enter');
		await shows('redid the last undo: app.ts, made.txt', target);
		expect(readFileSync(join(project, 'app.ts'), 'utf8')).toBe('one\ntwo\n');
		tmux('send-keys', '-t', target, '-l', '/fork');
		tmux('send-keys', '-t', target, 'Enter');
		await shows('continuing in session', target);
		await shows('type !command', target);
		tmux('send-keys', '-t', target, 'C-d');
		await waitFor('the exit code', () => existsSync(codeFile) && readFileSync(codeFile, 'utf8').trim() !== '', 30_000, target);
		expect(readFileSync(codeFile, 'utf8').trim()).toBe('0');
		// The shadow repository is beside the sessions; the project holds only its own files.
		expect(readdirSync(project).sort()).toEqual(['.git', 'app.ts', 'made.txt']);
		expect(existsSync(join(sessions, '.shadow'))).toBe(true);
		const listed = execFileSync(process.execPath, [cardterm, 'sessions', '--session-dir', sessions], {encoding: 'utf8'}).trimEnd().split('\n');
		expect(listed).toHaveLength(2);
		expect(listed[1]).toMatch(/^ {2}↳ /);
	}, 180_000);
});
