/**
Conversations the providers accept (issue 26): `cardterm -p` against the strict fake provider of each
wire (test/fixtures/wire/), which refuses what the real provider refuses. Each test runs a tool loop
(and a `--continue` of it, rebuilt from the log) and checks what went back: DeepSeek's
reasoning_content, Anthropic's signed thinking, Gemini's N responses in one content and its real
thought signatures, the Responses API's encrypted reasoning; and what cardterm sends at all: a base
URL for every provider, Anthropic's cache breakpoints, a byte-stable prefix, the output limit.
*/
import {mkdtemp, readdir, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {resolveModel} from '../../src/agent/model-client.js';
import {main} from '../../src/cli/main.js';
import {formatUsage} from '../../src/layout/text/format.js';
import {fakeIo} from '../cli/cli-io-fake.js';
import {startProviderServer, type ProviderAnswer, type ProviderServer} from '../fixtures/wire/provider-server.mjs';

let workspace: string;
let sessions: string;
let config: string;
beforeEach(async () => {
	workspace = await mkdtemp(join(tmpdir(), 'cardterm-wires-'));
	sessions = await mkdtemp(join(tmpdir(), 'cardterm-wires-sessions-'));
	config = await mkdtemp(join(tmpdir(), 'cardterm-wires-config-'));
	await writeFile(join(workspace, 'hello.txt'), 'hello world\n');
	await writeFile(join(workspace, 'A'), 'alpha\n');
	await writeFile(join(workspace, 'B'), 'beta\n');
});
afterEach(async () => {
	for (const dir of [workspace, sessions, config]) {
		await rm(dir, {recursive: true, force: true});
	}
});

const keys = {OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', GEMINI_API_KEY: 'k', DEEPSEEK_API_KEY: 'k'};

/** One `-p` turn against a fresh provider server; `prefix` is the provider's path (`/v1`, `/v1beta`). */
async function runP(script: ProviderAnswer[], model: string, prefix: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<{code: number; out: string; err: string; server: ProviderServer}> {
	const server = await startProviderServer({script});
	const io = fakeIo({cwd: workspace, env: {...keys, XDG_CONFIG_HOME: config, ...env}});
	try {
		const code = await main(['-p', 'Read the files', '--model', model, '--base-url', `${server.url}${prefix}`, '--session-dir', sessions, '--json', '--yolo', ...extra], io);
		return {code, out: io.out(), err: io.err(), server};
	} finally {
		await server.close();
	}
}

const entries = (out: string): Array<Record<string, any>> => out.trimEnd().split('\n').map(line => JSON.parse(line) as Record<string, any>);

describe('DeepSeek (and Kimi) thinking mode: reasoning_content goes back with the calls', () => {
	const loop: ProviderAnswer[] = [
		{reasoning: 'I should read the file first.', toolCalls: [{id: 'call_1', name: 'read', args: '{"file_path":"hello.txt"}'}]},
		{reasoning: 'It says hello.', text: 'It says hello world.'},
	];

	it('a tool loop is accepted: the assistant message that called carries the reasoning it streamed; --continue sends the same', async () => {
		const first = await runP(loop, 'deepseek:deepseek-reasoner', '/v1');
		expect(first.server.refusals).toEqual([]);
		expect(first.code).toBe(0);
		const called = first.server.requests[1]!.body.messages.find((message: any) => message.tool_calls !== undefined);
		expect(called.reasoning_content).toBe('I should read the file first.');

		const next = await runP([{text: 'You asked me to read the files.'}], 'deepseek:deepseek-reasoner', '/v1', ['--continue']);
		expect(next.code).toBe(0);
		const resumed = next.server.requests[0]!.body.messages;
		// The resumed request holds the first turn as the live one sent it.
		expect(resumed.slice(0, first.server.requests[1]!.body.messages.length)).toEqual(first.server.requests[1]!.body.messages);
		// The answer of a turn is sent back too, as DeepSeek's docs allow (it ignores it), so the prefix stays the same.
		expect(resumed.filter((message: any) => message.role === 'assistant').map((message: any) => message.reasoning_content)).toEqual(['I should read the file first.', 'It says hello.']);
	}, 30_000);

	it('the provider refuses the old request (no reasoning_content) with its documented body', async () => {
		const server = await startProviderServer({script: [loop[0]!]});
		try {
			// What cardterm sent before issue 26: the calling message without its reasoning.
			await fetch(`${server.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({model: 'deepseek-reasoner', stream: true, messages: [{role: 'user', content: 'hi'}]})}).then(async response => response.text());
			const refused = await fetch(`${server.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({model: 'deepseek-reasoner', messages: [
				{role: 'user', content: 'hi'},
				{role: 'assistant', content: null, tool_calls: [{id: 'call_1', type: 'function', function: {name: 'read', arguments: '{"file_path":"hello.txt"}'}}]},
				{role: 'tool', tool_call_id: 'call_1', content: 'hello world'},
			]})});
			expect(refused.status).toBe(400);
			expect(await refused.json()).toEqual({error: {message: 'Missing `reasoning_content` field in the assistant message at message index 1. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls', type: 'invalid_request_error', param: null, code: 'invalid_request_error'}});
		} finally {
			await server.close();
		}
	});
});

describe('Anthropic: thinking blocks with their signatures go back during tool use', () => {
	it('the calling turn starts with its signed thinking block, live and after --continue', async () => {
		const first = await runP([
			{reasoning: 'Read it first.', signature: 'sig-abc', toolCalls: [{id: 'toolu_1', name: 'read', args: '{"file_path":"hello.txt"}'}]},
			{text: 'It says hello world.'},
		], 'anthropic:claude-sonnet-4-5', '/v1');
		expect(first.server.refusals).toEqual([]);
		expect(first.code).toBe(0);
		const assistant = first.server.requests[1]!.body.messages.find((message: any) => message.role === 'assistant');
		expect(assistant.content[0]).toEqual({type: 'thinking', thinking: 'Read it first.', signature: 'sig-abc'});
		const next = await runP([{text: 'Yes.'}], 'anthropic:claude-sonnet-4-5', '/v1', ['--continue']);
		expect(next.code).toBe(0);
		expect(next.server.requests[0]!.body.messages[1].content[0]).toEqual({type: 'thinking', thinking: 'Read it first.', signature: 'sig-abc'});
	}, 30_000);

	it('caches the system prompt, the tools and the growing conversation (4 breakpoints at most); usage shows cache reads and writes', async () => {
		const {code, out, server} = await runP([
			{toolCalls: [{id: 'toolu_1', name: 'read', args: '{"file_path":"hello.txt"}'}], usage: {input: 20, output: 5, cacheWrite: 3000}},
			{text: 'Done.', usage: {input: 30, output: 4, cacheRead: 3000, cacheWrite: 200}},
		], 'anthropic:claude-sonnet-4-5', '/v1');
		expect(code).toBe(0);
		const [step1, step2] = server.requests.map(request => request.body);
		for (const body of [step1, step2]) {
			expect(body.system.at(-1).cache_control).toEqual({type: 'ephemeral'});
			expect(body.tools.at(-1).cache_control).toEqual({type: 'ephemeral'});
			expect(body.messages.at(-1).content.at(-1).cache_control).toEqual({type: 'ephemeral'});
		}

		// Step 2 also marks where step 1's request ended, so it reads what step 1 wrote.
		expect(step2.messages[0].content.at(-1).cache_control).toEqual({type: 'ephemeral'});
		const turn = entries(out).find(entry => entry.entry === 'turn')!;
		expect(turn.usage).toEqual({inputTokens: 20 + 3000 + 30 + 3000 + 200, outputTokens: 9, cacheReadTokens: 3000, cacheWriteTokens: 3200});
		// The turn rule words them.
		expect(formatUsage(turn.usage)).toBe('6 250 in · 9 out · 3 000 cached · 3 200 cache writes');
	}, 30_000);

	it('the provider\'s own web search is a web card of what it did, never a local call, and is not sent back', async () => {
		const {code, out} = await runP([{fixture: 'anthropic/anthropic-web-search-tool.1.chunks.txt'}], 'anthropic:claude-sonnet-4-20250514', '/v1');
		expect(code).toBe(0);
		const cards = entries(out).filter(entry => entry.entry === 'card');
		expect(cards.map(card => [card.name, card.outcome, card.result.card, card.result.kind])).toEqual([['provider_web_search', 'ok', 'web', 'search']]);
		expect(cards[0]!.result.sources.length).toBeGreaterThan(3);
		const next = await runP([{text: 'Those were the news.'}], 'anthropic:claude-sonnet-4-20250514', '/v1', ['--continue']);
		expect(next.code).toBe(0);
		const sent = JSON.stringify(next.server.requests[0]!.body.messages);
		expect(sent).not.toMatch(/server_tool_use|web_search_tool_result|srvtoolu_|"tool_use"/);
	}, 30_000);
});

describe('Gemini: N parallel calls are answered by one content of N responses, with the real thought signature', () => {
	it('accepts the tool loop; the first call of the turn carries the signature the model gave, never the SDK\'s placeholder', async () => {
		const {code, server} = await runP([
			{toolCalls: [{id: 'a', name: 'read', args: '{"file_path":"A"}'}, {id: 'b', name: 'read', args: '{"file_path":"B"}'}]},
			{text: 'alpha and beta'},
		], 'google:gemini-3-pro-preview', '/v1beta');
		expect(server.refusals.map(refusal => refusal.error)).toEqual([]);
		expect(code).toBe(0);
		const contents = server.requests[1]!.body.contents;
		const model = contents.find((content: any) => content.role === 'model');
		expect(model.parts[0].thoughtSignature).toBe('sig-a-cmVhZA==');
		const answer = contents[contents.indexOf(model) + 1];
		expect(answer.parts.map((part: any) => part.functionResponse?.name)).toEqual(['read', 'read']);
		expect(server.sentinels).toBe(0);
	}, 30_000);

	it('a recorded stream of four calls (Gemini 3) goes on after them, also after --continue', async () => {
		const first = await runP([{fixture: 'google/google-stream-no-args-tool-call.chunks.txt'}, {text: 'done'}], 'google:gemini-3-flash-preview', '/v1beta');
		expect(first.server.refusals.map(refusal => refusal.error)).toEqual([]);
		expect(first.code).toBe(0);
		const next = await runP([{text: 'again'}], 'google:gemini-3-flash-preview', '/v1beta', ['--continue']);
		expect(next.server.refusals.map(refusal => refusal.error)).toEqual([]);
		expect(next.code).toBe(0);
		expect(next.server.sentinels).toBe(0);
	}, 30_000);
});

describe('OpenAI Responses API for the models that exist only there', () => {
	it('gpt-5-codex speaks /responses statelessly: reasoning summaries are reasoning, the encrypted reasoning goes back with the call', async () => {
		const {code, out, server} = await runP([
			{reasoning: 'Reading the file.', toolCalls: [{id: 'call_9', name: 'read', args: '{"file_path":"hello.txt"}'}]},
			{text: 'hello world'},
		], 'openai:gpt-5-codex', '/v1');
		expect(server.refusals.map(refusal => refusal.error)).toEqual([]);
		expect(code).toBe(0);
		expect(server.requests.map(request => request.wire)).toEqual(['responses', 'responses']);
		const body = server.requests[1]!.body;
		expect(body.store).toBe(false);
		expect(body.include).toContain('reasoning.encrypted_content');
		const reasoning = body.input.find((item: any) => item.type === 'reasoning');
		expect(reasoning).toMatchObject({id: 'rs_1', encrypted_content: expect.stringMatching(/^enc-1-/)});
		expect(entries(out).find(entry => entry.entry === 'assistant')!.reasoning).toBe('Reading the file.');
	}, 30_000);

	it('openai-responses:MODEL forces the wire; other OpenAI models stay on Chat Completions', async () => {
		const forced = await runP([{text: 'hi'}], 'openai-responses:gpt-4.1', '/v1');
		expect(forced.server.requests.map(request => request.wire)).toEqual(['responses']);
		const chat = await runP([{text: 'hi'}], 'openai:gpt-4.1', '/v1');
		expect(chat.server.requests.map(request => request.wire)).toEqual(['chat']);
	}, 30_000);
});

describe('what a step sends', () => {
	it('nothing but appended messages changes between two steps (OpenAI-compatible and Gemini cache a prefix implicitly)', async () => {
		for (const [model, prefix, list] of [['deepseek:deepseek-chat', '/v1', 'messages'], ['google:gemini-2.5-pro', '/v1beta', 'contents']] as const) {
			// eslint-disable-next-line no-await-in-loop -- one provider after the other
			const {server} = await runP([
				{toolCalls: [{id: 'c1', name: 'read', args: '{"file_path":"hello.txt"}'}]},
				{toolCalls: [{id: 'c2', name: 'read', args: '{"file_path":"A"}'}]},
				{text: 'done'},
			], model, prefix);
			const bodies = server.requests.map(request => request.body);
			for (const [earlier, later] of [[bodies[0], bodies[1]], [bodies[1], bodies[2]]]) {
				const {[list]: before, ...restBefore} = earlier;
				const {[list]: after, ...restAfter} = later;
				expect(JSON.stringify(restAfter)).toBe(JSON.stringify(restBefore));
				expect(JSON.stringify(after.slice(0, before.length))).toBe(JSON.stringify(before));
			}
		}
	}, 30_000);

	it('the model\'s own output limit, from the catalog; none for a model it does not know', async () => {
		const reasoner = await runP([{text: 'ok'}], 'deepseek:deepseek-reasoner', '/v1');
		expect(reasoner.server.requests[0]!.body.max_tokens).toBe(65_536);
		const chat = await runP([{text: 'ok'}], 'deepseek:deepseek-chat', '/v1');
		expect(chat.server.requests[0]!.body.max_tokens).toBe(8192);
		const gemini = await runP([{text: 'ok'}], 'google:gemini-2.5-pro', '/v1beta');
		expect(gemini.server.requests[0]!.body.generationConfig.maxOutputTokens).toBe(65_536);
		const unknown = await runP([{text: 'ok'}], 'some-local-model', '/v1');
		expect(unknown.server.requests[0]!.body.max_tokens).toBeUndefined();
	}, 30_000);

	it('the system prompt does not list the tools (the schemas carry them), and web_search is not offered without a search backend', async () => {
		const {server} = await runP([{text: 'ok'}], 'deepseek:deepseek-chat', '/v1', [], {CARDTERM_SEARXNG_URL: ''});
		const body = server.requests[0]!.body;
		const system = body.messages[0].content as string;
		expect(system).not.toMatch(/Tools:|- read:|- bash:/);
		const offered = body.tools.map((tool: any) => tool.function.name);
		expect(offered).toContain('web_fetch');
		expect(offered).not.toContain('web_search');
	}, 30_000);
});

describe('a base URL for every provider', () => {
	it('--base-url with PROVIDER:MODEL keeps that provider\'s wire and key variable', async () => {
		for (const [model, prefix, wire, header] of [['anthropic:claude-sonnet-4-5', '/v1', 'anthropic', 'x-api-key'], ['google:gemini-2.5-pro', '/v1beta', 'gemini', 'x-goog-api-key'], ['deepseek:deepseek-chat', '/v1', 'chat', 'authorization'], ['openrouter:anthropic/claude-sonnet-4.5', '/v1', 'chat', 'authorization']] as const) {
			// eslint-disable-next-line no-await-in-loop -- one provider after the other
			const {code, server} = await runP([{text: 'ok'}], model, prefix, [], {OPENROUTER_API_KEY: 'router-key', ANTHROPIC_API_KEY: 'anthropic-key', GEMINI_API_KEY: 'gemini-key', DEEPSEEK_API_KEY: 'deepseek-key'});
			expect(code).toBe(0);
			expect(server.requests.map(request => request.wire)).toEqual([wire]);
			expect(String(server.requests[0]!.headers[header])).toMatch(/(anthropic|gemini|deepseek|router)-key/);
		}
	}, 30_000);

	it('per-provider settings (the config module\'s): a base URL and the variable the key is read from', () => {
		const model = resolveModel({spec: 'anthropic:claude-sonnet-4-5', env: {GATEWAY_KEY: 'g'}, providers: {anthropic: {baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'GATEWAY_KEY'}}});
		expect(model.provider).toBe('anthropic');
		expect(() => resolveModel({spec: 'anthropic:claude-sonnet-4-5', env: {}, providers: {anthropic: {apiKeyEnv: 'GATEWAY_KEY'}}})).toThrow('no API key for anthropic: set GATEWAY_KEY');
		expect(() => resolveModel({spec: 'google:gemini-2.5-pro', env: {GEMINI_API_KEY: 'k'}, providers: {google: {baseUrl: 'not a url'}}})).toThrow('the google base URL not a url is not a URL');
	});

	it('cardterm --help lists the agent flags first', async () => {
		const io = fakeIo();
		expect(await main(['--help'], io)).toBe(0);
		const help = io.out();
		for (const flag of ['-p PROMPT', '--model PROVIDER:MODEL', '--base-url URL', '--yolo', '--continue', '--resume ID', '--system-prompt FILE', '--max-steps N']) {
			expect(help).toContain(flag);
			expect(help.indexOf(flag)).toBeLessThan(help.indexOf('cardterm replay'));
		}
	});
});

describe('the log keeps what a resumed session needs', () => {
	it('records the provider\'s metadata on the assistant/message blocks', async () => {
		await runP([
			{reasoning: 'Read it first.', signature: 'sig-log', toolCalls: [{id: 'toolu_1', name: 'read', args: '{"file_path":"hello.txt"}'}]},
			{text: 'ok'},
		], 'anthropic:claude-sonnet-4-5', '/v1');
		const [id] = await readdir(sessions);
		const lines = (await readFile(join(sessions, id!, 'session.jsonl'), 'utf8')).trimEnd().split('\n').map(line => JSON.parse(line) as {type: string; data: any});
		const message = lines.find(line => line.type === 'assistant/message')!;
		expect(message.data.message.content[0]).toEqual({type: 'reasoning', text: 'Read it first.', providerMetadata: {anthropic: {signature: 'sig-log'}}});
	}, 30_000);
});
