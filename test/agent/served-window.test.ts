/**
The window a self-hosted server says it serves, from its answers as they are documented: vLLM's
`/v1/models` (`max_model_len`), OpenRouter's model list (`context_length`), Ollama's `/api/show`
(`parameters` with `num_ctx`, or none: its 4096-token default, said as a warning).
*/
import {createServer, type Server} from 'node:http';
import {afterEach, describe, expect, test} from 'vitest';
import {OLLAMA_DEFAULT_CONTEXT, servedWindow} from '../../src/agent/served-window.js';

let server: Server | undefined;

afterEach(async () => {
	await new Promise(resolve => server?.close(resolve) ?? resolve(undefined));
	server = undefined;
});

/** A server that answers `routes` (`GET /v1/models`, `POST /api/show`) with their JSON, and 404 to the rest. */
async function serve(routes: Record<string, unknown>): Promise<string> {
	server = createServer((request, response) => {
		const body = routes[`${request.method} ${request.url}`];
		request.resume();
		response.writeHead(body === undefined ? 404 : 200, {'content-type': 'application/json'}).end(JSON.stringify(body ?? {error: 'no route'}));
	});
	await new Promise<void>(resolve => server!.listen(0, '127.0.0.1', resolve));
	const address = server.address() as {port: number};
	return `http://127.0.0.1:${address.port}/v1`;
}

describe('the window a server serves', () => {
	test('vLLM: max_model_len of the model in /v1/models', async () => {
		const url = await serve({'GET /v1/models': {object: 'list', data: [{id: 'other', max_model_len: 4096}, {id: 'Qwen/Qwen3-8B', object: 'model', owned_by: 'vllm', max_model_len: 32_768}]}});
		expect(await servedWindow(url, 'Qwen/Qwen3-8B')).toEqual({tokens: 32_768, source: 'server (max_model_len)'});
	});

	test('OpenRouter: context_length', async () => {
		const url = await serve({'GET /v1/models': {data: [{id: 'deepseek/deepseek-chat', context_length: 163_840}]}});
		expect(await servedWindow(url, 'deepseek/deepseek-chat')).toEqual({tokens: 163_840, source: 'server (context_length)'});
	});

	test('Ollama with num_ctx set: that window', async () => {
		const url = await serve({'GET /v1/models': {data: [{id: 'llama3.2', object: 'model'}]}, 'POST /api/show': {parameters: 'stop "<|eot_id|>"\nnum_ctx 16384', model_info: {'llama.context_length': 131_072}}});
		expect(await servedWindow(url, 'llama3.2')).toEqual({tokens: 16_384, source: 'server (Ollama num_ctx)'});
	});

	test('Ollama without num_ctx: its small default, with a warning that names the fix', async () => {
		const url = await serve({'GET /v1/models': {data: [{id: 'llama3.2'}]}, 'POST /api/show': {parameters: 'stop "<|eot_id|>"', model_info: {'llama.context_length': 131_072}}});
		const window = await servedWindow(url, 'llama3.2');
		expect(window?.tokens).toBe(OLLAMA_DEFAULT_CONTEXT);
		expect(window?.warning).toMatch(/Ollama serves 4096 tokens of context unless num_ctx is set \(the model was trained for 131072\).*OLLAMA_CONTEXT_LENGTH/);
	});

	test('a server that says nothing (or is not there): no window', async () => {
		const url = await serve({});
		expect(await servedWindow(url, 'm')).toBeUndefined();
		expect(await servedWindow('http://127.0.0.1:9/v1', 'm')).toBeUndefined();
	});
});
