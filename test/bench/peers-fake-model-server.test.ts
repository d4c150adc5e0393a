import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';

type Entry = {kind?: string; step?: number; calls?: number; tool?: string; api?: string; arrival: number; end: number; bytes?: number; fixedBytes?: number; cachedBytes?: number};
type ServerModule = {
	startFakeModelServer(options: {onRequest: (entry: Entry) => void}): Promise<{port: number; close: () => Promise<void>}>;
};
type ScriptModule = {benchPrompt: (calls: number) => string; benchBatchPrompt: (calls: number, batch: number) => string; doneMarker: (calls: number) => string; streamPrompt: (chunks: number) => string};

const folder = join(import.meta.dirname, '../../bench/peers');
const load = async <T>(name: string): Promise<T> => import(pathToFileURL(join(folder, name)).href) as Promise<T>;
const {startFakeModelServer} = await load<ServerModule>('fake-model-server.mjs');
const {benchPrompt, benchBatchPrompt, doneMarker, streamPrompt} = await load<ScriptModule>('script-step.mjs');

let server: {port: number; close: () => Promise<void>};
const entries: Entry[] = [];

beforeAll(async () => {
	server = await startFakeModelServer({onRequest: entry => entries.push(entry)});
});

afterAll(async () => {
	await server.close();
});

async function post(path: string, body: unknown): Promise<string> {
	const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {method: 'POST', body: JSON.stringify(body)});
	expect(response.status).toBe(200);
	return response.text();
}

/** The JSON payloads of an SSE body's `data:` lines, `[DONE]` left out. */
const events = (text: string): any[] => text.split(/\r?\n/).filter(line => line.startsWith('data: ') && line !== 'data: [DONE]').map(line => JSON.parse(line.slice(6)));

const bashTool = {type: 'function', function: {name: 'bash', description: 'run', parameters: {type: 'object', properties: {command: {type: 'string'}, description: {type: 'string'}, timeout: {type: 'number'}}, required: ['command', 'description']}}};

describe('the fake model server: OpenAI Chat Completions', () => {
	it('answers the first request of a session with the first shell call, streamed with the arguments in a delta', async () => {
		const text = await post('/v1/chat/completions', {model: 'm', stream: true, tools: [bashTool], messages: [{role: 'system', content: 'sys'}, {role: 'user', content: benchPrompt(3)}]});
		const chunks = events(text);
		const call = chunks[0].choices[0].delta.tool_calls[0];
		expect(call.function.name).toBe('bash');
		expect(JSON.parse(chunks[1].choices[0].delta.tool_calls[0].function.arguments)).toEqual({command: 'echo line-1', description: 'Print line-1'});
		expect(chunks.at(-1).choices[0].finish_reason).toBe('tool_calls');
		expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
	});

	it('derives the step from the tool results after the newest bench prompt, and answers with the marker after the last', async () => {
		const messages: unknown[] = [{role: 'user', content: benchPrompt(5)}, {role: 'assistant', content: 'earlier'}, {role: 'user', content: [{type: 'text', text: benchPrompt(2)}]}];
		const second = events(await post('/v1/chat/completions', {stream: true, tools: [bashTool], messages: [...messages, {role: 'tool', content: 'line-1'}]}));
		expect(JSON.parse(second[1].choices[0].delta.tool_calls[0].function.arguments).command).toBe('echo line-2');
		const last = events(await post('/v1/chat/completions', {stream: true, stream_options: {include_usage: true}, tools: [bashTool], messages: [...messages, {role: 'tool', content: 'line-1'}, {role: 'tool', content: 'line-2'}]}));
		const text = last.map(chunk => chunk.choices[0]?.delta?.content ?? '').join('');
		expect(text).toContain(doneMarker(2));
		expect(last.find(chunk => chunk.choices[0]?.finish_reason !== undefined && chunk.choices[0]?.finish_reason !== null).choices[0].finish_reason).toBe('stop');
		expect(last.at(-1).usage.total_tokens).toBeGreaterThan(0);
	});

	it('answers a batch prompt with that many calls a step (the last step with what is left), each with its own id, then the marker', async () => {
		const prompt = {role: 'user', content: benchBatchPrompt(5, 3)};
		const callsOf = (chunks: any[]) => {
			const calls = new Map<number, {id: string; arguments: string}>();
			for (const chunk of chunks) {
				for (const part of chunk.choices[0]?.delta?.tool_calls ?? []) {
					const call = calls.get(part.index) ?? {id: part.id, arguments: ''};
					call.arguments += part.function.arguments ?? '';
					calls.set(part.index, call);
				}
			}

			return [...calls.values()].map(call => ({id: call.id, command: JSON.parse(call.arguments).command}));
		};

		const first = callsOf(events(await post('/v1/chat/completions', {stream: true, tools: [bashTool], messages: [prompt]})));
		expect(first.map(call => call.command)).toEqual(['echo line-1', 'echo line-2', 'echo line-3']);
		expect(new Set(first.map(call => call.id)).size).toBe(3);
		const results = (count: number) => Array.from({length: count}, () => ({role: 'tool', content: 'ok'}));
		const second = callsOf(events(await post('/v1/chat/completions', {stream: true, tools: [bashTool], messages: [prompt, ...results(3)]})));
		expect(second.map(call => call.command)).toEqual(['echo line-4', 'echo line-5']);
		const last = events(await post('/v1/chat/completions', {stream: true, tools: [bashTool], messages: [prompt, ...results(5)]}));
		expect(last.map(chunk => chunk.choices[0]?.delta?.content ?? '').join('')).toContain(doneMarker(5));
	});

	it('answers a side request without tools (a title) with plain text, and one with a JSON schema with a value of that shape', async () => {
		const title = JSON.parse(await post('/v1/chat/completions', {messages: [{role: 'user', content: benchPrompt(2)}]}));
		expect(title.choices[0].message.content).toBe('Bench session');
		const shaped = JSON.parse(await post('/v1/chat/completions', {tools: [bashTool], response_format: {type: 'json_schema', json_schema: {schema: {type: 'object', properties: {verdict: {type: 'string', enum: ['continue', 'stop']}, score: {type: 'integer', minimum: 3}}, required: ['verdict', 'score']}}}, messages: [{role: 'user', content: 'check'}]}));
		expect(JSON.parse(shaped.choices[0].message.content)).toEqual({verdict: 'continue', score: 3});
	});
});

