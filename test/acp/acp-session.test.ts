import {readFileSync} from 'node:fs';
import {readFile, stat} from 'node:fs/promises';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {AcpClient, AcpStartError, type PermissionQuestion} from '../../src/acp/acp-client.js';
import {EventLog} from '../../src/session/events/event-log.js';
import type {Card} from '../../src/presentation/card.js';
import {cardsOf, type TranscriptEntry} from '../../src/presentation/entry.js';
import {FAKE_AGENT, makeWorkspace, replayLog, startHarness, type Harness} from './acp-harness.js';

let harness: Harness | undefined;
afterEach(async () => {
	await harness?.dispose();
	harness = undefined;
});

const cardOf = (entries: readonly TranscriptEntry[], callId: string): Card => {
	const card = cardsOf(entries).find(each => each.callId === callId);
	expect(card, callId).toBeDefined();
	return card!;
};

const textOf = (entries: readonly TranscriptEntry[], kind: 'assistant' | 'user'): string[] => entries.flatMap(entry => entry.entry === kind ? [entry.text] : []);
const noticesOf = (entries: readonly TranscriptEntry[]): string[] => entries.flatMap(entry => entry.entry === 'notice' ? [entry.summary] : []);

describe('an ACP agent\'s compaction', () => {
	it('is asked for (the client advertises session.compaction) and shows as the compaction card, live and replayed', async () => {
		harness = await startHarness();
		expect(await harness.client.prompt('compact')).toEqual({stopReason: 'end_turn'});
		const live = [...harness.session.fold.entries];
		expect(live.map(entry => entry.entry)).toEqual(['user', 'compaction', 'assistant', 'turn']);
		expect(live[1]).toMatchObject({entry: 'compaction', trigger: 'fake-agent', summary: 'Kept: fix the config.'});
		await harness.close();
		expect((await replayLog(harness.logPath, harness.workspace)).fold.entries).toEqual(live);
	});
});

describe('an ACP agent\'s turn as events', () => {
	it('maps every update kind of a turn to entries, and the log folds back to the same entries', async () => {
		harness = await startHarness();
		const outcome = await harness.client.prompt('tour');
		expect(outcome).toEqual({stopReason: 'end_turn'});
		const live = [...harness.session.fold.entries];
		expect(live.map(entry => entry.entry === 'card' ? `card ${entry.card.callId} ${entry.card.status}` : entry.entry)).toEqual([
			'user', 'assistant', 'todo', 'notice',
			'card call_read ok', 'card call_edit ok', 'card call_new ok', 'card call_sh ok', 'card call_meta ok', 'card call_grep error',
			'notice', 'notice', 'assistant', 'turn',
		]);
		expect(textOf(live, 'user')).toEqual(['tour']);
		const [first, last] = live.filter(entry => entry.entry === 'assistant');
		expect(first).toMatchObject({text: 'Looking at the **project**.', reasoning: 'Thinking about the plan.', step: 1});
		expect(last).toMatchObject({text: 'Done: DEBUG is off.', step: 2});
		expect(live.find(entry => entry.entry === 'todo')).toMatchObject({items: [
			{content: 'Read the notes', status: 'completed'}, {content: 'Fix the config', status: 'in_progress'}, {content: 'Run the tests', status: 'pending'},
		]});
		expect(noticesOf(live)).toEqual(['mode: code', 'Tour of the project', 'skipped a session/update of unknown kind "future_update"']);
		expect(live.at(-1)).toMatchObject({entry: 'turn', outcome: {text: 'completed', failed: false}});

		// A partial update keeps what came before: the read was pending with `{}`, its title stays.
		const read = cardOf(live, 'call_read');
		expect(read.callView).toMatchObject({card: 'generic', title: 'Read notes.md', kind: 'read'});
		expect(read.resultView).toEqual({card: 'generic', content: [{type: 'text', text: '# Notes\n- DEBUG is on\n'}]});
		// Diff content is the diff card, on both sides; an edit completed with only its status keeps its diff.
		const edit = cardOf(live, 'call_edit');
		expect(edit.callView.card).toBe('diff');
		expect(edit.resultView).toEqual({card: 'diff', diffs: [{path: path.join(harness.workspace, 'config.ts'), oldText: 'export const DEBUG = true;\nexport const level = "info";\n', newText: 'export const DEBUG = false;\nexport const level = "info";\n'}]});
		expect(cardOf(live, 'call_new').resultView).toEqual({card: 'diff', diffs: [{path: 'hello.txt', oldText: null, newText: 'hello\n'}]});
		// A terminal the client ran: the terminal card, with the output and exit of our own terminal.
		const shell = cardOf(live, 'call_sh');
		expect(shell.callView).toEqual({card: 'terminal', title: 'printf "one\\ntwo\\n"', description: 'printf one two'});
		expect(shell.resultView).toEqual({card: 'terminal', output: 'one\ntwo\n', exitCode: 0});
		// Output only in Zed's _meta extension, for a terminal the client never created.
		expect(cardOf(live, 'call_meta').resultView).toEqual({card: 'terminal', output: 'a.txt\nb.txt\n', exitCode: 2});
		const grep = cardOf(live, 'call_grep');
		expect(grep.result).toMatchObject({isError: true, content: [{type: 'text', text: 'rg: not found'}]});

		await harness.close();
		const replay = await replayLog(harness.logPath, harness.workspace);
		expect(replay.diagnostics).toEqual([]);
		expect(replay.fold.entries).toEqual(live);
	});

	it('records the ignorable extension events a view may use: commands, usage, the agent\'s session', async () => {
		harness = await startHarness();
		await harness.client.prompt('tour');
		const byType = (type: string) => harness!.events.filter(event => event.type === type);
		expect(byType('acp/commands').map(event => event.data)).toEqual([{commands: [{name: 'review', description: 'Review the changes'}, {name: 'test', description: 'Run the tests', hint: 'filter'}]}]);
		expect(byType('acp/usage').map(event => event.data)).toEqual([{used: 1200, size: 200_000, cost: {amount: 0.01, currency: 'USD'}}]);
		expect(byType('acp/usage').every(event => event.ignorable === true)).toBe(true);
		expect(harness.events.find(event => event.type === 'assistant/message')?.data).toMatchObject({message: {source: {kind: 'model', provider: 'acp', model: 'fake-agent'}}});
		expect(harness.client.facts).toMatchObject({name: 'fake-agent', sessionId: 'fake-1', canLoad: false, modes: {current: 'ask', available: ['ask', 'code']}});
		// Live output of our terminal reached the running card, all of it once (before or after the card named the terminal).
		const shown = byType('cardterm/tool-progress').map(event => event.data as {callId: string; text: string}).filter(data => data.callId === 'call_sh');
		expect(shown.map(data => data.text).join('')).toBe('one\ntwo\n');
	});
});

