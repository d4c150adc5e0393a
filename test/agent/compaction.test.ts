/**
A long session on a model with a small window (16k tokens), against the fake model server: the
server refuses a request over the window with OpenAI's real `context_length_exceeded` body and
reports the tokens it counted, so the agent must keep every request within the window by itself.
*/
import {describe, expect, test} from 'vitest';
import {contextOptions} from '../../src/agent/context-settings.js';
import type {SessionEvent} from '../../src/session/events/events.js';
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
function windowedModel(options: {readonly call: (turn: number) => {name: string; args: unknown}; readonly summary?: (body: Body) => FakeAnswer | undefined}) {
	let calls = 0;
	return (request: FakeRequest['body']): FakeAnswer => {
		const body = request as Body;
		const tokens = counted(body);
		if (tokens > WINDOW) {
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
		const {replay, live} = await harness.finish();
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
	}, 180_000);
});
