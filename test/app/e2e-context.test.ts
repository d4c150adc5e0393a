/**
The model's window in the real `bin/cardterm`, in tmux, against the fake model server, with a window
from the config (`context.windows`): the status line's meter, `/context`'s breakdown, and `/compact`
making a compaction card in the scrollback, and Ctrl+O's pager showing what the model knew; the saved
log replays to the same card.
*/
import {execFileSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {buildDist, cardterm, cardtermCommand, killTmuxServer, screen, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

describe.skipIf(tmuxMissing)('the model\'s window in tmux (skipped when tmux is not installed)', () => {
	let folder = '';
	let server: FakeModelServer | undefined;

	beforeAll(async () => {
		buildDist();
		folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-context-'));
		writeFileSync(join(folder, 'big.txt'), Array.from({length: 300}, (_, line) => `row ${line} of the big file`).join('\n'));
		mkdirSync(join(folder, 'config', 'cardterm'), {recursive: true});
		writeFileSync(join(folder, 'config', 'cardterm', 'config.json'), JSON.stringify({context: {windows: {'fake-model': 40_000}, compaction: false}}));
		const read = (id: string) => ({toolCalls: [{id, name: 'read', args: '{"file_path":"big.txt"}'}], usage: {prompt_tokens: 9000, completion_tokens: 10}});
		server = await startFakeModelServer({script: [read('r1'), {text: 'Read it.'}, read('r2'), {text: 'Read it again.'}, {text: '## Goal\nRead big.txt twice.\n## Next steps\nNone.'}]});
	}, 300_000);

	afterAll(async () => {
		killTmuxServer();
		await server?.close();
		if (folder !== '') {
			rmSync(folder, {recursive: true, force: true});
		}
	});

	it('shows the meter, /context and a /compact card, and the log replays to the card', async () => {
		const sessions = join(folder, 'sessions');
		const command = cardtermCommand({CARDTERM_SESSION_DIR: sessions, OPENAI_API_KEY: 'test', XDG_CONFIG_HOME: join(folder, 'config')}, '--base-url', server!.url, '--model', 'fake-model').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'e2e', '-x', '160', '-y', '40', '-c', folder, command);
		tmux('set-option', '-t', 'e2e', 'remain-on-exit', 'on');
		await shows('openai-compatible:fake-model');
		tmux('send-keys', '-t', 'e2e', 'read big.txt', 'Enter');
		await shows('Read it.');
		tmux('send-keys', '-t', 'e2e', 'read it again', 'Enter');
		await shows('Read it again.');
		// The provider counted 9 000 tokens for the last request: the meter says so against the config's window.
		await waitFor('the meter', () => /\d+% · \d+k\/40k/.test(screen()));
		tmux('send-keys', '-t', 'e2e', '/context', 'Enter');
		await shows('window: 40k tokens (from the config); compaction is off');
		await shows('tool results');
		tmux('send-keys', '-t', 'e2e', '/compact the big file', 'Enter');
		await shows('⊙ compacted the context (/compact)');
		await shows('compacted: ');
		expect(screen()).toContain('focus: the big file');
		// Ctrl+O: the live pager shows what the model knew — the tokens a step sent as the provider
		// reported them, and (at the newest entry) the second prompt and its read summarised away.
		tmux('send-keys', '-t', 'e2e', 'C-o');
		await shows('▸ turn 2 · step 1 sent 9 000 tokens');
		await waitFor('the gutter on the summarised prompt', () => /^│ › read it again/m.test(screen()) && /^│ ● read big\.txt/m.test(screen()));
		tmux('send-keys', '-t', 'e2e', 'q');
		await waitFor('the pager to close', () => !screen().includes('▸ turn 2'));
		tmux('send-keys', '-t', 'e2e', 'C-d');
		await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', 'e2e', '#{pane_dead}').trim() === '1');

		const [id] = readdirSync(sessions).filter(name => !name.startsWith('.'));
		const replay = execFileSync(process.execPath, [cardterm, 'replay', join(sessions, id!, 'session.jsonl'), '--json'], {encoding: 'utf8'});
		const entries = replay.trim().split('\n').map(line => JSON.parse(line) as {entry: string; trigger?: string; focus?: string; summary?: string});
		const card = entries.find(entry => entry.entry === 'compaction');
		expect(card).toMatchObject({trigger: 'manual', focus: 'the big file', summary: '## Goal\nRead big.txt twice.\n## Next steps\nNone.'});
	}, 120_000);
});
