import {describe, expect, it} from 'vitest';
import {errorFacts} from '../../src/agent/error-facts.js';

describe('errorFacts: any error value read out, never [object Object]', () => {
	it('reads the provider objects an SDK hands over from a stream\'s error event', () => {
		// Anthropic `event: error` (Helicone/helicone#4678): the SDK yields `value.error`.
		expect(errorFacts({details: null, type: 'overloaded_error', message: 'Overloaded'})).toEqual({message: 'Overloaded', type: 'overloaded_error'});
		// The whole event, wrapper and all.
		expect(errorFacts({type: 'error', error: {type: 'overloaded_error', message: 'Overloaded'}})).toEqual({message: 'Overloaded', type: 'overloaded_error'});
		// OpenAI-style `data: {"error": …}` (the openai-compatible SDK yields `chunk.error`).
		expect(errorFacts({message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null}))
			.toEqual({message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error'});
	});

	it('reads nested error.error.message, arrays, numeric codes and Gemini\'s status', () => {
		expect(errorFacts({error: {error: {message: 'deep', code: 'deep_code'}}})).toEqual({message: 'deep', code: 'deep_code'});
		// Gemini answers some failures with an array of one error (google-gemini/gemini-cli#6678).
		expect(errorFacts([{error: {code: 400, message: 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT'}}]))
			.toEqual({message: 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).', status: 400, type: 'INVALID_ARGUMENT'});
		// llama.cpp's in-stream context error (ggml-org/llama.cpp#15780).
		expect(errorFacts({code: 400, message: 'the request exceeds the available context size. try increasing the context size or enable context shift', type: 'exceed_context_size_error', n_prompt_tokens: 14_429, n_ctx: 8192}))
			.toMatchObject({status: 400, type: 'exceed_context_size_error'});
	});

	it('reads strings, JSON text, Errors and their cause chains', () => {
		expect(errorFacts('plain words')).toEqual({message: 'plain words'});
		expect(errorFacts('{"error":{"message":"from json","type":"t"}}')).toEqual({message: 'from json', type: 't'});
		expect(errorFacts(new Error('fetch failed', {cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {code: 'ECONNREFUSED'})})))
			.toEqual({message: 'fetch failed', code: 'ECONNREFUSED'});
		// An Error without a message gives way to its cause's.
		expect(errorFacts(new Error('', {cause: {message: 'the real reason'}}))).toEqual({message: 'the real reason'});
		// A call error's body carries the provider's type and code (here OpenAI's insufficient_quota, NextChat#4101).
		const callError = Object.assign(new Error('You exceeded your current quota, please check your plan and billing details.'), {
			statusCode: 429,
			responseBody: JSON.stringify({error: {message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota'}}),
		});
		expect(errorFacts(callError)).toEqual({message: 'You exceeded your current quota, please check your plan and billing details.', status: 429, type: 'insufficient_quota', code: 'insufficient_quota'});
	});

	it('gives a line for circular, message-less, hostile and empty values', () => {
		const circular: Record<string, unknown> = {type: 'weird_error'};
		circular.self = circular;
		circular.error = circular;
		expect(errorFacts(circular).message).toBe('{"type":"weird_error","self":"[circular]","error":"[circular]"}');
		expect(errorFacts(circular).type).toBe('weird_error');

		const hostile = {get message(): string {
			throw new Error('boom');
		}, toJSON() {
			throw new Error('no');
		}};
		expect(errorFacts(hostile).message).toBe('unknown error (Object without a message)');
		expect(errorFacts({}).message).toBe('unknown error (Object without a message)');
		expect(errorFacts(undefined).message).toBe('unknown error');
		expect(errorFacts(null).message).toBe('unknown error');
		expect(errorFacts(42).message).toBe('42');
		expect(errorFacts({code: 7n}).message).toBe('{"code":"7"}');
		for (const value of [{}, [], [{}], {error: {}}, new Error(''), Object.create(null)]) {
			expect(errorFacts(value).message).not.toMatch(/\[object Object\]|^$/);
		}
	});

	it('keeps a message on one line and bounded, and does not follow a cause chain forever', () => {
		expect(errorFacts({message: 'two\nlines\t here'}).message).toBe('two lines here');
		expect(errorFacts({message: 'x'.repeat(10_000)}).message).toHaveLength(2001);
		let chain: Record<string, unknown> = {message: 'bottom'};
		for (let depth = 0; depth < 1000; depth++) {
			chain = {cause: chain};
		}

		expect(errorFacts(chain).message).toMatch(/^\{"cause"/);
	});
});
