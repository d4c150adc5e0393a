import {readFileSync} from 'node:fs';
import {defineTool} from '../../src/tools/define-tool.js';
import {describe, expect, it, vi} from 'vitest';
import {agentHarness, eventTrail, toolMessages} from './agent-harness.js';

describe('the agent loop against a model server', () => {
	it('runs a multi-step turn through reference tools, in contract order, and replays to the same transcript', async () => {
		const h = await agentHarness({
			files: {'notes.txt': 'alpha\nbeta\n', 'AGENTS.md': 'Always say please.'},
			script: [
				{reasoning: ['Let me ', 'look ', 'first.'], toolCalls: [{id: 'c1', name: 'read', args: ['{"file_', 'path":', '"notes.txt"}']}, {id: 'c2', name: 'glob', args: '{"pattern":"*.txt"}'}]},
				{text: 'Editing.', toolCalls: [{id: 'c3', name: 'edit', args: '{"file_path":"notes.txt","old_string":"beta","new_string":"BETA"}'}]},
				{toolCalls: [{id: 'c4', name: 'bash', args: '{"command":"cat notes.txt","description":"Show the file"}'}, {id: 'c5', name: 'todo_write', args: '{"todos":[{"content":"Edit notes","status":"completed"}]}'}]},
				{text: ['Done: ', 'beta is ', 'now BETA.'], usage: {prompt_tokens: 100, completion_tokens: 7, cached: 40}},
			],
		});
		const outcome = await h.turn('Capitalise beta in notes.txt');
		expect(outcome.reason).toEqual({kind: 'completed'});
		expect(outcome.usage).toEqual({inputTokens: 130, outputTokens: 22, cacheReadTokens: 40, cacheWriteTokens: 0, reasoningTokens: 0});
		expect(readFileSync(`${h.workspace}/notes.txt`, 'utf8')).toBe('alpha\nBETA\n');
		expect(eventTrail(h.events)).toEqual([
			'step 1', 'user(user) "Capitalise beta in notes.txt"', 'assistant', 'call read', 'call glob', 'result c1', 'result c2',
			'step 2', 'assistant', 'call edit', 'result c3',
			'step 3', 'assistant', 'call bash', 'result c4', 'call todo_write', 'todo/write', 'result c5',
			'step 4', 'assistant', 'turn/end completed',
		]);
		// What the model saw: the system prompt with the workspace, tools and AGENTS.md; the results of its calls.
		const [first, second, , last] = h.server.requests;
		const system = String(first!.body.messages[0]!.content);
		expect(first!.body.messages[0]!.role).toBe('system');
		expect(system).toContain(`Workspace: ${h.workspace}`);
		// The tools are described by their schemas, not again in the prompt.
		expect(system).not.toContain('- read: ');
		expect(system).toContain('Always say please.');
		// Every tool that can work here is offered (web_search has no search backend in the tests).
		expect(first!.body.tools!.map(tool => tool.function.name)).toEqual(h.session.registry.schemas().map(schema => schema.name).filter(name => name !== 'web_search'));
		expect(first!.body.messages.slice(1)).toEqual([{role: 'user', content: 'Capitalise beta in notes.txt'}]);
		expect(toolMessages(second!).map(([id]) => id)).toEqual(['c1', 'c2']);
		expect(toolMessages(second!)[0]![1]).toContain('1: alpha');
		expect(toolMessages(last!).map(([id]) => id)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
		expect(toolMessages(last!)[3]![1]).toContain('BETA');

		const turnEnd = h.events.at(-1)!;
		expect(turnEnd.data).toMatchObject({turn: 1, reason: {kind: 'completed'}, usage: {inputTokens: 130, outputTokens: 22}});
		const answer = h.events.filter(event => event.type === 'assistant/message').at(-1)!.data as Record<string, any>;
		expect(answer.message.content).toEqual([{type: 'text', text: 'Done: beta is now BETA.'}]);
		expect(answer.message.source).toEqual({kind: 'model', provider: 'openai-compatible', model: 'fake-model'});
		expect(answer.usage).toEqual({inputTokens: 100, outputTokens: 7, cacheReadTokens: 40, cacheWriteTokens: 0, reasoningTokens: 0});

		// Streamed deltas are packed into chunk rows in the file (and expand back to the same events).
		await h.session.flush();
		const rows = readFileSync(h.logPath, 'utf8').split('\n').filter(line => line !== '').map(line => (JSON.parse(line) as {type: string}).type);
		expect(rows).toEqual(expect.arrayContaining(['reasoning-chunks', 'tool-call-chunks', 'text-chunks']));
		const {live, replay, replayEvents} = await h.finish();
		expect(replay).toEqual(live);
		expect(replayEvents).toEqual(h.events);
		expect(live.map(entry => entry.entry === 'card' ? `card ${entry.card.name} ${entry.card.status}` : entry.entry)).toEqual([
			'user', 'assistant', 'card read ok', 'card glob ok', 'assistant', 'card edit ok', 'card bash ok', 'card todo_write ok', 'todo', 'assistant', 'turn',
		]);
	}, 30_000);
});

describe('tool calls', () => {
	it('starts safe calls together and commits their results in model order', async () => {
		const h = await agentHarness({
			files: {'a.txt': 'a\n', 'b.txt': 'b\n'},
			script: [
				{toolCalls: [{id: 'r1', name: 'read', args: '{"file_path":"a.txt"}'}, {id: 'r2', name: 'read', args: '{"file_path":"b.txt"}'}, {id: 'w1', name: 'write', args: '{"file_path":"c.txt","content":"c"}'}, {id: 'r3', name: 'read', args: '{"file_path":"c.txt"}'}]},
				{text: 'ok'},
			],
		});
		await h.turn('read them');
		// The exclusive write waits for both reads; the read after it sees the file it wrote.
		expect(eventTrail(h.events, ['tool/call', 'tool/result'])).toEqual(['call read', 'call read', 'result r1', 'result r2', 'call write', 'result w1', 'call read', 'result r3']);
		expect(toolMessages(h.server.requests[1]!)[3]![1]).toContain('1: c');
		const {live, replay} = await h.finish();
		expect(replay).toEqual(live);
	}, 30_000);

	it('a denied call is an error result the model is told about', async () => {
		const h = await agentHarness({
			session: {policy: async (exec, next) => exec.name === 'bash' ? {kind: 'deny', reason: 'not on my watch'} : next()},
			script: [{toolCalls: [{id: 'b1', name: 'bash', args: '{"command":"rm -rf /tmp/x","description":"Remove"}'}]}, {text: 'I was not allowed.'}],
		});
		const outcome = await h.turn('clean up');
		expect(outcome.reason.kind).toBe('completed');
		expect(toolMessages(h.server.requests[1]!)).toEqual([['b1', 'Error: not on my watch']]);
		const {live, replay} = await h.finish();
		expect(live.map(entry => entry.entry === 'card' ? entry.card.status : entry.entry)).toEqual(['user', 'error', 'assistant', 'turn']);
		expect(replay).toEqual(live);
	}, 30_000);

	it('malformed calls (bad JSON, unknown tool, invalid arguments) get the contract\'s error results and the model is told', async () => {
		const h = await agentHarness({
			script: [
				{toolCalls: [{id: 'm1', name: 'read', args: '{"file_path": '}, {id: 'm2', name: 'no_such_tool', args: '{}'}, {id: 'm3', name: 'read', args: '{"path":"x"}'}]},
				{text: 'Sorry.'},
			],
		});
		await h.turn('go');
		const results = h.events.filter(event => event.type === 'tool/result').map(event => (event.data as Record<string, any>).error);
		expect(results).toEqual([{name: 'ToolArgsError', code: 'INVALID_ARGS'}, {name: 'ToolNotFoundError', code: 'UNKNOWN_TOOL'}, {name: 'ToolArgsError', code: 'INVALID_ARGS'}]);
		// The raw text the model emitted is what the card and the log keep.
		expect((h.events.find(event => event.type === 'tool/call')!.data as Record<string, any>).arguments).toBe('{"file_path": ');
		const told = toolMessages(h.server.requests[1]!);
		expect(told.map(([id]) => id)).toEqual(['m1', 'm2', 'm3']);
		expect(told[0]![1]).toMatch(/^Error: invalid arguments: /);
		expect(told[1]![1]).toBe('Error: unknown tool "no_such_tool"');
		expect(told[2]![1]).toMatch(/^Error: invalid arguments: .*file_path/);
		const {live, replay} = await h.finish();
		expect(replay).toEqual(live);
	}, 30_000);

	it('stops a turn at the step limit', async () => {
		const h = await agentHarness({maxSteps: 2, script: () => ({toolCalls: [{id: 'g', name: 'glob', args: '{"pattern":"*"}'}]})});
		const outcome = await h.turn('loop forever');
		expect(outcome.reason).toEqual({kind: 'blocked', code: 'step-limit', message: 'the step limit (2) was reached'});
		expect(h.server.requests).toHaveLength(2);
		const {live, replay} = await h.finish();
		expect(replay).toEqual(live);
	}, 30_000);
});

describe('cancel', () => {
	it('mid-stream: the visible prefix is written interrupted, undispatched calls are dropped, the turn ends aborted', async () => {
		const h = await agentHarness({script: [{text: ['Hello ', 'wor'], toolCalls: [{id: 'x', name: 'glob', args: '{"pattern":"*"}'}], hangAfterChunks: 3}]});
		const controller = new AbortController();
		h.session.log.listen(event => {
			if (event.type === 'assistant/chunk' && (event.data as Record<string, any>).chunk.text === 'wor') {
				controller.abort();
			}
		});
		const outcome = await h.turn('say hello', controller.signal);
		expect(outcome.reason).toEqual({kind: 'aborted', reason: {kind: 'user'}});
		expect(eventTrail(h.events)).toEqual(['step 1', 'user(user) "say hello"', 'assistant interrupted', 'turn/end aborted']);
		expect(h.events.at(-2)!.type).toBe('step/end');
		const message = h.events.find(event => event.type === 'assistant/message')!.data as Record<string, any>;
		expect(message.message.content).toEqual([{type: 'text', text: 'Hello wor'}]);
		expect(message.interrupted).toBe(true);
		const {live, replay} = await h.finish();
		expect(replay).toEqual(live);
	}, 30_000);

	it('mid-call: the running call ends ABORTED, the next one gets its own call and ABORTED_BEFORE_DISPATCH', async () => {
		const h = await agentHarness({script: [{toolCalls: [{id: 's1', name: 'bash', args: '{"command":"sleep 20","description":"Wait"}'}, {id: 's2', name: 'bash', args: '{"command":"echo after","description":"Then"}'}]}]});
		const controller = new AbortController();
		h.session.log.listen(event => {
			if (event.type === 'tool/call') {
				// Give the body time to start (the abort then lands while it runs).
				setTimeout(() => controller.abort(), 300);
			}
		});
		const outcome = await h.turn('wait', controller.signal);
		expect(outcome.reason.kind).toBe('aborted');
		expect(eventTrail(h.events)).toEqual(['step 1', 'user(user) "wait"', 'assistant', 'call bash', 'result s1 error ABORTED', 'call bash', 'result s2 error ABORTED_BEFORE_DISPATCH', 'turn/end aborted']);
		expect(h.server.requests).toHaveLength(1);
		const {live, replay} = await h.finish();
		expect(live.filter(entry => entry.entry === 'card').map(entry => entry.entry === 'card' && entry.card.status)).toEqual(['cancelled', 'cancelled']);
		expect(replay).toEqual(live);
	}, 30_000);

	it('a command cancelled while it runs keeps what it printed: its card shows it, and the next request gives it to the model', async () => {
		const h = await agentHarness({script: [{toolCalls: [{id: 'c1', name: 'bash', args: '{"command":"echo before-cancel; sleep 20","description":"Print then wait"}'}]}, {text: 'I see it printed before-cancel.'}]});
		const controller = new AbortController();
		h.session.log.listen(event => {
			if (event.type === 'cardterm/tool-progress' && String((event.data as {text: string}).text).includes('before-cancel')) {
				controller.abort();
			}
		});
		expect((await h.turn('run it', controller.signal)).reason.kind).toBe('aborted');
		await h.turn('what did it print?');
		const told = h.server.requests[1]!.body.messages.find(message => message.role === 'tool');
		expect(told!.content).toBe('Error: tool call aborted\n\nbefore-cancel\n[cancelled: stopped before it finished]');
		const {live, replay} = await h.finish();
		const card = live.find(entry => entry.entry === 'card');
		expect(card?.entry === 'card' && [card.card.outcome, card.card.resultView]).toEqual(['cancelled', {card: 'terminal', output: 'before-cancel'}]);
		expect(replay).toEqual(live);
	}, 30_000);
});

describe('model failures', () => {
	it('retries 429 and 500 with llm/retry events, then succeeds', async () => {
		const h = await agentHarness({script: [{status: 429, error: 'Rate limit reached', retryAfter: 0}, {status: 500, error: 'upstream overloaded'}, {text: 'fine'}]});
		const outcome = await h.turn('hi');
		expect(outcome.reason.kind).toBe('completed');
		const retries = h.events.filter(event => event.type === 'llm/retry').map(event => event.data as Record<string, any>);
		expect(retries.map(retry => [retry.attempt, retry.error.status, retry.reason])).toEqual([[2, 429, 'Rate limit reached'], [3, 500, 'upstream overloaded']]);
		expect(retries[0]!.delayMs).toBe(0);
		expect(eventTrail(h.events)).toEqual(['step 1', 'user(user) "hi"', 'llm/retry', 'llm/retry', 'assistant', 'turn/end completed']);
		const {live, replay} = await h.finish();
		expect(live.map(entry => entry.entry)).toEqual(['user', 'notice', 'notice', 'assistant', 'turn']);
		expect(replay).toEqual(live);
	}, 30_000);

	it('gives up after the retries with the provider\'s message as the turn\'s error', async () => {
		const h = await agentHarness({script: [{status: 503, error: 'overloaded'}, {status: 503, error: 'overloaded'}, {status: 503, error: 'still overloaded'}]});
		const outcome = await h.turn('hi');
		expect(outcome.reason).toEqual({kind: 'error', error: {message: 'still overloaded', kind: 'overloaded', status: 503, advice: 'Send again in a while, or switch to another model: the provider is overloaded.'}});
		expect(h.server.requests).toHaveLength(3);
		const {live, replay} = await h.finish();
		expect(replay).toEqual(live);
	}, 30_000);

	it('does not retry a wrong key: one clear line', async () => {
		const h = await agentHarness({script: [{status: 401, error: 'Incorrect API key provided: test-key'}]});
		const outcome = await h.turn('hi');
		expect(outcome.reason).toEqual({kind: 'error', error: {message: 'Incorrect API key provided: test-key', kind: 'auth', status: 401, advice: 'Check the API key in OPENAI_API_KEY: the provider refused it.'}});
		expect(h.events.some(event => event.type === 'llm/retry')).toBe(false);
		await h.finish();
	}, 30_000);

	it('retries a stream cut mid-way, and the retried attempt is what the message holds', async () => {
		const h = await agentHarness({script: [{text: ['par', 'tial', 'ly'], cutAfterChunks: 2}, {text: 'whole answer'}]});
		const outcome = await h.turn('hi');
		expect(outcome.reason.kind).toBe('completed');
		expect(eventTrail(h.events)).toEqual(['step 1', 'user(user) "hi"', 'llm/retry', 'assistant', 'turn/end completed']);
		const message = h.events.find(event => event.type === 'assistant/message')!.data as Record<string, any>;
		expect(message.message.content).toEqual([{type: 'text', text: 'whole answer'}]);
		const {live, replay} = await h.finish();
		expect(replay).toEqual(live);
	}, 30_000);
});

describe('messages that enter a later step', () => {
	const notify = defineTool({
		name: 'notify_later',
		description: 'Queue a note for the model.',
		parameters: {note: {type: 'string', required: true}},
		output: {schema: {type: 'string'}, render: (_args, value) => [{type: 'text', text: value}]},
		async execute(args, exec) {
			exec.agent?.inject?.({content: [{type: 'text', text: args.note}], source: {kind: 'plugin', plugin: 'notes'}});
			return 'queued';
		},
	});

	it('agent.inject adds a durable plugin user/message that the next request sees; refused after disposal', async () => {
		const h = await agentHarness({
			session: {extraTools: [notify]},
			script: [{toolCalls: [{id: 'n1', name: 'notify_later', args: '{"note":"the build is green"}'}]}, {text: 'Noted.'}],
		});
		await h.turn('check');
		// Written at the next step, after the results: not between a call and its result.
		expect(eventTrail(h.events)).toEqual(['step 1', 'user(user) "check"', 'assistant', 'call notify_later', 'result n1', 'step 2', 'user(plugin) "the build is green"', 'assistant', 'turn/end completed']);
		const messages = h.server.requests[1]!.body.messages;
		// Marked as a note: the model must not take it for a request of the person's.
		expect(messages.at(-1)).toEqual({role: 'user', content: '<system-reminder>\nA note from "notes", not a message from the person: it is not a new request.\n\nthe build is green\n</system-reminder>'});
		expect(messages.at(-2)).toMatchObject({role: 'tool', tool_call_id: 'n1'});
		const agent = h.session.runtime.agent;
		h.session.runtime.dispose();
		expect(() => agent.inject!({content: [{type: 'text', text: 'late'}], source: {kind: 'plugin', plugin: 'notes'}})).toThrow(/disposed/);
		const {live, replay} = await h.finish();
		expect(live.map(entry => entry.entry)).toEqual(['user', 'card', 'notice', 'assistant', 'turn']);
		expect(replay).toEqual(live);
	}, 30_000);

	it('a background job\'s completion notice enters a later step as a note the model can tell from the person\'s words', async () => {
		const h = await agentHarness({
			script: [
				{toolCalls: [{id: 'bg', name: 'bash', args: '{"command":"echo built","description":"Build","run_in_background":true}'}]},
				{toolCalls: [{id: 'fg', name: 'bash', args: '{"command":"sleep 1","description":"Wait a moment"}'}]},
				{text: 'The build finished.'},
			],
		});
		await h.turn('build in the background');
		const notice = h.events.find(event => event.type === 'user/message' && (event.data as Record<string, any>).source.kind === 'plugin');
		expect((notice!.data as Record<string, any>).content[0].text).toMatch(/^background job bash-1 \(bash: .*\) finished \[status: completed.*Read its output with job_output\.$/);
		expect(h.server.requests[2]!.body.messages.at(-1)!.content).toMatch(/^<system-reminder>\nA note from "jobs", not a message from the person: it is not a new request\.\n\nbackground job bash-1 .*\n<\/system-reminder>$/);
		const {live, replay} = await h.finish();
		expect(replay).toEqual(live);
	}, 30_000);
});

describe('notes between turns', () => {
	it('a job that finished while no turn ran is told before the person\'s next prompt, which stays the last message', async () => {
		const h = await agentHarness({
			script: [
				{toolCalls: [{id: 'bg', name: 'bash', args: '{"command":"echo built","description":"Build","run_in_background":true}'}]},
				{text: 'Started the build.'},
				{text: 'Here is the README summary.'},
			],
		});
		await h.turn('build in the background');
		await vi.waitFor(() => {
			expect(h.session.runtime.inboxSize).toBe(1);
		}, {timeout: 10_000});
		await h.turn('now summarize the README');
		const messages = h.server.requests[2]!.body.messages;
		expect(messages.at(-1)).toEqual({role: 'user', content: 'now summarize the README'});
		expect(String(messages.at(-2)!.content)).toMatch(/^<system-reminder>\nA note from "jobs", not a message from the person.*background job bash-1 .*finished/s);
		const {live, replay} = await h.finish();
		expect(live.filter(entry => entry.entry === 'notice' || entry.entry === 'user').map(entry => entry.entry)).toEqual(['user', 'notice', 'user']);
		expect(replay).toEqual(live);
	}, 30_000);
});

describe('Code Mode from the model', () => {
	it('a run_code call dispatches its sub-calls through the registry; they land between its call and result', async () => {
		const h = await agentHarness({
			files: {'notes.txt': 'one\ntwo\n'},
			script: [
				{toolCalls: [{id: 'rc', name: 'run_code', args: JSON.stringify({code: 'const r = await tools.read({file_path: "notes.txt"}); return r.totalLines;', description: 'Count the lines'})}]},
				{text: 'Two lines.'},
			],
		});
		await h.turn('count the lines with a program');
		expect(h.server.requests[0]!.body.tools!.map(tool => tool.function.name)).toContain('run_code');
		expect(eventTrail(h.events, ['tool/call', 'tool/code-dispatch-start', 'tool/code-dispatch', 'tool/result'])).toEqual(['call run_code', 'tool/code-dispatch-start', 'tool/code-dispatch', 'result rc']);
		expect(toolMessages(h.server.requests[1]!)[0]![1]).toContain('2');
		const {live, replay} = await h.finish();
		const card = live.find(entry => entry.entry === 'card');
		expect(card?.entry === 'card' && card.card.children.map(child => [child.name, child.status])).toEqual([['read', 'ok']]);
		expect(replay).toEqual(live);
	}, 30_000);
});
