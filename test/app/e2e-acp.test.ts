/**
`cardterm acp -- node fake-agent.mjs` driven in tmux as a person would: a turn with every card kind,
a permission dialog answered, a turn cancelled with Ctrl+C (and one cancelled before the agent said
anything), exit; then the saved log replays to the
same rows the live screen wrote. The ACP screen is the native session's: the terminal's colour depth,
motion, and the Ctrl+O pager's y and o. Needs tmux and a built dist/ (rebuilt here when older than
the sources).
*/
import {execFileSync} from 'node:child_process';
import {chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildDist, cardterm, cardtermCommand, killTmuxServer, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

const fakeAgent = fileURLToPath(new URL('../acp/fake-agent.mjs', import.meta.url));
const target = 'acp';
const pane = (): string => tmux('capture-pane', '-p', '-t', target, '-S', '-500');
const sees = async (text: string): Promise<void> => shows(text, target);
/** What tmux's clipboard holds (OSC 52 copies land there); empty before the first copy. */
const buffer = (): string => {
	try {
		return tmux('show-buffer');
	} catch {
		return '';
	}
};

describe.skipIf(tmuxMissing)('cardterm acp in tmux (skipped when tmux is not installed)', () => {
	let folder = '';

	beforeAll(() => {
		buildDist();
		folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-acp-'));
		writeFileSync(join(folder, 'notes.md'), '# Notes\n- DEBUG is on\n');
		writeFileSync(join(folder, 'config.ts'), 'export const DEBUG = true;\nexport const level = "info";\n');
	}, 300_000);

	afterAll(() => {
		killTmuxServer();
		if (folder !== '') {
			rmSync(folder, {recursive: true, force: true});
		}
	});

	it('runs a turn with every card kind, a permission dialog and a cancel; the log replays to the same rows', async () => {
		const sessions = join(folder, 'sessions');
		// Reduced motion: a running card keeps its ○ (the next test shows it turning).
		const command = cardtermCommand({CARDTERM_SESSION_DIR: sessions, CARDTERM_REDUCED_MOTION: '1'}, 'acp', '--', process.execPath, fakeAgent).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', target, '-x', '100', '-y', '40', '-c', folder, command);
		tmux('set-option', '-t', target, 'remain-on-exit', 'on');
		tmux('set-option', '-t', target, 'history-limit', '5000');

		await sees('message the agent');
		tmux('send-keys', '-t', target, 'tour', 'Enter');
		await sees('Done: DEBUG is off.');
		await sees('── completed');
		tmux('send-keys', '-t', target, 'permission', 'Enter');
		await sees('? Allow rm -rf build');
		// Enter confirms the marked first choice: the agent's allow-once.
		tmux('send-keys', '-t', target, 'Enter');
		await sees('Permission: proceed_once.');
		// Every option kind the agent sent is a choice of its own; the fourth is reject always.
		tmux('send-keys', '-t', target, 'permission-all', 'Enter');
		await sees('  reject always (Never allow)');
		tmux('send-keys', '-t', target, 'Down', 'Down', 'Down');
		await sees('❯ reject always (Never allow)');
		tmux('send-keys', '-t', target, 'Enter');
		await sees('Permission: never.');
		tmux('send-keys', '-t', target, 'slow', 'Enter');
		await sees('○ execute sleep');
		tmux('send-keys', '-t', target, 'C-c');
		await sees('── cancelled by you');
		// An agent that says nothing before the cancel (Gemini CLI thinking): the status line says the
		// turn runs, and the cancelled turn ends with its rule as any other.
		tmux('send-keys', '-t', target, 'silent', 'Enter');
		await waitFor('the silent turn to run', () => /^Esc to cancel · working \d+s · mode /mu.test(tmux('capture-pane', '-p', '-t', target)), 30_000, target);
		tmux('send-keys', '-t', target, 'C-c');
		await waitFor('a second turn rule', () => pane().split('── cancelled by you').length - 1 === 2, 30_000, target);
		tmux('send-keys', '-t', target, 'C-d');
		await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', target, '#{pane_dead}').trim() === '1', 30_000, target);

		const live = pane();
		const [id] = readdirSync(sessions).filter(name => !name.startsWith('.'));
		const log = join(sessions, id!, 'session.jsonl');
		expect(live).toContain(`session saved: ${log}`);
		const replay = execFileSync(process.execPath, [cardterm, 'replay', '--print', '--no-color', '--width', '100', log], {encoding: 'utf8', cwd: folder});
		// Every row the replay prints is on the live screen, in the same order (the live screen adds
		// its own lines between them: the prompt, "cancelling…").
		const rows = replay.split('\n').map(row => row.trimEnd()).filter(row => row !== '');
		expect(rows.length).toBeGreaterThan(40);
		const liveRows = live.split('\n').map(row => row.trimEnd());
		let at = 0;
		const missing: string[] = [];
		for (const row of rows) {
			const found = liveRows.indexOf(row, at);
			if (found === -1) {
				missing.push(row);
			} else {
				at = found + 1;
			}
		}

		expect(missing).toEqual([]);
		// Headed by the call's kind, not the name it is recorded under (acp_read…).
		for (const kind of ['● read notes.md', '● edit config.ts', '$ printf "one\\ntwo\\n"', '[exit 2]', '✗ search TODO', 'todo · 1 of 3 done', 'mode: code']) {
			expect(replay).toContain(kind);
		}
	}, 180_000);

	it('draws as the native session does: at the terminal\'s colour depth, with motion, and Ctrl+O\'s pager copies (y) and opens (o)', async () => {
		const editor = join(folder, 'editor.sh');
		writeFileSync(editor, `#!/bin/sh\nprintf '%s\\n' "$@" >> ${shellWord(join(folder, 'editor-args'))}\n`);
		chmodSync(editor, 0o755);
		// TERM=xterm-256color and no COLORTERM: the 256-colour palette (the screen drew the 16 colours only).
		const command = cardtermCommand({CARDTERM_SESSION_DIR: join(folder, 'sessions-2'), EDITOR: editor}, 'acp', '--', process.execPath, fakeAgent).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'acp2', '-x', '100', '-y', '40', '-c', folder, command);
		tmux('set-option', '-t', 'acp2', 'remain-on-exit', 'on');
		tmux('set-option', '-s', 'set-clipboard', 'on');
		const shown = async (text: string): Promise<void> => shows(text, 'acp2');
		await shown('message the agent');
		tmux('send-keys', '-t', 'acp2', 'colours', 'Enter');
		await shown('● read notes.md');
		const styled = tmux('capture-pane', '-p', '-e', '-t', 'acp2', '-S', '-200');
		const orange = styled.split('\n').find(row => row.includes('orange'));
		// The palette's orange as it is, the 24-bit pink as its nearest palette colour (198).
		expect(orange).toContain('38;5;208m');
		expect(orange).toContain('38;5;198m');

		// Motion: a running card's glyph turns (reduced motion keeps its ○, the first test).
		tmux('send-keys', '-t', 'acp2', 'slow', 'Enter');
		await waitFor('a turning spinner', () => /[◐◓◑◒] execute sleep/u.test(tmux('capture-pane', '-p', '-t', 'acp2')), 30_000, 'acp2');
		tmux('send-keys', '-t', 'acp2', 'C-c');
		await shown('── cancelled by you');

		// Ctrl+O's pager: from the first entry to the read card; y copies it, o opens its file.
		tmux('send-keys', '-t', 'acp2', 'C-o');
		await shown('? help · q quit');
		tmux('send-keys', '-t', 'acp2', 'g');
		tmux('send-keys', '-t', 'acp2', '/', 'Read notes', 'Enter');
		await shown('match 1/');
		tmux('send-keys', '-t', 'acp2', 'y');
		await waitFor('the copy', () => buffer().includes('DEBUG is on'), 30_000, 'acp2');
		expect(tmux('capture-pane', '-p', '-t', 'acp2')).not.toContain('not available');
		tmux('send-keys', '-t', 'acp2', 'o');
		await waitFor('the editor stand-in to run', () => existsSync(join(folder, 'editor-args')), 30_000, 'acp2');
		expect(readFileSync(join(folder, 'editor-args'), 'utf8')).toContain(join(folder, 'notes.md'));
		tmux('send-keys', '-t', 'acp2', 'q');
		await shown('message the agent');
		tmux('send-keys', '-t', 'acp2', 'C-d');
		await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', 'acp2', '#{pane_dead}').trim() === '1', 30_000, 'acp2');
	}, 180_000);
});
