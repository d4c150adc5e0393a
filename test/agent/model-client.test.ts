import {createServer} from 'node:net';
import {describe, expect, it} from 'vitest';
import {bytesBodyFetch, ModelConfigError, resolveModel, toPrompt} from '../../src/agent/model-client.js';
import type {ConversationMessage} from '../../src/agent/model-types.js';

const env = {OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', GEMINI_API_KEY: 'k', DEEPSEEK_API_KEY: 'k'};

describe('resolveModel', () => {
	it('resolves PROVIDER:MODEL for the known providers', () => {
		expect([resolveModel({spec: 'openai:gpt-4.1', env}), resolveModel({spec: 'anthropic:claude-sonnet-4-5', env}), resolveModel({spec: 'gemini:gemini-2.5-pro', env}), resolveModel({spec: 'deepseek:deepseek-chat', env}), resolveModel({spec: 'ollama:qwen2.5:7b', env: {}})].map(model => `${model.provider} ${model.model}`))
			.toEqual(['openai gpt-4.1', 'anthropic claude-sonnet-4-5', 'google gemini-2.5-pro', 'deepseek deepseek-chat', 'ollama qwen2.5:7b']);
	});

	it('with --base-url, takes the model\'s name as given (colons and all), dropping only a known provider prefix', () => {
		expect(resolveModel({spec: 'qwen2.5:7b', baseUrl: 'http://127.0.0.1:8080/v1', env: {}}).model).toBe('qwen2.5:7b');
		expect(resolveModel({spec: 'openai-compatible:gpt-4.1', baseUrl: 'http://127.0.0.1:8080/v1', env: {}})).toMatchObject({provider: 'openai-compatible', model: 'gpt-4.1'});
	});

	it('says in one line what is wrong with a model setting', () => {
		const message = (spec: string, options: {baseUrl?: string; env?: NodeJS.ProcessEnv} = {}): string => {
			try {
				resolveModel({spec, env: options.env ?? env, ...(options.baseUrl === undefined ? {} : {baseUrl: options.baseUrl})});
			} catch (error) {
				expect(error).toBeInstanceOf(ModelConfigError);
				return (error as Error).message;
			}

			return 'resolved';
		};

		expect(message('gpt-4.1')).toMatch(/^--model needs PROVIDER:MODEL \(for example openai:gpt-4\.1\), got "gpt-4\.1"; providers: openai, anthropic, google/);
		expect(message('acme:big')).toMatch(/^unknown model provider "acme"; providers: /);
		expect(message('anthropic:claude', {env: {}})).toBe('no API key for anthropic: set ANTHROPIC_API_KEY');
		expect(message('google:gemini', {env: {}})).toBe('no API key for google: set GEMINI_API_KEY or GOOGLE_GENERATIVE_AI_API_KEY');
		expect(message('x', {baseUrl: 'not a url'})).toBe('--base-url not a url is not a URL (e.g. http://127.0.0.1:8080/v1)');
		for (const text of [message('gpt-4.1'), message('acme:big')]) {
			expect(text).not.toContain('\n');
		}
	});

	it('reports an unreachable server as a retryable network failure', async () => {
		// A port that was free a moment ago: nothing listens on it.
		const port = await new Promise<number>(resolve => {
			const probe = createServer().listen(0, '127.0.0.1', () => {
				const address = probe.address();
				probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
			});
		});
		const model = resolveModel({spec: 'm', baseUrl: `http://127.0.0.1:${port}/v1`, env: {}});
		const parts = [];
		for await (const part of model.stream({system: 's', messages: [{role: 'user', text: 'hi'}], tools: [], signal: new AbortController().signal})) {
			parts.push(part);
		}

		expect(parts).toHaveLength(1);
		expect(parts[0]).toMatchObject({type: 'error', error: {retryable: true}});
		expect(parts[0]!.type === 'error' && parts[0].error.message).toMatch(/connect|ECONNREFUSED/i);
	});
});

describe('the request a step sends', () => {
	const messages: ConversationMessage[] = [
		{role: 'user', text: 'read it'},
		{role: 'assistant', content: [{type: 'tool-call', id: 'c1', name: 'read', arguments: '{"file_path":"a"}'}, {type: 'tool-call', id: 'c2', name: 'read', arguments: '{"file_path":'}]},
		{role: 'tool', callId: 'c1', name: 'read', text: 'alpha', isError: false},
		{role: 'tool', callId: 'c2', name: 'read', text: 'bad arguments', isError: true},
	];

	it('puts the conversation in the provider\'s prompt shape: arguments parsed, invalid ones sent as {} (Anthropic and Gemini take objects only)', () => {
		expect(toPrompt('sys', messages)).toEqual([
			{role: 'system', content: 'sys'},
			{role: 'user', content: [{type: 'text', text: 'read it'}]},
			{role: 'assistant', content: [{type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: {file_path: 'a'}}, {type: 'tool-call', toolCallId: 'c2', toolName: 'read', input: {}}]},
			// One step's results travel together (Gemini wants N responses in one content).
			{role: 'tool', content: [{type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: {type: 'text', value: 'alpha'}}, {type: 'tool-result', toolCallId: 'c2', toolName: 'read', output: {type: 'error-text', value: 'bad arguments'}}]},
		]);
	});

	it('converts each message once: the next request reuses its prompt form, and only new messages are converted', () => {
		const first = toPrompt('sys', messages);
		const next = toPrompt('sys', [...messages, {role: 'user', text: 'again'}]);
		expect(next[1]).toBe(first[1]);
		expect(next[2]).toBe(first[2]);
		// A step's results are regrouped on every request, around the same result parts.
		const parts = (prompt: typeof first) => (prompt[3] as {content: unknown[]}).content;
		expect(parts(next).every((part, index) => part === parts(first)[index])).toBe(true);
		expect(next.at(-1)).toEqual({role: 'user', content: [{type: 'text', text: 'again'}]});
		// A message equal to one seen but not the same object is converted on its own.
		expect(toPrompt('sys', [{role: 'user', text: 'read it'}])[1]).not.toBe(first[1]);
	});

	it('sends a text body as its UTF-8 bytes, and other bodies as they are', async () => {
		const seen: Array<RequestInit | undefined> = [];
		const send = bytesBodyFetch(async (_input, init) => {
			seen.push(init);
			return new Response('ok');
		});
		await send('http://127.0.0.1/v1', {method: 'POST', body: '{"text":"é ✓"}', headers: {'content-type': 'application/json'}});
		const bytes = new Uint8Array([1, 2]);
		await send('http://127.0.0.1/v1', {method: 'POST', body: bytes});
		await send('http://127.0.0.1/v1');
		expect(Buffer.isBuffer(seen[0]!.body)).toBe(true);
		expect((seen[0]!.body as Buffer).toString('utf8')).toBe('{"text":"é ✓"}');
		expect(seen[0]).toMatchObject({method: 'POST', headers: {'content-type': 'application/json'}});
		expect(seen[1]!.body).toBe(bytes);
		expect(seen[2]).toBeUndefined();
	});
});
