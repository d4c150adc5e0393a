/**
A long session on a model with a small window (16k tokens), against the fake model server: the
server refuses a request over the window with OpenAI's real `context_length_exceeded` body and
reports the tokens it counted, so the agent must keep every request within the window by itself.
*/
import {describe, expect, test} from 'vitest';
import {contextOptions} from '../../src/agent/context-settings.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import {ContextTimeline} from '../../src/session/fold/context-timeline.js';
import type {FakeAnswer, FakeRequest} from '../fixtures/fake-model-server.mjs';
import {agentHarness} from './agent-harness.js';
import {BODIES} from './provider-error-bodies.js';

const WINDOW = 16_384;

type Body = FakeRequest['body'] & {messages: Array<{role: string; content?: unknown; tool_calls?: unknown}>};

/** What the fake provider counts: the request's messages and tools, a token per 4 characters of their JSON. */
function counted(body: Body): number {
	return Math.ceil(JSON.stringify({messages: body.messages, tools: body.tools ?? []}).length / 4);
}

const isSummaryRequest = (body: Body): boolean => typeof body.messages[0]?.content === 'string' && (body.messages[0].content as string).startsWith('You write the summary');

/** A session's model: a shell call per prompt, then an answer; over the window, the provider's error. */
function windowedModel(options: {readonly call: (turn: number) => {name: string; args: unknown}; readonly summary?: (body: Body) => FakeAnswer | undefined; readonly window?: number}) {
	let calls = 0;
	return (request: FakeRequest['body']): FakeAnswer => {
		const body = request as Body;
		const tokens = counted(body);
		if (tokens > (options.window ?? WINDOW)) {
			return {status: 400, errorBody: BODIES.openaiContext};
		}

		const usage = {prompt_tokens: tokens, completion_tokens: 20};
		if (isSummaryRequest(body)) {
			return options.summary?.(body) ?? {text: '## Goal\nCount with seq.\n## Progress\n### Done\nMany counts.\n## Next steps\nCount again.', usage};
		}

		if (body.messages.at(-1)?.role === 'tool') {
			return {text: `counted (${calls})`, usage};
		}

		calls++;
		const call = options.call(calls);
		return {toolCalls: [{id: `call_${calls}`, name: call.name, args: JSON.stringify(call.args)}], usage};
	};
}

/** Seven files of 5–8 KB (1.3k–2k tokens each when read). */
function dataFiles(): Record<string, string> {
	const files: Record<string, string> = {};
	for (let k = 0; k < 7; k++) {
		files[`data-${k}.txt`] = Array.from({length: 500 + k * 50}, (_, line) => `row ${line} of file ${k}`).join('\n');
	}

	return files;
}

const types = (events: readonly SessionEvent[], type: string): SessionEvent[] => events.filter(event => event.type === type);
/** An event's payload, field by field (the test reads the fields its type has). */
const fieldsOf = (event: SessionEvent): Record<string, unknown> => event.data as Record<string, unknown>;

describe('compaction on a 16k window', () => {
	test('a 300-turn session runs to its end without a context error, every compaction recorded', async () => {
		const harness = await agentHarness({
			script: windowedModel({call: turn => ({name: 'read', args: {file_path: `data-${turn % 7}.txt`}})}),
			files: dataFiles(),
			agent: {context: contextOptions({tokens: WINDOW, source: 'config'})},
		});
		const reasons: string[] = [];
		for (let turn = 1; turn <= 300; turn++) {
			const outcome = await harness.turn(`count, please (${turn})`);
			reasons.push(outcome.reason.kind);
		}

		const {events} = harness;
		const {replay, live, replayEvents} = await harness.finish();
		expect(reasons.filter(reason => reason !== 'completed')).toEqual([]);
		expect(harness.server.refusals).toEqual([]);
		expect(types(events, 'llm/retry')).toEqual([]);
		const starts = types(events, 'compaction/start');
		const ends = types(events, 'compaction/end');
		expect(starts.length).toBeGreaterThanOrEqual(3);
		expect(ends.length).toBe(starts.length);
		expect(ends.filter(end => end.type === 'compaction/end' && end.data.error !== undefined)).toEqual([]);
		// Both tiers ran: pruning alone most of the time, a summary when pruning was not enough.
		expect(types(events, 'compaction/prune').length).toBeGreaterThan(0);
		expect(types(events, 'compaction/summary').length).toBeGreaterThan(0);
		// Every compaction is a card, live and in the replay alike.
		const cards = live.filter(entry => entry.entry === 'compaction');
		expect(cards).toHaveLength(starts.length);
		expect(replay.filter(entry => entry.entry === 'compaction')).toHaveLength(starts.length);
		expectWhatTheModelKnew(replayEvents, harness.server.requests.map(request => request.body as Body));
	}, 180_000);
});

