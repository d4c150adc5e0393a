/**
Provider failures through the agent loop: errors inside a 200 stream (Anthropic's `event: error`,
OpenAI-style `data: {"error": …}`), the waits providers ask for, and the failures another attempt
cannot cure. Streams are the recorded ones in ../shared/wire-fixtures; error bodies are the
providers' documented ones (`BODIES`, each cited in model-errors.test.ts).
*/
import {existsSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import type {ModelError} from '../../src/agent/model-types.js';
import {agentHarness, anthropicAt, eventTrail, geminiAt, NO_FIXTURES, quickRetries, SHARED_FIXTURES, wireFixture} from './agent-harness.js';
import {BODIES} from './provider-error-bodies.js';

const present = existsSync(SHARED_FIXTURES);
const noObjectObject = (events: readonly unknown[]): void => {
	expect(JSON.stringify(events)).not.toContain('[object Object]');
};

describe.skipIf(!present)(`errors inside a 200 stream${present ? '' : ` — skipped: ${NO_FIXTURES}`}`, () => {
	it('Anthropic: an overloaded_error event mid-stream shows the provider\'s message and is retried as a 529 would be', async () => {
		const text = wireFixture('anthropic/anthropic-text.chunks.txt')!;
		// The recorded stream up to its second delta, then Anthropic's error event (Helicone/helicone#4678).
		const h = await agentHarness({model: anthropicAt, script: [{replay: {wire: 'anthropic', events: [...text.slice(0, 5), BODIES.anthropicOverloaded]}}, {replay: {wire: 'anthropic', events: text}}]});
		const outcome = await h.turn('hi');
		expect(outcome.reason).toEqual({kind: 'completed'});
		const retry = h.events.find(event => event.type === 'llm/retry')!.data as Record<string, any>;
		expect(retry).toMatchObject({attempt: 2, reason: 'Overloaded (overloaded_error)', error: {message: 'Overloaded (overloaded_error)', kind: 'overloaded'}});
		expect(eventTrail(h.events)).toEqual(['step 1', 'user(user) "hi"', 'llm/retry', 'assistant', 'turn/end completed']);
		const answer = h.events.find(event => event.type === 'assistant/message')!.data as Record<string, any>;
		expect(answer.message.content).toEqual([{type: 'text', text: 'Hello! I\'m doing well, thank you for asking. How are you doing today? Is there anything I can help you with?'}]);
		noObjectObject(h.events);
		const {live, replay} = await h.finish();
		expect(live.map(entry => entry.entry === 'notice' ? entry.summary : entry.entry)).toEqual(['user', 'retrying the model (attempt 2): Overloaded (overloaded_error)', 'assistant', 'turn']);
		expect(replay).toEqual(live);
	}, 30_000);

	it('Anthropic: an overloaded_error as the stream\'s first event is retried too (the SDK makes it a 529)', async () => {
		const text = wireFixture('anthropic/anthropic-text.chunks.txt')!;
		const h = await agentHarness({model: anthropicAt, script: [{replay: {wire: 'anthropic', events: [BODIES.anthropicOverloaded]}}, {replay: {wire: 'anthropic', events: text}}]});
		expect((await h.turn('hi')).reason).toEqual({kind: 'completed'});
		expect((h.events.find(event => event.type === 'llm/retry')!.data as Record<string, any>).error).toMatchObject({kind: 'overloaded', status: 529});
		await h.finish();
	}, 30_000);

	it('Anthropic: after the retries, the turn ends with the provider\'s message, not [object Object]', async () => {
		const text = wireFixture('anthropic/anthropic-text.chunks.txt')!;
		const failing = {replay: {wire: 'anthropic' as const, events: [...text.slice(0, 5), BODIES.anthropicOverloaded]}};
		const h = await agentHarness({model: anthropicAt, script: [failing, failing, failing]});
		const outcome = await h.turn('hi');
		expect(outcome.reason).toEqual({kind: 'error', error: {message: 'Overloaded (overloaded_error)', kind: 'overloaded', advice: 'Send again in a while, or switch to another model: the provider is overloaded.'}});
		noObjectObject(h.events);
		const {live} = await h.finish();
		expect(live.at(-1)).toMatchObject({entry: 'turn', outcome: {text: 'error: Overloaded (overloaded_error)', failed: true, advice: 'Send again in a while, or switch to another model: the provider is overloaded.'}});
		// What streamed before the last failure stays, marked cut.
		expect(live.find(entry => entry.entry === 'assistant')).toMatchObject({text: 'Hello! I', interrupted: true});
	}, 30_000);

	it('OpenAI-style: a data: {"error": …} chunk mid-stream is read out and retried', async () => {
		const h = await agentHarness({script: [
			{text: ['Par', 'tial'], streamError: {afterChunks: 2, error: {message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null}}},
			{text: 'Whole.'},
		]});
		expect((await h.turn('hi')).reason).toEqual({kind: 'completed'});
		expect((h.events.find(event => event.type === 'llm/retry')!.data as Record<string, any>).reason).toBe('The server had an error while processing your request. Sorry about that! (server_error)');
		noObjectObject(h.events);
		await h.finish();
	}, 30_000);

	it('an error inside the stream that another attempt cannot cure is not retried: llama.cpp\'s context overflow', async () => {
		const h = await agentHarness({script: [{text: 'x', streamError: {afterChunks: 0, error: BODIES.llamaContext.error}}, {text: 'never'}]});
		const outcome = await h.turn('hi');
		expect(outcome.reason).toMatchObject({kind: 'error', error: {kind: 'context-overflow', status: 400, message: expect.stringMatching(/^the request exceeds the available context size.*\(exceed_context_size_error\)$/)}});
		expect(h.server.requests).toHaveLength(1);
		await h.finish();
	}, 30_000);
});

describe('retry timing: the wait the provider asks for', () => {
	it('honours Retry-After as an HTTP-date (not cut to cardterm\'s own backoff cap)', async () => {
		const h = await agentHarness({script: [{status: 429, error: 'Rate limit reached', retryAfter: new Date(Date.now() + 2000).toUTCString()}, {text: 'ok'}]});
		const started = Date.now();
		expect((await h.turn('hi')).reason).toEqual({kind: 'completed'});
		const retry = h.events.find(event => event.type === 'llm/retry')!.data as Record<string, any>;
		// An HTTP-date has whole seconds: the wait is between one and two of them.
		expect(retry.delayMs).toBeGreaterThan(900);
		expect(retry.delayMs).toBeLessThanOrEqual(2000);
		expect(Date.now() - started).toBeGreaterThanOrEqual(retry.delayMs as number);
		await h.finish();
	}, 30_000);

	it('honours Gemini\'s RetryInfo.retryDelay from the 429 body: the notice counts from 37s', async () => {
		const h = await agentHarness({model: geminiAt, script: [{status: 429, errorBody: BODIES.geminiRateLimit}, {status: 500, error: 'never asked'}]});
		const controller = new AbortController();
		h.session.log.listen(event => {
			if (event.type === 'llm/retry') {
				controller.abort();
			}
		});
		const outcome = await h.turn('hi', controller.signal);
		const retry = h.events.find(event => event.type === 'llm/retry')!.data as Record<string, any>;
		expect(retry).toMatchObject({delayMs: 37_000, error: {kind: 'rate-limit', status: 429}});
		expect(retry.reason).toMatch(/^You exceeded your current quota.*\(RESOURCE_EXHAUSTED\)$/);
		expect(outcome.reason).toEqual({kind: 'aborted', reason: {kind: 'user'}});
		expect(h.server.requests).toHaveLength(1);
		await h.finish();
	}, 30_000);

	it('a wait longer than the bound ends the turn naming it when nobody can cancel (-p)', async () => {
		const h = await agentHarness({agent: {longWaits: 'stop'}, script: [{status: 429, error: 'Rate limit reached', retryAfter: 300}, {text: 'never'}]});
		const outcome = await h.turn('hi');
		expect(outcome.reason).toEqual({kind: 'error', error: {message: 'Rate limit reached; the provider asks to wait 300s before another attempt, longer than a turn without a person waits (60s)', kind: 'rate-limit', status: 429, advice: 'Wait 300s, as the provider asks, and send again: the provider limits how often it may be asked.'}});
		expect(h.server.requests).toHaveLength(1);
		await h.finish();
	}, 30_000);

	it('a wait longer than the bound is taken, said, and cancellable when a person is there', async () => {
		const h = await agentHarness({agent: {longWaits: 'wait'}, script: [{status: 503, error: 'down for maintenance', retryAfter: 300}, {text: 'never'}]});
		const controller = new AbortController();
		h.session.log.listen(event => {
			if (event.type === 'llm/retry') {
				setTimeout(() => controller.abort(), 50);
			}
		});
		const outcome = await h.turn('hi', controller.signal);
		expect(h.events.find(event => event.type === 'llm/retry')!.data).toMatchObject({delayMs: 300_000, reason: 'down for maintenance; waiting 300s as the provider asks (cancel to stop)'});
		expect(outcome.reason.kind).toBe('aborted');
		expect(h.server.requests).toHaveLength(1);
		await h.finish();
	}, 30_000);
});

describe('failures another attempt cannot cure are not retried', () => {
	it('insufficient_quota (a 429), an invalid key (401) and a context overflow (400) each end the turn after one request', async () => {
		for (const [answer, kind] of [
			[{status: 429, errorBody: BODIES.insufficientQuota}, 'quota'],
			[{status: 401, errorBody: BODIES.invalidKey}, 'auth'],
			[{status: 403, error: 'Your API key does not have access to this model', type: 'permission_error'}, 'auth'],
			[{status: 400, errorBody: BODIES.openaiContext}, 'context-overflow'],
			[{status: 400, errorBody: BODIES.deepseekContext}, 'context-overflow'],
		] as const) {
			const h = await agentHarness({retry: {...quickRetries, maxRetries: 4}, script: [answer, {text: 'never'}]});
			const outcome = await h.turn('hi');
			expect(outcome.reason).toMatchObject({kind: 'error', error: {kind}});
			expect(h.server.requests).toHaveLength(1);
			expect(h.events.some(event => event.type === 'llm/retry')).toBe(false);
			await h.finish();
		}
	}, 30_000);

	it('the provider\'s code names the failure: (insufficient_quota), (invalid_api_key)', async () => {
		const h = await agentHarness({script: [{status: 429, errorBody: BODIES.insufficientQuota}]});
		const outcome = await h.turn('hi');
		expect(outcome.reason.kind === 'error' && outcome.reason.error.message).toMatch(/^You exceeded your current quota, please check your plan and billing details\..*\(insufficient_quota\)$/);
		await h.finish();
	}, 30_000);

	it('a context overflow goes to the loop\'s hook (issue 17\'s compaction): when it shrank the conversation, the request is sent again once', async () => {
		const seen: ModelError[] = [];
		const h = await agentHarness({
			script: [{status: 400, errorBody: BODIES.openaiContext}, {text: 'Fits now.'}],
			agent: {onContextOverflow: async error => {
				seen.push(error);
				return true;
			}},
		});
		expect((await h.turn('hi')).reason).toEqual({kind: 'completed'});
		expect(seen.map(error => [error.kind, error.code, error.status])).toEqual([['context-overflow', 'context_length_exceeded', 400]]);
		expect((h.events.find(event => event.type === 'llm/retry')!.data as Record<string, any>).reason).toMatch(/; the conversation was made smaller$/);
		// Once per step: a second overflow ends the turn.
		h.server.push({status: 400, errorBody: BODIES.anthropicContext}, {status: 400, errorBody: BODIES.anthropicContext});
		expect((await h.turn('again')).reason).toMatchObject({kind: 'error', error: {kind: 'context-overflow'}});
		expect(seen).toHaveLength(2);
		await h.finish();
	}, 30_000);
});
