import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {webTools} from '../../../src/builtin/web.js';
import {webFetchTool} from '../../../src/builtin/web/web-fetch-tool.js';
import {ToolRegistry} from '../../../src/tools/registry.js';
import type {ToolDefinition} from '../../../src/tools/types.js';
import {startTestServer, type TestServer} from './web-test-server.js';

let server: TestServer;

beforeAll(async () => {
	server = await startTestServer({
		'/hello.html'(_request, response) {
			response.writeHead(200, {'content-type': 'text/html'});
			response.end('<html><body><h1>Hello</h1><p>World</p></body></html>');
		},
	});
});

afterAll(async () => {
	await server.close();
});

let calls = 0;

async function execute(tool: ToolDefinition, args: unknown) {
	const registry = new ToolRegistry();
	registry.register(tool);
	calls++;
	return registry.execute({callId: `call-${calls}`, name: tool.name, arguments: args, signal: new AbortController().signal});
}

describe('web_fetch through the registry', () => {
	test('a page resolves to the canonical value, the model text and the meta', async () => {
		const url = `${server.origin}/hello.html`;
		expect(await execute(webFetchTool(), {url})).toEqual({
			isError: false,
			value: {url, statusCode: 200, body: {kind: 'html', content: '# Hello\n\nWorld'}, truncated: false},
			content: [{type: 'text', text: `Fetched ${url} (HTTP 200)\n\n# Hello\n\nWorld`}],
			meta: {url, statusCode: 200, truncated: false},
		});
	});

	test('a refused scheme is a classed error result', async () => {
		const message = 'web_fetch: refused file URL "file:///etc/hosts": only http and https URLs can be fetched';
		expect(await execute(webFetchTool(), {url: 'file:///etc/hosts'})).toEqual({
			isError: true,
			error: {message, info: {name: 'WebFetchError', code: 'WEB_FETCH_UNSUPPORTED_SCHEME'}},
			content: [{type: 'text', text: `Error: ${message}`}],
		});
	});

	test('a blank url is refused', async () => {
		const result = await execute(webFetchTool(), {url: '  '});
		expect(result.isError && result.error).toEqual({
			message: 'web_fetch: "url" must be a non-empty http(s) URL',
			info: {name: 'WebFetchError', code: 'WEB_FETCH_INVALID_URL'},
		});
	});

	test('the presenters are lenient on invalid arguments and the tool may run in parallel', () => {
		const tool = webFetchTool();
		expect(tool.presentCall?.({})).toBeUndefined();
		expect(tool.presentResult?.({url: 1}, {content: [], isError: false, meta: {url: 'u', statusCode: 200, truncated: false}})).toBeUndefined();
		expect(tool.isConcurrencySafe?.({url: 'http://x'})).toBe(true);
	});
});

describe('webTools', () => {
	test('returns web_search then web_fetch, with the provider taken from the given environment', async () => {
		const tools = webTools({env: {}});
		expect(tools.map(tool => tool.name)).toEqual(['web_search', 'web_fetch']);
		const result = await execute(tools[0]!, {queries: ['x']});
		expect(result.isError && result.error.info).toEqual({name: 'WebSearchError', code: 'WEB_SEARCH_NOT_CONFIGURED'});
	});
});