describe('permission requests', () => {
	it('shows the agent\'s options, answers by the chosen option, and records the decision by its kind', async () => {
		const asked: PermissionQuestion[] = [];
		harness = await startHarness({approve: async question => {
			asked.push(question);
			return question.options.find(option => option.kind === 'allow_always')?.optionId;
		}});
		await harness.client.prompt('permission');
		expect(asked.map(question => [question.callId, question.title, question.options.map(option => `${option.optionId}:${option.kind}`)])).toEqual([
			['call_rm', 'rm -rf build', ['proceed_once:allow_once', 'proceed_always:allow_always', 'abort:reject_once']],
		]);
		const entries = harness.session.fold.entries;
		// The call first appeared inside the request: its card exists, approved, and settled by the agent.
		const card = cardOf(entries, 'call_rm');
		expect(card.status).toBe('ok');
		expect(card.approval).toMatchObject({state: 'decided', outcome: 'allowed-always'});
		expect(textOf(entries, 'assistant')).toEqual(['Permission: proceed_always.']);
		const types = harness.events.map(event => event.type);
		expect(types.indexOf('tool/call')).toBeLessThan(types.indexOf('approval/asked'));
		expect(types.indexOf('approval/decided')).toBeLessThan(types.indexOf('tool/result'));
	});

	it('a rejection fails the call; an answer that names no offered option is a cancelled request', async () => {
		harness = await startHarness({approve: async question => question.options.find(option => option.kind === 'reject_once')?.optionId});
		await harness.client.prompt('permission');
		expect(cardOf(harness.session.fold.entries, 'call_rm')).toMatchObject({status: 'error', approval: {outcome: 'rejected'}});
		await harness.dispose();
		harness = await startHarness({approve: async () => 'not-an-option'});
		await harness.client.prompt('permission');
		expect(cardOf(harness.session.fold.entries, 'call_rm').approval).toMatchObject({outcome: 'cancelled'});
		expect(textOf(harness.session.fold.entries, 'assistant')).toEqual(['Permission: cancelled.']);
	});

	it('a cancel answers a pending permission request `cancelled`', async () => {
		let release: (() => void) | undefined;
		const waiting = new Promise<void>(resolve => {
			release = resolve;
		});
		harness = await startHarness({approve: async question => {
			release!();
			await new Promise(resolve => {
				question.signal.addEventListener('abort', resolve);
			});
			return question.options[0]!.optionId;
		}});
		const turn = harness.client.prompt('permission');
		await waiting;
		harness.client.cancel();
		await turn;
		expect(cardOf(harness.session.fold.entries, 'call_rm').approval).toMatchObject({outcome: 'cancelled'});
	});
});

