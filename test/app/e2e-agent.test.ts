/**
The real `bin/cardterm` as an agent, in tmux, against the fake model server: a prompt goes to the
model, its read runs, its write waits for the approval dialog — text typed meanwhile stays in the
prompt and answers nothing, Enter on the emptied prompt allows it once — the answer streams in, the
turn ends; Ctrl+D exits and the saved log replays to the same cards. And a provider that fails: an
overload inside the stream is retried with its message, a long Retry-After is counted down until Esc,
a conversation too long for the model ends the turn with the whole error, its HTTP status and what to
do next. A command of the model's cancelled with Esc keeps what it printed, on its card and for the
model. A background job that finishes between turns is told to the model as a note, before the
person's next prompt. Two commands asked for at once: the second shows as queued while the first runs.
A long answer is in the scrollback whole.
*/
import {execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {BODIES} from '../agent/provider-error-bodies.js';
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

	it('retries an overload inside the stream with the provider\'s message, counts a long Retry-After down until Esc, and shows an error whole with what to do', async () => {
		server!.push(
			// Anthropic's overload, as an OpenAI-compatible gateway passes it on inside the stream.
			{text: ['Part', 'ial'], streamError: {afterChunks: 2, error: {type: 'overloaded_error', message: 'Overloaded'}}},
			{text: 'The whole answer.'},
			{status: 503, error: 'down for maintenance', retryAfter: 300},
			// Not asked for by the cancelled wait: the next prompt gets it.
			{status: 400, errorBody: BODIES.openaiContext},
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
		expect(server!.received - asked).toBe(3);

		tmux('send-keys', '-t', 'faults', 'third', 'Enter');
		await shows('── error (HTTP 400)', 'faults');
		// The message whole (wrapped at the pane's 150 columns), then the advice, then the rule.
		const rows = screen('faults').split('\n').map(row => row.trimEnd());
		const first = rows.findIndex(row => row.startsWith('error (HTTP 400): This model\'s maximum context length is 4097 tokens.'));
		expect(first, screen('faults')).toBeGreaterThanOrEqual(0);
		expect(rows.slice(first, first + 4).join(' ')).toContain('Please reduce the length of the messages. (context_length_exceeded) Start a new session, or switch to a model with a larger context window');
		expect(screen('faults')).not.toContain('Pleas…');
		tmux('send-keys', '-t', 'faults', 'C-d');
	}, 120_000);

	it('a command the model ran, cancelled with Esc, keeps what it printed: on its card, and in what the model is sent next', async () => {
		server!.push(
			{toolCalls: [{id: 'slow', name: 'bash', args: JSON.stringify({command: 'echo step-one-done; sleep 30', description: 'Run the slow build'})}]},
			{text: 'It printed step-one-done before you stopped it.'},
		);
		const asked = server!.received;
		const command = cardtermCommand({CARDTERM_SESSION_DIR: join(folder, 'cancel'), OPENAI_API_KEY: 'test'}, '--base-url', server!.url, '--model', 'fake-model', '--yolo').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'cancel', '-x', '100', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', 'cancel', 'remain-on-exit', 'on');
		await shows('openai-compatible:fake-model', 'cancel');
		tmux('send-keys', '-t', 'cancel', 'build it', 'Enter');
		// The command's own output row (its title names the word too).
		await waitFor('the command\'s output', () => screen('cancel').split('\n').includes('step-one-done'), 30_000, 'cancel');
		tmux('send-keys', '-t', 'cancel', 'Escape');
		await shows('── cancelled by you', 'cancel');
		const rows = screen('cancel').split('\n');
		const header = rows.findIndex(row => row.startsWith('⊘ bash echo step-one-done; sleep 30'));
		expect(rows.slice(header + 1, header + 5), screen('cancel')).toEqual(['Run the slow build', '$ echo step-one-done; sleep 30', 'step-one-done', '[cancelled]']);
		tmux('send-keys', '-t', 'cancel', 'what did it print?', 'Enter');
		await shows('It printed step-one-done before you stopped it.', 'cancel');
		const told = server!.requests.at(-1)!.body.messages.find(message => message.role === 'tool');
		expect(told?.content).toBe('Error: tool call aborted\n\nstep-one-done\n[cancelled: stopped before it finished]');
		expect(server!.received - asked).toBe(2);
		tmux('send-keys', '-t', 'cancel', 'C-d');
	}, 120_000);

	it('a background job that finished between turns reaches the model as a note before the person\'s next prompt, not as the last word', async () => {
		server!.push(
			{toolCalls: [{id: 'bg', name: 'bash', args: JSON.stringify({command: 'echo built', description: 'Build in the background', run_in_background: true})}]},
			{text: 'The build runs in the background.'},
			{text: 'The README says hello.'},
		);
		const command = cardtermCommand({CARDTERM_SESSION_DIR: join(folder, 'jobs'), OPENAI_API_KEY: 'test'}, '--base-url', server!.url, '--model', 'fake-model', '--yolo').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'jobs', '-x', '100', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', 'jobs', 'remain-on-exit', 'on');
		await shows('openai-compatible:fake-model', 'jobs');
		tmux('send-keys', '-t', 'jobs', 'build in the background', 'Enter');
		await shows('The build runs in the background.', 'jobs');
		// `echo built` ends at once; give its notice a moment to reach the session's inbox.
		await new Promise(resolve => {
			setTimeout(resolve, 500);
		});
		tmux('send-keys', '-t', 'jobs', 'summarize the README', 'Enter');
		await shows('The README says hello.', 'jobs');
		const messages = server!.requests.at(-1)!.body.messages;
		expect(messages.at(-1)).toEqual({role: 'user', content: 'summarize the README'});
		expect(String(messages.at(-2)!.content)).toMatch(/^<system-reminder>\nA note from "jobs", not a message from the person: it is not a new request\.\n\nbackground job bash-1 \(bash: echo built\) finished/);
		tmux('send-keys', '-t', 'jobs', 'C-d');
	}, 120_000);

	it('two commands the model asks for at once run one after another, and the waiting one says it is queued', async () => {
		server!.push(
			{toolCalls: [
				{id: 'first', name: 'bash', args: JSON.stringify({command: 'sleep 2; echo first-done', description: 'Slow first'})},
				{id: 'second', name: 'bash', args: JSON.stringify({command: 'echo second-done', description: 'Then second'})},
			]},
			{text: 'Both ran.'},
		);
		const command = cardtermCommand({CARDTERM_SESSION_DIR: join(folder, 'queue'), OPENAI_API_KEY: 'test', CARDTERM_REDUCED_MOTION: '1'}, '--base-url', server!.url, '--model', 'fake-model', '--yolo').map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'queue', '-x', '120', '-y', '30', '-c', folder, command);
		tmux('set-option', '-t', 'queue', 'remain-on-exit', 'on');
		await shows('openai-compatible:fake-model', 'queue');
		tmux('send-keys', '-t', 'queue', 'run both', 'Enter');
		await shows('○ bash echo second-done · queued: runs after the calls before it', 'queue');
		expect(screen('queue')).toContain('○ bash sleep 2; echo first-done');
		// Written by the model, not being prepared: no `preparing bash…` row for it.
		expect(screen('queue')).not.toContain('preparing bash');
		await shows('Both ran.', 'queue');
		const transcript = screen('queue');
		expect(transcript).not.toContain('queued: runs after');
		expect(transcript.indexOf('● bash sleep 2; echo first-done')).toBeLessThan(transcript.indexOf('● bash echo second-done'));
		tmux('send-keys', '-t', 'queue', 'C-d');
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
