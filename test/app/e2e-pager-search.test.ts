/**
The pager's search in the real `bin/cardterm`, driven in tmux: `cardterm replay LOG` opens on the
newest entry, so the first `/` search has nothing below it and goes round the end to the match above
(issue 16, first day, item 14: it said `no later match`).
Needs tmux (CI installs it) and a built dist/ (rebuilt here when older than the sources).
*/
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildDist, cardtermCommand, killTmuxServer, repo, screen, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

describe.skipIf(tmuxMissing)('the pager\'s search in tmux (skipped when tmux is not installed)', () => {
	let folder = '';

	beforeAll(() => {
		buildDist();
		folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-search-'));
	}, 300_000);

	afterAll(() => {
		killTmuxServer();
		if (folder !== '') {
			rmSync(folder, {recursive: true, force: true});
		}
	});

	it('replay: / from the newest entry finds the match above it, says the search wrapped, and n goes round too', async () => {
		const log = join(repo, 'test/fixtures/logs/basic.jsonl');
		const command = cardtermCommand({}, 'replay', log).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'search', '-x', '120', '-y', '20', '-c', folder, command);
		tmux('set-option', '-t', 'search', 'remain-on-exit', 'on');
		await shows('? help · q quit', 'search');
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
});
