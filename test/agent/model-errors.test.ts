import {describe, expect, it} from 'vitest';
import {errorFacts} from '../../src/agent/error-facts.js';
import {classifyModelError, errorAdvice, serverRetryDelayMs} from '../../src/agent/model-errors.js';
import {BODIES} from './provider-error-bodies.js';

const classify = (body: unknown, status?: number, inStream = false) => classifyModelError(errorFacts(body), {...(status === undefined ? {} : {status}), inStream});

describe('classifyModelError on the providers\' own error bodies', () => {
	it('never retries an exhausted quota, a refused key or a context overflow, and names each', () => {
		expect(classify(BODIES.insufficientQuota, 429)).toMatchObject({kind: 'quota', retryable: false, status: 429, message: expect.stringMatching(/^You exceeded your current quota.*\(insufficient_quota\)$/)});
		expect(classify(BODIES.invalidKey, 401)).toMatchObject({kind: 'auth', retryable: false, code: 'invalid_api_key', message: expect.stringMatching(/\(invalid_api_key\)$/)});
		for (const [body, status] of [[BODIES.openaiContext, 400], [BODIES.deepseekContext, 400], [BODIES.anthropicContext, 400], [BODIES.geminiContext, 400], [BODIES.llamaContext, undefined]] as const) {
			expect(classify(body, status, status === undefined)).toMatchObject({kind: 'context-overflow', retryable: false});
		}

		expect(classify({error: {message: 'Insufficient Balance', type: 'unknown_error'}}, 402)).toMatchObject({kind: 'quota', retryable: false});
	});

	it('retries rate limits, overloads and server errors, also inside a 200 stream', () => {
		expect(classify(BODIES.geminiRateLimit, 429)).toMatchObject({kind: 'rate-limit', retryable: true, type: 'RESOURCE_EXHAUSTED'});
		expect(classify(BODIES.anthropicOverloaded, undefined, true)).toMatchObject({kind: 'overloaded', retryable: true, message: 'Overloaded (overloaded_error)'});
		expect(classify({error: {message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error'}}, undefined, true)).toMatchObject({kind: 'server', retryable: true});
		// An unknown error inside an accepted stream is the provider's hiccup; outside one, nothing says so.
		expect(classify({message: 'something odd'}, undefined, true)).toMatchObject({kind: 'server', retryable: true});
		expect(classify({message: 'something odd'})).toMatchObject({kind: 'other', retryable: false});
		expect(classify({message: 'bad field', type: 'invalid_request_error'}, undefined, true)).toMatchObject({kind: 'other', retryable: false, message: 'bad field'});
		expect(classify({message: 'busy'}, 529)).toMatchObject({kind: 'overloaded', retryable: true});
		expect(classify({message: 'nope'}, 404)).toMatchObject({kind: 'invalid-request', retryable: false});
	});
});

describe('errorAdvice: what a person does next about each kind of failure', () => {
	it('starts with the action and says why, for the providers\' own bodies', () => {
		const advice = (body: unknown, status?: number, context = {}) => errorAdvice(classify(body, status), context);
		expect(advice(BODIES.invalidKey, 401, {keyVariable: 'OPENAI_API_KEY'})).toBe('Check the API key in OPENAI_API_KEY: the provider refused it.');
		expect(advice({error: {message: 'no access', type: 'permission_error'}}, 403)).toBe('Check the API key: the provider refused it, or does not let it use this model.');
		expect(advice(BODIES.insufficientQuota, 429)).toMatch(/^Check your plan and billing with the provider: .*cannot succeed\.$/);
		for (const [body, status] of [[BODIES.openaiContext, 400], [BODIES.anthropicContext, 400], [BODIES.geminiContext, 400]] as const) {
			expect(advice(body, status)).toMatch(/^Start a new session, or switch to a model with a larger context window/);
		}

		expect(errorAdvice({...classify(BODIES.geminiRateLimit, 429), retryAfterMs: 37_000})).toBe('Wait 37s, as the provider asks, and send again: the provider limits how often it may be asked.');
		expect(advice({message: 'slow down'}, 429)).toBe('Wait a minute and send again: the provider limits how often it may be asked.');
		expect(advice(BODIES.anthropicOverloaded, 529)).toMatch(/^Send again in a while, or switch to another model/);
		expect(advice({message: 'oops'}, 500)).toMatch(/^Send again: the provider failed, not your request/);
		expect(advice({message: 'no such model'}, 404)).toMatch(/^Check the model's name and the server's address/);
		expect(advice({message: 'bad request'}, 400)).toMatch(/^Check the model's name and that it takes tool calls/);
		expect(errorAdvice({kind: 'network'}, {endpoint: 'http://127.0.0.1:9/v1'})).toBe('Check the network connection and the server\'s address (http://127.0.0.1:9/v1): the model\'s server could not be reached.');
		expect(errorAdvice({kind: 'stall'})).toMatch(/agent\.stallTimeoutMs/);
		expect(advice({message: 'something odd'})).toBeUndefined();
	});
});

describe('serverRetryDelayMs: the wait a provider asks for', () => {
	const now = Date.UTC(2026, 0, 15, 9, 30, 0);
	it('reads Retry-After in seconds and as an HTTP-date, and OpenAI\'s retry-after-ms', () => {
		expect(serverRetryDelayMs({'retry-after': '7'}, undefined, now)).toBe(7000);
		expect(serverRetryDelayMs({'retry-after': '1.5'}, undefined, now)).toBe(1500);
		expect(serverRetryDelayMs({'retry-after': new Date(now + 90_000).toUTCString()}, undefined, now)).toBe(90_000);
		expect(serverRetryDelayMs({'retry-after': new Date(now - 5000).toUTCString()}, undefined, now)).toBe(0);
		expect(serverRetryDelayMs({'retry-after-ms': '250', 'retry-after': '1'}, undefined, now)).toBe(250);
		expect(serverRetryDelayMs({'retry-after': 'soon'}, undefined, now)).toBeUndefined();
		expect(serverRetryDelayMs(undefined, undefined, now)).toBeUndefined();
	});

	it('reads Gemini\'s RetryInfo.retryDelay from the error body, as an object or an array', () => {
		expect(serverRetryDelayMs({}, JSON.stringify(BODIES.geminiRateLimit), now)).toBe(37_000);
		expect(serverRetryDelayMs({}, JSON.stringify([BODIES.geminiRateLimit]), now)).toBe(37_000);
		expect(serverRetryDelayMs({}, JSON.stringify({error: {details: [{'@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: {seconds: 2, nanos: 500_000_000}}]}}), now)).toBe(2500);
		expect(serverRetryDelayMs({}, 'RetryInfo but not JSON', now)).toBeUndefined();
		// The header wins over the body.
		expect(serverRetryDelayMs({'retry-after': '3'}, JSON.stringify(BODIES.geminiRateLimit), now)).toBe(3000);
	});
});
