/**
The real `bin/cardterm` as an agent, in tmux, against the fake model server: a prompt goes to the
model, its read runs, its write waits for the approval dialog — text typed meanwhile stays in the
prompt and answers nothing, Enter on the emptied prompt allows it once — the answer streams in, the
turn ends; Ctrl+D exits and the saved log replays to the same cards. And a provider that fails: an
overload inside the stream is retried with its message, a long Retry-After is counted down until Esc. A long answer is
in the scrollback whole.
*/
import {execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {LONG_ANSWER_FINDINGS, LONG_ANSWER_LAST, longAnswer} from '../fixtures/long-answer.mjs';
import {buildDist, cardterm, cardtermCommand, killTmuxServer, screen, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

describe.skipIf(tmuxMissing)('cardterm as an agent in tmux (skipped when tmux is not installed)', () => {
	let folder = '';
	let server: FakeModelServer | undefined;

	beforeAll(async () => {
		buildDist();
		folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-agent-'));
		writeFileSync(join(folder, 'hello.txt'), 'hello world\n');
		server = await startFakeModelServer({script: [
			{reasoning: 'The person wants the file.', toolCalls: [{id: 'r', name: 'read', args: '{"file_path":"hello.txt"}'}]},
			{toolCalls: [{id: 'w', name: 'write', args: '{"file_path":"out.txt","content":"copied\\n"}'}]},
			{text: ['The file says ', '**hello world**; ', 'I wrote out.txt.'], chunkDelayMs: 20},
			{text: ['Still here after the resume.']},
		]});
	}, 300_000);

	afterAll(async () => {
		killTmuxServer();
		await server?.close();
		if (folder !== '') {
			rmSync(folder, {recursive: true, force: true});
		}
	});

	it('answers a prompt through tool calls, asks before the write, and the log replays to the same cards', async () => {
		const sessions = join(folder, 'sessions');
		const command = cardtermCommand({CARDTERM_SESSION_DIR: sessions, OPENAI_API_KEY: 'test'}, '--base-url', server!.url, '--model', 'fake-model').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'e2e', '-x', '100', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', 'e2e', 'remain-on-exit', 'on');
		await shows('openai-compatible:fake-model');
		tmux('send-keys', '-t', 'e2e', 'copy hello.txt to out.txt', 'Enter');
		await shows('● read hello.txt');
		await shows('asks before write');
		// Typed ahead while the write waits, the old answer keys among the letters: they stay text in the prompt.
		tmux('send-keys', '-t', 'e2e', '-l', 'hello sam, yes and no');
		await shows('> hello sam, yes and no');
		await new Promise(resolve => {
			setTimeout(resolve, 500);
		});
		expect(screen()).toContain('? Allow write');
		expect(existsSync(join(folder, 'out.txt'))).toBe(false);
		// Only a deliberate choice answers: the prompt emptied, Enter confirms the marked "Yes, once".
		tmux('send-keys', '-t', 'e2e', 'C-u');
		await shows('Enter answers the question above');
		tmux('send-keys', '-t', 'e2e', 'Enter');
		await shows('I wrote out.txt.');
		await shows('── completed');
		expect(readFileSync(join(folder, 'out.txt'), 'utf8')).toBe('copied\n');
		tmux('send-keys', '-t', 'e2e', 'C-d');
		await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', 'e2e', '#{pane_dead}').trim() === '1');

		const [id] = readdirSync(sessions).filter(name => !name.startsWith('.'));
		const replay = execFileSync(process.execPath, [cardterm, 'replay', join(sessions, id!, 'session.jsonl'), '--json'], {encoding: 'utf8'});
		const entries = replay.trim().split('\n').map(line => JSON.parse(line) as {entry: string; name?: string; status?: string; approvalWaitMs?: number});
		expect(entries.map(entry => entry.entry === 'card' ? `${entry.name} ${entry.status}` : entry.entry)).toEqual(['user', 'assistant', 'read ok', 'write ok', 'assistant', 'turn']);
		// The write's wait for the person is its own figure, apart from its run time.
		expect(entries.find(entry => entry.name === 'write')?.approvalWaitMs).toBeGreaterThanOrEqual(500);
		const log = readFileSync(join(sessions, id!, 'session.jsonl'), 'utf8');
		expect(log.split('\n').filter(line => line.includes('"approval/decided"')).map(line => (JSON.parse(line) as {data: {outcome: string}}).data.outcome)).toEqual(['allowed-once']);
		expect(server!.requests).toHaveLength(3);
	}, 120_000);

	// The history is written before Ink loads (live-session.ts), and the second first frame holds the keys meanwhile.
	it('--continue shows the saved session once, above a live prompt that takes the next turn', async () => {
		const sessions = join(folder, 'sessions');
		const command = cardtermCommand({CARDTERM_SESSION_DIR: sessions, OPENAI_API_KEY: 'test'}, '--base-url', server!.url, '--model', 'fake-model', '--continue').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'resumed', '-x', '100', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', 'resumed', 'remain-on-exit', 'on');
		await shows('I wrote out.txt.', 'resumed');
		tmux('send-keys', '-t', 'resumed', 'go on', 'Enter');
		await shows('Still here after the resume.', 'resumed');
		const rows = screen('resumed').split('\n');
		const index = (text: string): number => rows.findIndex(row => row.includes(text));
		const count = (text: string): number => rows.filter(row => row.includes(text)).length;
		// Each entry of the history once, in the log's order, under the line naming the session; the new turn after it.
		expect([count('cardterm: continuing session'), count('copy hello.txt to out.txt'), count('● read hello.txt'), count('I wrote out.txt.')]).toEqual([1, 1, 1, 1]);
		const order = ['cardterm: continuing session', 'copy hello.txt to out.txt', '● read hello.txt', 'I wrote out.txt.', 'go on', 'Still here after the resume.'].map(text => index(text));
		expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!)), `rows ${order.join(', ')} of:\n${rows.join('\n')}`).toBe(true);
		tmux('send-keys', '-t', 'resumed', 'C-d');
		await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', 'resumed', '#{pane_dead}').trim() === '1', 30_000, 'resumed');
		expect(server!.requests).toHaveLength(4);
	}, 120_000);

	it('retries an overload inside the stream with the provider\'s message, and counts a long Retry-After down until Esc', async () => {
		server!.push(
			// Anthropic's overload, as an OpenAI-compatible gateway passes it on inside the stream.
			{text: ['Part', 'ial'], streamError: {afterChunks: 2, error: {type: 'overloaded_error', message: 'Overloaded'}}},
			{text: 'The whole answer.'},
			{status: 503, error: 'down for maintenance', retryAfter: 300},
			{text: 'never sent'},
		);
		const asked = server!.received;
		const command = cardtermCommand({CARDTERM_SESSION_DIR: join(folder, 'faults'), OPENAI_API_KEY: 'test'}, '--base-url', server!.url, '--model', 'fake-model').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'faults', '-x', '150', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', 'faults', 'remain-on-exit', 'on');
		await shows('openai-compatible:fake-model', 'faults');
		tmux('send-keys', '-t', 'faults', 'hello', 'Enter');
		await shows('retrying the model (attempt 2): Overloaded (overloaded_error)', 'faults');
		await shows('The whole answer.', 'faults');
		await shows('── completed', 'faults');
		expect(screen('faults')).not.toContain('[object Object]');

		tmux('send-keys', '-t', 'faults', 'again', 'Enter');
		await shows('waiting 300s as the provider asks', 'faults');
		await shows('retrying in 4m 5', 'faults');
		tmux('send-keys', '-t', 'faults', 'Escape');
		await shows('── cancelled by you', 'faults');
		expect(screen('faults')).not.toContain('never sent');
		expect(server!.received - asked).toBe(3);
		tmux('send-keys', '-t', 'faults', 'C-d');
	}, 120_000);

	it('shows a long answer whole in the scrollback, its "Next steps" included (issue 16 item 1: it ended behind "… N more lines")', async () => {
		const long = await startFakeModelServer({script: [{text: longAnswer().split(/(?<=\n)/), chunkDelayMs: 5}]});
		try {
			const command = cardtermCommand({CARDTERM_SESSION_DIR: join(folder, 'long-sessions'), OPENAI_API_KEY: 'test'}, '--base-url', long.url, '--model', 'fake-model').map(word => shellWord(word)).join(' ');
			tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'long', '-x', '100', '-y', '30', '-c', folder, command);
			tmux('set-option', '-t', 'long', 'remain-on-exit', 'on');
			await shows('openai-compatible:fake-model', 'long');
			tmux('send-keys', '-t', 'long', 'what did you find?', 'Enter');
			await shows('── completed', 'long');
			const pane = tmux('capture-pane', '-p', '-t', 'long', '-S', '-300');
			for (let index = 1; index <= LONG_ANSWER_FINDINGS; index++) {
				expect(pane).toContain(`Finding ${index}: src/module-${index}.ts still reads the old setting`);
			}

			expect(pane).toContain(LONG_ANSWER_LAST);
			expect(pane).not.toMatch(/more lines?/u);
			tmux('send-keys', '-t', 'long', 'C-d');
			await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', 'long', '#{pane_dead}').trim() === '1', 30_000, 'long');
		} finally {
			await long.close();
		}
	}, 120_000);
});
