/**
The pager's `y` and `o` in the real `bin/cardterm`, driven in tmux: Ctrl+O's pager copies what a read
card shows (the file's lines, not the model-facing text) through OSC 52 into tmux's buffer; `o` runs
$EDITOR — a stand-in script that takes the alternate screen itself, as vi does — and the pager is
back on its own screen afterwards, redrawn; a file that is gone is refused; quitting leaves the main
screen as it was (the transcript in the session, the shell's output under replay). Its search goes
round the end: replay opens on the newest entry, so the first `/` has nothing below it (issue 16,
first day, item 14: it said `no later match`). `watch` follows a log as it is written.
Needs tmux (CI installs it) and a built dist/ (rebuilt here when older than the sources).
*/
import {appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildDist, cardtermCommand, repo, killTmuxServer, screen, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

const alternateOn = (target: string) => tmux('display-message', '-p', '-t', target, '#{alternate_on}').trim() === '1';

describe.skipIf(tmuxMissing)('the pager\'s y and o, search and watch in tmux (skipped when tmux is not installed)', () => {
	let folder = '';
	let editor = '';
	let sessions = '';
	const readme = '# e2e\n\nA readme for the end-to-end test.\n';

	beforeAll(() => {
		buildDist();
		folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-editor-'));
		sessions = join(folder, 'sessions');
		writeFileSync(join(folder, 'README.md'), readme);
		editor = join(folder, 'editor.sh');
		// Like vi: takes the alternate screen, draws, and leaves it (which puts the terminal on the main screen).
		writeFileSync(editor, `#!/bin/sh\nprintf '%s\\n' "$@" >> ${shellWord(join(folder, 'editor-args'))}\nprintf '\\033[?1049h\\033[HIN THE EDITOR\\n'\nsleep 0.5\nprintf '\\033[?1049l'\n`);
		chmodSync(editor, 0o755);
	}, 300_000);

	afterAll(() => {
		killTmuxServer();
		if (folder !== '') {
			rmSync(folder, {recursive: true, force: true});
		}
	});

	it('in Ctrl+O\'s pager: y copies the read card\'s lines, o opens $EDITOR and comes back redrawn, a gone file is refused, q gives the transcript back', async () => {
		const command = cardtermCommand({CARDTERM_SESSION_DIR: sessions, EDITOR: editor}).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'ed1', '-x', '100', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', 'ed1', 'remain-on-exit', 'on');
		tmux('set-option', '-s', 'set-clipboard', 'on');
		await shows('type !command', 'ed1');
		tmux('send-keys', '-t', 'ed1', '/read README.md', 'Enter');
		await shows('● read', 'ed1');

		tmux('send-keys', '-t', 'ed1', 'C-o');
		await shows('? help · q quit', 'ed1');
		tmux('send-keys', '-t', 'ed1', 'y');
		await shows('README.md lines 1–3 as shown', 'ed1');
		const copied = tmux('show-buffer');
		expect(copied).toContain('A readme for the end-to-end test.');
		expect(copied).not.toContain('<path>');
		expect(copied).not.toContain('<content>');

		tmux('send-keys', '-t', 'ed1', 'o');
		await waitFor('the editor stand-in to run', () => existsSync(join(folder, 'editor-args')), 30_000, 'ed1');
		await shows('opened README.md', 'ed1');
		expect(readFileSync(join(folder, 'editor-args'), 'utf8')).toContain(join(folder, 'README.md'));
		// Back on the pager's own screen, drawn again in full.
		expect(alternateOn('ed1')).toBe(true);
		expect(screen('ed1')).toContain('● read');
		expect(screen('ed1')).not.toContain('IN THE EDITOR');

		rmSync(join(folder, 'README.md'));
		tmux('send-keys', '-t', 'ed1', 'o');
		await shows('file not found: README.md', 'ed1');
		expect(readFileSync(join(folder, 'editor-args'), 'utf8').split('\n').filter(line => line.endsWith('README.md'))).toHaveLength(1);

		tmux('send-keys', '-t', 'ed1', 'q');
		await waitFor('the main screen', () => !alternateOn('ed1'), 30_000, 'ed1');
		await shows('type !command', 'ed1');
		const transcript = screen('ed1');
		expect(transcript.split('● read').length - 1).toBe(1);
		expect(transcript).not.toContain('? help · q quit');
		expect(transcript).not.toContain('IN THE EDITOR');
		tmux('send-keys', '-t', 'ed1', 'C-d');
		await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', 'ed1', '#{pane_dead}').trim() === '1', 30_000, 'ed1');
	}, 180_000);

	it('in replay: after o the pager is redrawn on its screen, and q leaves the shell\'s screen and scrollback as they were', async () => {
		writeFileSync(join(folder, 'README.md'), readme);
		const [id] = readdirSync(sessions).filter(name => !name.startsWith('.'));
		const log = join(sessions, id!, 'session.jsonl');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'ed2', '-x', '100', '-y', '30', '-c', folder, 'env -i PATH="$PATH" HOME="$HOME" TERM=xterm-256color PS1="$ " sh');
		tmux('send-keys', '-t', 'ed2', 'seq 1 5 | sed s/^/BEFORE-/', 'Enter');
		await shows('BEFORE-5', 'ed2');
		const replay = cardtermCommand({EDITOR: editor}, 'replay', log).map(word => shellWord(word)).join(' ');
		tmux('send-keys', '-t', 'ed2', replay, 'Enter');
		await shows('? help · q quit', 'ed2');
		tmux('send-keys', '-t', 'ed2', 'o');
		await shows('opened README.md', 'ed2');
		expect(alternateOn('ed2')).toBe(true);
		expect(screen('ed2')).toContain('● read');

		tmux('send-keys', '-t', 'ed2', 'q');
		await waitFor('the main screen', () => !alternateOn('ed2'), 30_000, 'ed2');
		tmux('send-keys', '-t', 'ed2', 'echo AFTER', 'Enter');
		await shows('AFTER', 'ed2');
		const shell = screen('ed2');
		for (let line = 1; line <= 5; line++) {
			expect(shell).toContain(`BEFORE-${line}`);
		}

		// No frame of the pager or the editor was left on the main screen.
		expect(shell).not.toContain('? help · q quit');
		expect(shell).not.toContain('● read');
		expect(shell).not.toContain('IN THE EDITOR');
	}, 180_000);

	it('in replay: / from the newest entry finds the match above it, says the search wrapped, and n goes round too', async () => {
		const log = join(repo, 'test/fixtures/logs/basic.jsonl');
		const command = cardtermCommand({}, 'replay', log).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'search', '-x', '120', '-y', '20', '-c', folder, command);
		tmux('set-option', '-t', 'search', 'remain-on-exit', 'on');
		const status = () => screen('search').split('\n').findLast(row => row.includes('? help · q quit')) ?? '';
		// On the newest entry once the log is indexed (`newest · … indexing` before).
		await waitFor('the pager on the newest entry, indexed', () => /^(\d+)\/\1 · /.test(status()), 30_000, 'search');

		tmux('send-keys', '-t', 'search', '/', 'look', 'Enter');
		await shows('search wrapped', 'search');
		expect(status()).toMatch(/^\d+\/\d+ · match 1\/1 · search wrapped · /);
		expect(screen('search')).not.toContain('no later match');
		tmux('send-keys', '-t', 'search', 'j');
		await shows('1 match ·', 'search');
		expect(status()).not.toContain('search wrapped');
		// Below the only match, n goes round the end back up to it.
		tmux('send-keys', '-t', 'search', 'n');
		await shows('search wrapped', 'search');
		expect(status()).toMatch(/· match 1\/1 · search wrapped · /);

		tmux('send-keys', '-t', 'search', 'q');
		await waitFor('replay to exit', () => tmux('display-message', '-p', '-t', 'search', '#{pane_dead}').trim() === '1', 30_000, 'search');
	}, 180_000);

	it('watch waits for a log that is not there yet, shows its cards and a damaged line as they arrive, and says when the writer finished', async () => {
		const log = join(folder, 'later', 'session.jsonl');
		const lines = readFileSync(join(repo, 'test/fixtures/logs/basic.jsonl'), 'utf8').split('\n').filter(line => line !== '');
		// The shell records watch's exit code: tmux 3.3 sometimes marks the pane dead without any status.
		const exitFile = join(folder, 'watch-exit');
		const command = `${cardtermCommand({}, 'watch', log).map(word => shellWord(word)).join(' ')}; echo $? > ${shellWord(exitFile)}`;
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'ed3', '-x', '120', '-y', '20', '-c', folder, command);
		tmux('set-option', '-t', 'ed3', 'remain-on-exit', 'on');
		await shows(`waiting for ${log}`, 'ed3');
		mkdirSync(join(folder, 'later'));
		// A writer holding the lock, half way through its turn.
		writeFileSync(`${log}.lock`, `${process.pid}\n`);
		writeFileSync(log, `${lines.slice(0, -1).join('\n')}\nnot json at all\n`);
		await shows('following', 'ed3');
		await shows('1 damaged line (! lists)', 'ed3');
		expect(screen('ed3')).not.toContain('reading…');
		appendFileSync(log, `${lines.at(-1)!}\n`);
		rmSync(`${log}.lock`);
		await shows('writer finished', 'ed3');
		tmux('send-keys', '-t', 'ed3', 'q');
		await waitFor('watch to exit', () => existsSync(exitFile) && readFileSync(exitFile, 'utf8').endsWith('\n'), 30_000, 'ed3');
		expect(readFileSync(exitFile, 'utf8')).toBe('0\n');
	}, 180_000);
});
