/**
`u` on a diff card in the pager of the real `bin/cardterm`, driven in tmux (issue 20): Ctrl+O, the
cursor on the person's `/edit` card, u shows the reverse diff, y takes that card back — the file is
back and the undo card is in the log — and `replay` shows the undo card and says its pager is
read-only. Needs tmux and a built dist/.
*/
import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildDist, cardtermCommand, killTmuxServer, screen, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

let folder = '';

beforeAll(() => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-pager-undo-'));
}, 300_000);

afterAll(() => {
	if (!tmuxMissing) {
		killTmuxServer();
	}

	rmSync(folder, {recursive: true, force: true});
});

const type = (target: string, line: string): void => {
	tmux('send-keys', '-t', target, '-l', line);
	tmux('send-keys', '-t', target, 'Enter');
};

describe.skipIf(tmuxMissing)('u in the pager of the real binary (skipped when tmux is not installed)', () => {
	it('takes back one edit card after its preview; the undo card is in the log, and replay shows it read-only', async () => {
		const project = join(folder, 'project');
		mkdirSync(project);
		writeFileSync(join(project, 'app.ts'), 'one\ntwo\nthree\n');
		writeFileSync(join(project, 'lib.ts'), 'a\n');
		execFileSync('git', ['init', '--quiet'], {cwd: project});
		const sessions = join(folder, 'sess');
		const target = 'pagerundo';
		const command = cardtermCommand({CARDTERM_SESSION_DIR: sessions}, '--cwd', project).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', target, '-x', '120', '-y', '40', '-c', folder, command);
		tmux('set-option', '-t', target, 'remain-on-exit', 'on');
		await shows('type !command', target);
		// Two edits of the person's own: the pager takes back the first alone.
		for (const [file, from, to] of [['app.ts', 'two', 'TWO'], ['lib.ts', 'a', 'A']] as const) {
			type(target, `/edit ${file}`);
			await shows(`text to replace in ${file}`, target);
			type(target, from);
			type(target, '.');
			await shows(`replacement text for ${file}`, target);
			type(target, to);
			type(target, '.');
			await waitFor(`the edit of ${file}`, () => readFileSync(join(project, file), 'utf8').includes(to), 30_000, target);
		}

		tmux('send-keys', '-t', target, 'C-o');
		await shows('? help · q quit', target);
		// From the first entry, j until u on the cursor's entry previews the app.ts card (each j clears what u said).
		tmux('send-keys', '-t', target, 'g');
		let previewed = false;
		for (let step = 0; step < 12 && !previewed; step++) {
			tmux('send-keys', '-t', target, 'u');
			await waitFor('u answered', () => /Undo this card alone\?|u: only a diff card/.test(screen(target)), 30_000, target);
			previewed = screen(target).includes('Undo this card alone?');
			if (!previewed) {
				tmux('send-keys', '-t', target, 'j');
				await waitFor('j answered', () => !screen(target).includes('u: only a diff card'), 30_000, target);
			}
		}

		expect(previewed).toBe(true);
		const preview = screen(target);
		expect(preview).toContain('Undo edit app.ts');
		expect(preview).toContain('undo this card? y/⏎ takes it back · n/Esc keeps it');
		expect(preview).toMatch(/TWO/);
		expect(readFileSync(join(project, 'app.ts'), 'utf8')).toBe('one\nTWO\nthree\n');

		tmux('send-keys', '-t', target, 'y');
		await shows('undid the edit of app.ts (that card alone): app.ts', target);
		expect(readFileSync(join(project, 'app.ts'), 'utf8')).toBe('one\ntwo\nthree\n');
		expect(readFileSync(join(project, 'lib.ts'), 'utf8')).toBe('A\n');
		// The undo card appears in the live pager as the log's newest card.
		tmux('send-keys', '-t', target, 'G');
		await shows('Undo edit app.ts', target);
		tmux('send-keys', '-t', target, 'q');
		await shows('type !command', target);
		tmux('send-keys', '-t', target, 'C-d');
		await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', target, '#{pane_dead}').trim() === '1', 30_000, target);

		const [id] = readdirSync(sessions).filter(name => !name.startsWith('.'));
		const log = join(sessions, id!, 'session.jsonl');
		expect(existsSync(log)).toBe(true);
		const events = readFileSync(log, 'utf8').trimEnd().split('\n').map(line => JSON.parse(line) as {type: string; data?: {name?: string; arguments?: unknown}});
		const undoCalls = events.filter(event => event.type === 'tool/call' && event.data?.name === 'cardterm_undo');
		expect(undoCalls).toHaveLength(1);
		expect(JSON.stringify(undoCalls[0]!.data!.arguments)).toContain('app.ts');

		const replay = cardtermCommand({}, 'replay', log).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'pagerundo-replay', '-x', '120', '-y', '40', '-c', folder, replay);
		tmux('set-option', '-t', 'pagerundo-replay', 'remain-on-exit', 'on');
		await shows('? help · q quit', 'pagerundo-replay');
		await shows('Undo edit app.ts', 'pagerundo-replay');
		tmux('send-keys', '-t', 'pagerundo-replay', 'u');
		await shows('u: this pager is read-only', 'pagerundo-replay');
		expect(readFileSync(join(project, 'app.ts'), 'utf8')).toBe('one\ntwo\nthree\n');
		tmux('send-keys', '-t', 'pagerundo-replay', 'q');
	}, 180_000);
});