/**
The pager's "what the model knew", read back from the log, against what the server received: each
step's tokens sent are the ones the provider reported for its request, and an entry is out of the
context at a step exactly when that request lacks it — a person's prompt summarised away, a call's
result pruned to the stub or gone with its summary.
*/
function expectWhatTheModelKnew(events: readonly SessionEvent[], requests: readonly Body[]): void {
	const timeline = new ContextTimeline();
	for (const event of events) {
		timeline.hear(event);
	}

	const steps = requests.filter(body => !isSummaryRequest(body));
	expect(timeline.steps).toHaveLength(steps.length);
	const prompts = events.flatMap(event => {
		const text = event.type === 'user/message' && typeof event.surfaceOp !== 'object' ? /count, please \(\d+\)/.exec(JSON.stringify(event.data.content))?.[0] : undefined;
		return text === undefined ? [] : [{seq: event.seq, text}];
	});
	expect(prompts.length).toBeGreaterThan(100);
	const calls = events.flatMap(event => event.type === 'tool/call' ? [{seq: event.seq, callId: event.data.callId}] : []);
	let pruned = 0;
	let summarised = 0;
	timeline.steps.forEach((step, index) => {
		const body = steps[index]!;
		expect(step).toMatchObject({basis: 'reported', sent: counted(body)});
		const said = (message: {content?: unknown}): string => typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
		for (const prompt of prompts.filter(prompt => prompt.seq < step.seq)) {
			const sent = body.messages.some(message => message.role === 'user' && said(message).includes(prompt.text));
			expect([prompt.seq, timeline.standing(prompt.seq, step.seq)]).toEqual([prompt.seq, sent ? undefined : 'summarised']);
			summarised += sent ? 0 : 1;
		}

		for (const call of calls.filter(call => call.seq < step.seq)) {
			const result = body.messages.find(message => message.role === 'tool' && (message as {tool_call_id?: string}).tool_call_id === call.callId);
			const standing = result === undefined ? 'summarised' : (said(result).startsWith('[pruned by a compaction') ? 'pruned' : undefined);
			expect([call.callId, timeline.standing(call.seq, step.seq)]).toEqual([call.callId, standing]);
			pruned += standing === 'pruned' ? 1 : 0;
		}
	});
	// The session both pruned and summarised: the check saw each standing.
	expect(pruned).toBeGreaterThan(0);
	expect(summarised).toBeGreaterThan(0);
}

