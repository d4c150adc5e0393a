/**
`cardterm acp -- node fake-agent.mjs` driven in tmux as a person would: a turn with every card kind,
a permission dialog answered, a turn cancelled with Ctrl+C, exit; then the saved log replays to the
same rows the live screen wrote. Needs tmux and a built dist/ (rebuilt here when older than the sources).
*/
import {execFileSync} from 'node:child_process';
import {mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildDist, cardterm, cardtermCommand, killTmuxServer, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

const fakeAgent = fileURLToPath(new URL('../acp/fake-agent.mjs', import.meta.url));
const target = 'acp';
const pane = (): string => tmux('capture-pane', '-p', '-t', target, '-S', '-500');
const sees = async (text: string): Promise<void> => shows(text, target);

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
		const command = cardtermCommand({CARDTERM_SESSION_DIR: sessions}, 'acp', '--', process.execPath, fakeAgent).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', target, '-x', '100', '-y', '40', '-c', folder, command);
		tmux('set-option', '-t', target, 'remain-on-exit', 'on');
		tmux('set-option', '-t', target, 'history-limit', '5000');

		await sees('message the agent');
		tmux('send-keys', '-t', target, 'tour', 'Enter');
		await sees('Done: DEBUG is off.');
		await sees('── completed');
		tmux('send-keys', '-t', target, 'permission', 'Enter');
		await sees('? Allow rm -rf build');
		tmux('send-keys', '-t', target, 'a');
		await sees('Permission: proceed_once.');
		// Every option kind the agent sent has a key of its own; r is reject always.
		tmux('send-keys', '-t', target, 'permission-all', 'Enter');
		await sees('r reject always (Never allow)');
		tmux('send-keys', '-t', target, 'r');
		await sees('Permission: never.');
		tmux('send-keys', '-t', target, 'slow', 'Enter');
		await sees('○ execute sleep');
		tmux('send-keys', '-t', target, 'C-c');
		await sees('── cancelled by you');
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
});