describe('the fake model server: OpenAI Responses', () => {
	const shellTool = {type: 'function', name: 'shell', parameters: {type: 'object', properties: {command: {type: 'array', items: {type: 'string'}}, workdir: {type: 'string'}}, required: ['command']}};

	it('streams a function call as output_item events and ends with response.completed carrying usage', async () => {
		const text = await post('/v1/responses', {stream: true, tools: [shellTool, {type: 'custom', name: 'apply_patch'}], input: [{type: 'message', role: 'developer', content: [{type: 'input_text', text: 'rules'}]}, {type: 'message', role: 'user', content: [{type: 'input_text', text: benchPrompt(4)}]}, {type: 'function_call', call_id: 'a'}, {type: 'function_call_output', call_id: 'a', output: 'line-1'}]});
		const types = [...text.matchAll(/^event: (.+)$/gm)].map(match => match[1]);
		expect(types[0]).toBe('response.created');
		expect(types.at(-1)).toBe('response.completed');
		const done = events(text).find(event => event.type === 'response.output_item.done');
		expect(done.item.name).toBe('shell');
		expect(JSON.parse(done.item.arguments)).toEqual({command: ['bash', '-lc', 'echo line-2']});
		expect(events(text).at(-1).response.usage.output_tokens).toBeGreaterThan(0);
	});

	it('answers a json_schema side request (a Codex title) with a schema-shaped message', async () => {
		const text = await post('/v1/responses', {stream: true, tools: [], text: {format: {type: 'json_schema', schema: {type: 'object', properties: {title: {type: 'string', minLength: 1}}, required: ['title']}}}, input: [{type: 'message', role: 'user', content: [{type: 'input_text', text: benchPrompt(4)}]}]});
		const done = events(text).find(event => event.type === 'response.output_item.done');
		expect(JSON.parse(done.item.content[0].text)).toEqual({title: 'ok'});
	});
});

describe('the fake model server: Gemini', () => {
	const declarations = [{functionDeclarations: [{name: 'read_file', parametersJsonSchema: {type: 'object'}}, {name: 'run_shell_command', parametersJsonSchema: {type: 'object', properties: {command: {type: 'string'}}, required: ['command']}}]}];

	it('streams a functionCall for the next step, counting functionResponse parts', async () => {
		const text = await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', {tools: declarations, contents: [{role: 'user', parts: [{text: benchPrompt(3)}]}, {role: 'model', parts: [{functionCall: {name: 'run_shell_command', args: {}}}]}, {role: 'user', parts: [{functionResponse: {name: 'run_shell_command', response: {output: 'line-1'}}}]}]});
		const [chunk] = events(text);
		expect(chunk.candidates[0].content.parts[0].functionCall).toEqual({name: 'run_shell_command', args: {command: 'echo line-2'}});
	});

	it('answers generateContent asking for JSON with the schema\'s shape (the next-speaker check), and countTokens with a count', async () => {
		const body = JSON.parse(await post('/v1beta/models/gemini-2.5-flash:generateContent', {contents: [{role: 'user', parts: [{text: 'who speaks next?'}]}], generationConfig: {responseMimeType: 'application/json', responseSchema: {type: 'OBJECT', properties: {reasoning: {type: 'STRING'}, next_speaker: {type: 'STRING', enum: ['user', 'model']}}, required: ['reasoning', 'next_speaker']}}}));
		expect(JSON.parse(body.candidates[0].content.parts[0].text)).toEqual({reasoning: 'ok', next_speaker: 'user'});
		const count = JSON.parse(await post('/v1beta/models/gemini-2.5-flash:countTokens', {contents: []}));
		expect(count.totalTokens).toBeGreaterThan(0);
	});
});

