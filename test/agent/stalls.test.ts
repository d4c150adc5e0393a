/**
Streams that stall: silent, kept "alive" with keep-alives but no content, headers that never come.
Each is cancelled after the stall timeout and retried with a visible notice. (Before, each of these
turns never ended.)
*/
import {existsSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {DEFAULT_STALL_TIMEOUT_MS} from '../../src/agent/stall-guard.js';
import {agentHarness, anthropicAt, eventTrail, NO_FIXTURES, SHARED_FIXTURES, wireFixture} from './agent-harness.js';

// Long enough that a loaded machine (the suite beside other work on 2 cores) answers a healthy retry within it.
const STALL_MS = 2000;
// How the notice words it.
const STALL_TEXT = '2s';
const stallAgent = {stallTimeoutMs: STALL_MS};

describe('a stalled model stream is cancelled and retried', () => {
	it('keep-alive comments (": ping") and nothing else: cancelled after the timeout, retried, the retry answers', async () => {
		const h = await agentHarness({agent: stallAgent, script: [{text: 'never', keepAlive: {everyMs: 50}}, {text: 'Back.'}]});
		const started = Date.now();
		expect((await h.turn('hi')).reason).toEqual({kind: 'completed'});
		expect(Date.now() - started).toBeGreaterThanOrEqual(STALL_MS);
		const retry = h.events.find(event => event.type === 'llm/retry')!.data as Record<string, any>;
		expect(retry).toMatchObject({attempt: 2, reason: `no data from the model for ${STALL_TEXT}`, error: {kind: 'stall'}});
		expect(eventTrail(h.events)).toEqual(['step 1', 'user(user) "hi"', 'llm/retry', 'assistant', 'turn/end completed']);
		// The stalled request was cancelled: the server saw its client go.
		expect(h.server.hung).toBe(1);
		const {live, replay} = await h.finish();
		expect(live.map(entry => entry.entry === 'notice' ? entry.summary : entry.entry)).toEqual(['user', `retrying the model (attempt 2): no data from the model for ${STALL_TEXT}`, 'assistant', 'turn']);
		expect(replay).toEqual(live);
	}, 30_000);

	it('text that stops mid-answer: the partial attempt is dropped and the retry\'s answer is the message', async () => {
		const h = await agentHarness({agent: stallAgent, script: [{text: ['Hel', 'lo'], hangAfterChunks: 2}, {text: 'Hello again.'}]});
		expect((await h.turn('hi')).reason).toEqual({kind: 'completed'});
		expect((h.events.find(event => event.type === 'assistant/message')!.data as Record<string, any>).message.content).toEqual([{type: 'text', text: 'Hello again.'}]);
		const {live, replay} = await h.finish();
		expect(replay).toEqual(live);
	}, 30_000);

	it('no response headers at all is the same stall', async () => {
		const h = await agentHarness({agent: stallAgent, script: [{text: 'late', headersDelayMs: 20_000}, {text: 'Now.'}]});
		expect((await h.turn('hi')).reason).toEqual({kind: 'completed'});
		expect(h.events.filter(event => event.type === 'llm/retry')).toHaveLength(1);
		await h.finish();
	}, 30_000);

	it('a stream that keeps stalling ends the turn with the stall named, after the retries', async () => {
		const h = await agentHarness({agent: stallAgent, script: () => ({text: 'never', keepAlive: {everyMs: 100}})});
		const outcome = await h.turn('hi');
		expect(outcome.reason).toEqual({kind: 'error', error: {message: `no data from the model for ${STALL_TEXT}`, kind: 'stall', advice: 'Send again; if this model is slow to start, raise agent.stallTimeoutMs in the config.'}});
		// quickRetries: two retries after the first attempt.
		expect(h.server.received).toBe(3);
		await h.finish();
	}, 30_000);

	it('a cancel while the stream is silent is a cancel, not a stall', async () => {
		const h = await agentHarness({agent: {stallTimeoutMs: 10_000}, script: [{text: 'x', keepAlive: {everyMs: 50}}]});
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 200);
		expect((await h.turn('hi', controller.signal)).reason).toEqual({kind: 'aborted', reason: {kind: 'user'}});
		expect(h.events.some(event => event.type === 'llm/retry')).toBe(false);
		await h.finish();
	}, 30_000);

	it('defaults to 45 s: well under a minute', () => {
		expect(DEFAULT_STALL_TIMEOUT_MS).toBe(45_000);
	});
});

describe.skipIf(!existsSync(SHARED_FIXTURES))(`a recorded Anthropic stream kept alive by event: ping only${existsSync(SHARED_FIXTURES) ? '' : ` — skipped: ${NO_FIXTURES}`}`, () => {
	it('message_start, then Anthropic\'s pings and nothing else: a stall, retried', async () => {
		const text = wireFixture('anthropic/anthropic-text.chunks.txt')!;
		const h = await agentHarness({model: anthropicAt, agent: stallAgent, script: [{replay: {wire: 'anthropic', events: text}, keepAlive: {afterChunks: 3, everyMs: 50, frame: 'anthropic-ping'}}, {replay: {wire: 'anthropic', events: text}}]});
		expect((await h.turn('hi')).reason).toEqual({kind: 'completed'});
		expect((h.events.find(event => event.type === 'llm/retry')!.data as Record<string, any>).error).toMatchObject({kind: 'stall'});
		await h.finish();
	}, 30_000);
});