describe('compaction: its rules', () => {
	const small = contextOptions({tokens: WINDOW, source: 'config'});

	test('--continue after a compaction sends the compacted conversation (the checkpoint, not the summarised messages)', async () => {
		const first = await agentHarness({script: windowedModel({call: turn => ({name: 'read', args: {file_path: `data-${turn % 7}.txt`}})}), files: dataFiles(), agent: {context: small}});
		for (let turn = 1; turn <= 40; turn++) {
			await first.turn(`count, please (${turn})`);
		}

		const {replayEvents} = await first.finish();
		const summaries = types(replayEvents, 'compaction/summary');
		expect(summaries.length).toBeGreaterThan(0);
		const checkpoint = replayEvents.findLast(event => event.type === 'user/message' && typeof event.surfaceOp === 'object');
		expect(checkpoint).toBeDefined();
		const resumed = await agentHarness({script: windowedModel({call: () => ({name: 'read', args: {file_path: 'data-1.txt'}})}), files: dataFiles(), agent: {context: small, history: replayEvents}});
		await resumed.turn('one more');
		const sent = resumed.server.requests[0]!.body as Body;
		const said = JSON.stringify(sent.messages);
		expect(said).toContain('This conversation was compacted');
		// The first prompt of the first session was summarised away: the resumed request does not hold it.
		expect(said).not.toContain('count, please (1)"');
		expect(counted(sent)).toBeLessThan(WINDOW);
		await resumed.finish();
	}, 60_000);

	test.each([
		['OpenAI', BODIES.openaiContext],
		['DeepSeek', BODIES.deepseekContext],
		['Anthropic', BODIES.anthropicContext],
		['Gemini', BODIES.geminiContext],
	])('a provider\'s context-length error (%s\'s real body) compacts once and retries, visibly', async (_name, body) => {
		let refused = false;
		const harness = await agentHarness({
			files: dataFiles(),
			// The provider refuses once, whatever the size (its window is smaller than cardterm was told).
			script: (request, index) => {
				const inner = windowedModel({call: () => ({name: 'read', args: {file_path: 'data-3.txt'}}), window: Number.MAX_SAFE_INTEGER});
				if (index === 10 && !refused) {
					refused = true;
					return {status: 400, errorBody: body};
				}

				return inner(request);
			},
			agent: {context: contextOptions({tokens: 200_000, source: 'config'})},
		});
		for (let turn = 1; turn <= 6; turn++) {
			const outcome = await harness.turn(`count (${turn})`);
			expect(outcome.reason.kind).toBe('completed');
		}

		const {events} = harness;
		await harness.finish();
		const retries = types(events, 'llm/retry');
		expect(retries).toHaveLength(1);
		const message = 'error' in body ? (body.error as {message: string}).message : '';
		expect(String(fieldsOf(retries[0]!).reason)).toContain(message);
		expect(String(fieldsOf(retries[0]!).reason)).toContain('the conversation was made smaller');
		expect(types(events, 'compaction/start').map(event => fieldsOf(event).trigger)).toEqual(['overflow']);
	});

	test('a failing summary request falls back to pruning and says so on the card', async () => {
		const harness = await agentHarness({
			files: dataFiles(),
			script: windowedModel({call: turn => ({name: 'read', args: {file_path: `data-${turn % 7}.txt`}}), summary: () => ({status: 500, error: 'the summariser is down'})}),
			agent: {context: small},
		});
		for (let turn = 1; turn <= 30; turn++) {
			const outcome = await harness.turn(`count (${turn})`);
			expect(outcome.reason.kind).toBe('completed');
		}

		const {events} = harness;
		const {live} = await harness.finish();
		expect(types(events, 'compaction/summary')).toEqual([]);
		const notes = live.flatMap(entry => entry.entry === 'compaction' && entry.note !== undefined ? [entry.note] : []);
		expect(notes.some(note => note.startsWith('the summary request failed'))).toBe(true);
	}, 60_000);

	test('a huge single tool result goes to the model bounded (head, tail, a note naming the card); the card keeps it whole', async () => {
		const huge = Array.from({length: 40_000}, (_, line) => `line ${line}`).join('\n');
		const harness = await agentHarness({
			files: {'huge.txt': huge},
			script: windowedModel({call: () => ({name: 'bash', args: {command: 'cat huge.txt', description: 'show the file'}})}),
			session: {rules: []},
			agent: {context: small},
		});
		const outcome = await harness.turn('show it');
		expect(outcome.reason.kind).toBe('completed');
		const sent = harness.server.requests[1]!.body as Body;
		const answer = sent.messages.find(message => message.role === 'tool');
		expect(counted(sent)).toBeLessThan(WINDOW);
		expect(String(answer?.content)).toMatch(/characters \(about [\d,]+ tokens\) left out here to fit the context budget; the whole output is on the card of call call_1 \(log seq \d+\)/);
		expect(String(answer?.content)).toContain('line 39999');
		const {live} = await harness.finish();
		// The card keeps what the shell kept (its tail, and the spill file with all of it), far more than the model was sent.
		const card = live.find(entry => entry.entry === 'card');
		expect(card?.entry === 'card' && JSON.stringify(card.card.result?.content).length).toBeGreaterThan(4 * String(answer?.content).length);
	});

	test('pruning alone when it is enough; no summary request', async () => {
		const harness = await agentHarness({files: dataFiles(), script: windowedModel({call: turn => ({name: 'read', args: {file_path: `data-${turn % 7}.txt`}})}), agent: {context: small}});
		for (let turn = 1; turn <= 6; turn++) {
			await harness.turn(`count (${turn})`);
		}

		const {events} = harness;
		await harness.finish();
		expect(types(events, 'compaction/prune').length).toBeGreaterThan(0);
		expect(types(events, 'compaction/summary')).toEqual([]);
		expect(harness.server.requests.filter(request => isSummaryRequest(request.body as Body))).toEqual([]);
	});

	test('no compaction loop: a compaction that cannot shrink is refused, and none runs twice without a model step', async () => {
		// Tiny window: even the system prompt and the tools do not fit; compaction cannot help.
		const harness = await agentHarness({files: dataFiles(), script: windowedModel({call: () => ({name: 'read', args: {file_path: 'data-1.txt'}})}), agent: {context: contextOptions({tokens: 600, source: 'config'})}});
		await harness.turn('count');
		await harness.turn('count');
		const {events} = harness;
		await harness.finish();
		const starts = types(events, 'compaction/start');
		// Between two compactions there is always a model step.
		let since = true;
		for (const event of events) {
			if (event.type === 'compaction/start' && fieldsOf(event).trigger === 'auto') {
				expect(since).toBe(true);
				since = false;
			} else if (event.type === 'assistant/message') {
				since = true;
			}
		}

		expect(starts.length).toBeLessThanOrEqual(6);
	});
});