describe('the fake model server log', () => {
	it('records each request with its kind, step and an end no earlier than its arrival', () => {
		const steps = entries.filter(entry => entry.kind === 'call');
		expect(steps.map(entry => [entry.api, entry.step, entry.tool])).toEqual([
			['chat', 1, 'bash'],
			['chat', 2, 'bash'],
			// The batch test's two steps: calls 1-3 and 4-5.
			['chat', 1, 'bash'],
			['chat', 4, 'bash'],
			['responses', 2, 'shell'],
			['gemini', 2, 'run_shell_command'],
		]);
		expect(entries.filter(entry => entry.kind === 'answer').map(entry => entry.calls)).toEqual([2, 5]);
		for (const entry of entries) {
			expect(entry.end).toBeGreaterThanOrEqual(entry.arrival);
		}
	});
});

describe('the fake model server: Anthropic Messages (Claude Code)', () => {
	const headers = {'content-type': 'application/json', 'x-api-key': 'sk-ant-bench', 'anthropic-version': '2023-06-01'};
	const bash = {name: 'Bash', description: 'Run a command', input_schema: {type: 'object', properties: {command: {type: 'string'}, description: {type: 'string'}, timeout: {type: 'number'}}, required: ['command']}};
	// Claude Code's shape: a long system prompt marked for the cache, the newest user block marked too.
	const system = [{type: 'text', text: `You are a bench agent. ${'Rules. '.repeat(800)}`, cache_control: {type: 'ephemeral'}}];
	const send = async (body: unknown, extraHeaders: Record<string, string> = headers) => fetch(`http://127.0.0.1:${server.port}/v1/messages`, {method: 'POST', headers: extraHeaders, body: JSON.stringify(body)});
	const anthropicEvents = (text: string): any[] => [...text.matchAll(/^event: (.+)\ndata: (.+)$/gm)].map(match => ({event: match[1], ...JSON.parse(match[2]!)}));

	it('streams thinking (when enabled) then a tool_use of the shell tool, with the tool_use stop reason and usage', async () => {
		const response = await send({model: 'claude-sonnet-4-5', max_tokens: 32_000, stream: true, thinking: {type: 'enabled', budget_tokens: 1024}, system, tools: [bash], messages: [{role: 'user', content: [{type: 'text', text: benchPrompt(2), cache_control: {type: 'ephemeral'}}]}]});
		expect(response.status).toBe(200);
		const stream = anthropicEvents(await response.text());
		expect(stream.every(frame => frame.event === frame.type)).toBe(true);
		expect(stream.map(frame => frame.type)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
		expect(stream[1].content_block.type).toBe('thinking');
		const use = stream[5].content_block;
		expect([use.type, use.name]).toEqual(['tool_use', 'Bash']);
		expect(JSON.parse(stream[6].delta.partial_json)).toEqual({command: 'echo line-1', description: 'Print line-1'});
		expect(stream[8].delta.stop_reason).toBe('tool_use');
		expect(stream[0].message.usage.input_tokens).toBeGreaterThan(0);
	});

	it('answers the step after the last tool_result with text and end_turn, reading the marked prefix from the prompt cache', async () => {
		const turns = [
			{role: 'user', content: benchPrompt(1)},
			{role: 'assistant', content: [{type: 'tool_use', id: 'toolu_a', name: 'Bash', input: {command: 'echo line-1'}}]},
			{role: 'user', content: [{type: 'tool_result', tool_use_id: 'toolu_a', content: 'line-1', cache_control: {type: 'ephemeral'}}]},
		];
		const first = await send({model: 'm', max_tokens: 100, system, tools: [bash], messages: turns});
		const message = await first.json();
		expect(message.content).toEqual([{type: 'text', text: expect.stringContaining(doneMarker(1))}]);
		expect(message.stop_reason).toBe('end_turn');
		expect(message.usage.cache_read_input_tokens).toBeGreaterThan(1000);
		const again = await (await send({model: 'm', max_tokens: 100, system, tools: [bash], messages: turns})).json();
		expect(again.usage.cache_read_input_tokens).toBeGreaterThan(message.usage.cache_read_input_tokens);
	});

	it('refuses what the API refuses: no key, no max_tokens, a tool_use without its result, a result without its tool_use, an unknown field', async () => {
		const prompt = {role: 'user', content: benchPrompt(2)};
		const refusal = async (body: unknown, extraHeaders?: Record<string, string>) => {
			const response = await send(body, extraHeaders);
			return [response.status, (await response.json()).error.message];
		};

		expect(await refusal({model: 'm', max_tokens: 10, messages: [prompt]}, {'content-type': 'application/json'})).toEqual([401, 'x-api-key header is required']);
		expect(await refusal({model: 'm', messages: [prompt]})).toEqual([400, 'max_tokens: Field required']);
		expect((await refusal({model: 'm', max_tokens: 10, messages: [prompt, {role: 'assistant', content: [{type: 'tool_use', id: 'toolu_x', name: 'Bash', input: {}}]}, {role: 'user', content: 'go on'}]}))[1]).toContain('`tool_use` ids were found without `tool_result` blocks immediately after: toolu_x');
		expect((await refusal({model: 'm', max_tokens: 10, messages: [prompt, {role: 'assistant', content: 'ok'}, {role: 'user', content: [{type: 'tool_result', tool_use_id: 'toolu_y', content: 'line-1'}]}]}))[1]).toBe('messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_y. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.');
		expect(await refusal({model: 'm', max_tokens: 10, messages: [prompt], temperature_boost: 2})).toEqual([400, 'temperature_boost: Extra inputs are not permitted']);
	});

	it('logs each request\'s bytes, its fixed part (system + tools) and its cache reads, and the refusals as refused', () => {
		const mine = entries.filter(entry => entry.api === 'anthropic');
		const steps = mine.filter(entry => entry.kind === 'call' || entry.kind === 'answer');
		expect(steps).toHaveLength(3);
		const fixed = Buffer.byteLength(JSON.stringify(system)) + Buffer.byteLength(JSON.stringify([bash]));
		for (const entry of steps) {
			expect(entry.fixedBytes).toBe(fixed);
			expect(entry.bytes).toBeGreaterThan(fixed);
		}

		expect(steps.map(entry => entry.cachedBytes! > 0)).toEqual([false, true, true]);
		expect(mine.filter(entry => entry.kind === 'refused')).toHaveLength(5);
	});
});

// After the log's test, which counts the answers before it.
describe('the fake model server: the ACP turn bench\'s streamed answer (Gemini)', () => {
	const gemini = '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse';
	const tools = [{functionDeclarations: [{name: 'run_shell_command', parametersJsonSchema: {type: 'object', properties: {command: {type: 'string'}}, required: ['command']}}]}];

	it('streams the stream prompt\'s answer as one chunk a piece, the done marker in the last text and STOP after it', async () => {
		const chunks = events(await post(gemini, {tools, contents: [{role: 'user', parts: [{text: streamPrompt(45)}]}]}));
		const texts = chunks.map(chunk => chunk.candidates[0].content.parts[0].text as string).filter(text => text !== '');
		expect(texts).toHaveLength(45);
		expect(texts[0]).toBe('w1 ');
		expect(texts[19]).toBe('w20\n\n');
		expect(texts.at(-1)).toBe(`w45 ${doneMarker(45)}`);
		expect(chunks.at(-1).candidates[0].finishReason).toBe('STOP');
		expect(chunks.slice(0, -1).every(chunk => chunk.candidates[0].finishReason === undefined)).toBe(true);
	});

	it('sends the same answer whole on a wire without pieces (Chat Completions)', async () => {
		const text = events(await post('/v1/chat/completions', {model: 'm', stream: true, tools: [bashTool], messages: [{role: 'user', content: streamPrompt(3)}]})).map(chunk => chunk.choices[0]?.delta?.content ?? '').join('');
		expect(text).toBe(`w1 w2 w3 ${doneMarker(3)}`);
	});

	it('refuses what the Gemini API refuses: an unknown field, a call turn without as many function responses', async () => {
		const refusal = async (body: unknown) => {
			const response = await fetch(`http://127.0.0.1:${server.port}${gemini}`, {method: 'POST', body: JSON.stringify(body)});
			return [response.status, (await response.json()).error.message];
		};

		const prompt = {role: 'user', parts: [{text: benchPrompt(2)}]};
		expect(await refusal({contents: [prompt], temperature: 1})).toEqual([400, 'Invalid JSON payload received. Unknown name "temperature": Cannot find field.']);
		expect(await refusal({tools, contents: [prompt, {role: 'model', parts: [{functionCall: {name: 'run_shell_command', args: {}}}, {functionCall: {name: 'run_shell_command', args: {}}}]}, {role: 'user', parts: [{functionResponse: {name: 'run_shell_command', response: {}}}]}]})).toEqual([400, 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.']);
		expect(entries.filter(entry => entry.api === 'gemini' && entry.kind === 'refused')).toHaveLength(2);
	});
});