describe('client methods', () => {
	it('reads a window of a file, writes a new one as a diff card, and refuses a path outside the workspace', async () => {
		harness = await startHarness();
		await harness.client.prompt('fs');
		expect(textOf(harness.session.fold.entries, 'assistant')).toEqual(['Line 2: "- DEBUG is on"; outside: error -32602.']);
		expect(await readFile(path.join(harness.workspace, 'out', 'new.txt'), 'utf8')).toBe('fresh\n');
		const write = cardsOf(harness.session.fold.entries).find(card => card.name === 'write');
		expect(write).toMatchObject({status: 'ok', resultView: {card: 'diff', diffs: [{oldText: null, newText: 'fresh\n'}]}});
		await harness.close();
		expect((await replayLog(harness.logPath, harness.workspace)).fold.entries).toEqual(harness.session.fold.entries);
	});

	it('runs a terminal\'s command with its env, keeps its output, kills it, and forgets it on release', async () => {
		harness = await startHarness();
		await harness.client.prompt('terminal');
		const [said] = textOf(harness.session.fold.entries, 'assistant');
		expect(said).toContain('output "started\\nfrom-env\\n"');
		expect(said).toContain('exit {"exitCode":null,"signal":"SIGTERM"}');
		expect(said).toContain('after release error -32602');
		expect(cardOf(harness.session.fold.entries, 'call_long').resultView).toEqual({card: 'terminal', output: 'started\nfrom-env\n', signal: 'SIGTERM'});
	});
});

describe('cancellation and failures', () => {
	it('a cancel ends the turn as the agent answers it; its running call is cancelled', async () => {
		harness = await startHarness();
		const turn = harness.client.prompt('slow');
		await waitFor(() => harness!.events.some(event => event.type === 'tool/call'));
		harness.client.cancel();
		expect(await turn).toEqual({stopReason: 'cancelled'});
		const entries = harness.session.fold.entries;
		expect(cardOf(entries, 'call_slow').status).toBe('cancelled');
		expect(entries.at(-1)).toMatchObject({entry: 'turn', outcome: {text: 'cancelled by you'}});
		// The session goes on.
		expect(await harness.client.prompt('hello')).toEqual({stopReason: 'end_turn'});
	});

	it('an agent that never answers: the cancel ends the turn here after the grace', async () => {
		harness = await startHarness({cancelGraceMs: 50});
		const turn = harness.client.prompt('deaf');
		await waitFor(() => harness!.events.some(event => event.type === 'assistant/chunk'));
		harness.client.cancel();
		expect(await turn).toEqual({stopReason: 'cancelled'});
		expect(noticesOf(harness.session.fold.entries)).toContain('the agent did not answer the cancel in time; the turn was ended here');
	});

	it('Ctrl+C while the agent has not answered session/new stops the agent, and the start fails saying so', async () => {
		const {workspace, dispose} = await makeWorkspace();
		try {
			const abort = new AbortController();
			// The abort comes once session/new is on its way (no timing: the trace says when).
			const trace = {
				frame(direction: string, line: string) {
					if (direction === 'out' && line.includes('"session/new"')) {
						abort.abort();
					}
				},
				async close() {},
			};
			const start = AcpClient.start({command: process.execPath, args: [FAKE_AGENT, '--hang-new'], cwd: workspace, log: new EventLog(), approve: async () => undefined, trace, signal: abort.signal});
			const error = await start.then(() => undefined, (error: unknown) => error);
			expect(error).toBeInstanceOf(Error);
			expect((error as Error).message).toMatch(/^the agent was killed by SIG(TERM|KILL) during session\/new/);
		} finally {
			await dispose();
		}
	});

	it('the agent crashes mid-turn: its exit code and stderr tail are shown, the turn fails, the log is whole', async () => {
		harness = await startHarness();
		const outcome = await harness.client.prompt('crash');
		expect(outcome).toEqual({error: 'the agent exited with code 3 during session/prompt'});
		const entries = harness.session.fold.entries;
		const notice = entries.find(entry => entry.entry === 'notice');
		expect(notice).toMatchObject({summary: 'the agent exited with code 3; its stderr ended with:', detail: expect.stringContaining('fatal: the fake agent crashed on purpose')});
		expect(cardOf(entries, 'call_doomed').status).toBe('interrupted');
		expect(entries.at(-1)).toMatchObject({entry: 'turn', outcome: {text: 'error: the agent exited with code 3 during session/prompt', failed: true}});
		// Another prompt fails at once, and says why.
		expect(await harness.client.prompt('again')).toEqual({error: 'the agent exited with code 3'});
		await harness.close();
		const replay = await replayLog(harness.logPath, harness.workspace);
		expect(replay.diagnostics).toEqual([]);
		expect(replay.fold.entries).toEqual(harness.session.fold.entries);
	});

	it('frames that are not JSON-RPC, and a response to nothing, are named and skipped; the session goes on', async () => {
		harness = await startHarness();
		expect(await harness.client.prompt('malformed')).toEqual({stopReason: 'end_turn'});
		const entries = harness.session.fold.entries;
		expect(noticesOf(entries)).toEqual([
			'skipped a frame from the agent that is not JSON: this is not json',
			'skipped a frame from the agent that is a JSON-RPC batch (ACP has none): [1,2]',
			'skipped a frame from the agent that is neither a request, a notification nor a response: {"no":"jsonrpc"}',
			'skipped a frame from the agent that is a response to no request the client sent: {"jsonrpc":"2.0","id":"never-asked","result":{}}',
		]);
		expect(textOf(entries, 'assistant')).toEqual(['Still here.']);
	});

	it('the second Ctrl+C kills the agent\'s process tree, a grandchild that left its group included', async () => {
		harness = await startHarness();
		const turn = harness.client.prompt('deaf');
		await waitFor(() => harness!.events.some(event => event.type === 'assistant/chunk'));
		const said = harness.events.find(event => event.type === 'assistant/chunk' && JSON.stringify(event.data).includes('child '));
		const grandchild = Number(/child (\d+)/.exec(JSON.stringify(said?.data))?.[1]);
		expect(alive(grandchild)).toBe(true);
		await harness.client.kill();
		expect((await harness.client.exited).signal).not.toBeNull();
		expect(alive(grandchild)).toBe(false);
		expect(await turn).toMatchObject({error: expect.stringMatching(/^the agent was killed by SIG(TERM|KILL) during session\/prompt$/)});
	});
});

