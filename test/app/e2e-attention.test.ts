/**
The window title in the real binary under tmux (issue 31): tmux keeps the pane's title from OSC 0
and has a title stack (XTWINOPS 22/23), so `#{pane_title}` shows what cardterm set while it runs
and the title from before it once it has exited.
*/
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {basename, join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildDist, cardtermCommand, killTmuxServer, reportingExit, shellWord, shownExit, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

let folder = '';

beforeAll(() => {
	buildDist();
	folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-attention-'));
}, 300_000);

afterAll(() => {
	if (!tmuxMissing) {
		killTmuxServer();
	}

	rmSync(folder, {recursive: true, force: true});
});

describe.skipIf(tmuxMissing)('the window title, in the real binary (skipped when tmux is not installed)', () => {
	it('shows the folder and the state while the session runs, and the title from before once it exits', async () => {
		const target = 'title';
		const command = cardtermCommand({CARDTERM_SESSION_DIR: join(folder, 'sessions'), XDG_CONFIG_HOME: join(folder, 'config')}).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', target, '-x', '100', '-y', '30', '-c', folder, `printf '\\033]2;before\\007'; ${reportingExit(command)}; sleep 600`);
		const title = (): string => tmux('display-message', '-p', '-t', target, '#{pane_title}').trim();
		const name = basename(folder);
		await waitFor('the title of the live screen', () => title() === `cardterm · ${name}`, 30_000, target);
		tmux('send-keys', '-t', target, '!echo one', 'Enter');
		await shows('● bash echo one', target);
		await waitFor('the title saying done', () => title() === `cardterm · ${name} · done`, 30_000, target);
		tmux('send-keys', '-t', target, 'C-d');
		expect(await shownExit(target)).toBe(0);
		expect(title()).toBe('before');
	}, 60_000);
});