describe('sessions', () => {
	it('loads a session when the agent supports it: the history becomes the transcript', async () => {
		harness = await startHarness({flags: ['--load'], resume: 'old-session'});
		expect(harness.client.facts.sessionId).toBe('old-session');
		const entries = harness.session.fold.entries;
		expect(entries.map(entry => entry.entry)).toEqual(['user', 'assistant', 'turn']);
		expect(textOf(entries, 'user')).toEqual(['What was the plan?']);
		expect(textOf(entries, 'assistant')).toEqual(['The plan was to fix the config.']);
	});

	it('refuses --resume with an agent that cannot load, saying so', async () => {
		await expect(startHarness({resume: 'x'})).rejects.toThrow(new AcpStartError('fake-agent cannot load a session (it does not advertise loadSession)'));
	});

	it('authenticates when the agent asks, with the method chosen from what it offers', async () => {
		const offered: unknown[] = [];
		harness = await startHarness({flags: ['--auth'], authenticate: async choices => {
			offered.push(...choices);
			return choices[0]!.id;
		}});
		expect(offered).toEqual([{id: 'fake-login', name: 'Fake login', description: 'Run fake-login (client fs: true)'}]);
		expect(noticesOf(harness.session.fold.entries)).toEqual(['fake-agent asks to authenticate with one of: Fake login (fake-login) — Run fake-login (client fs: true)']);
		expect(await harness.client.prompt('hi')).toEqual({stopReason: 'end_turn'});
	});

	it('says what the agent wants when no method is chosen', async () => {
		await expect(startHarness({flags: ['--auth'], authenticate: async () => undefined})).rejects.toThrow('fake-agent asks to authenticate with one of: Fake login (fake-login)');
	});

	it('closes cleanly: the agent is gone and the log is on disk', async () => {
		harness = await startHarness();
		await harness.client.prompt('hello');
		const pid = harness.client.pid!;
		expect(alive(pid)).toBe(true);
		await harness.close();
		expect(alive(pid)).toBe(false);
		const replay = await replayLog(harness.logPath, harness.workspace);
		expect(replay.fold.entries.at(-1)).toMatchObject({entry: 'turn', outcome: {text: 'completed'}});
		expect((await stat(harness.logPath)).size).toBeGreaterThan(0);
	});
});

/** Whether `pid` runs (a zombie waiting for its reaper does not). */
function alive(pid: number): boolean {
	try {
		return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
	} catch {
		return false;
	}
}

async function waitFor(condition: () => boolean): Promise<void> {
	for (let tries = 0; !condition(); tries++) {
		if (tries > 1000) {
			throw new Error('condition never held');
		}

		await new Promise(resolve => {
			setTimeout(resolve, 10);
		});
	}
}
