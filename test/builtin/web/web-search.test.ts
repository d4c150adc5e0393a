import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {distinctQueries, mergeSearchResponses, noSearchProviderMessage} from '../../../src/builtin/web/run-web-search.js';
import {parseSearxngResponse, searchProviderFromEnv, searchUrl, searxngProvider} from '../../../src/builtin/web/searxng-provider.js';
import {presentWebSearchCall, presentWebSearchResult, renderWebSearch, webSearchMeta} from '../../../src/builtin/web/web-search-output.js';
import {webSearchTool} from '../../../src/builtin/web/web-search-tool.js';
import {ToolRegistry} from '../../../src/tools/registry.js';
import type {ToolDefinition} from '../../../src/tools/types.js';
import {startTestServer, type TestServer} from './web-test-server.js';

type SeenRequest = {path: string; q: string | null; format: string | null; authorization: string | undefined};

let server: TestServer;
const seen: SeenRequest[] = [];

/** Fake SearXNG: `alpha` and `beta` share one URL; `broken` answers 500; `html` answers a page. */
const fakeResults: Record<string, unknown> = {
	alpha: {
		query: 'alpha',
		answers: ['Alpha is the first letter.'],
		results: [
			{url: 'https://a.example/1', title: 'Alpha one', content: 'first\n  result', publishedDate: '2026-05-01T00:00:00', engine: 'x'},
			{url: 'https://shared.example/', title: 'Shared', content: '', publishedDate: null},
			{url: 'https://a.example/3', title: '', content: 'no title'},
			{title: 'no url'},
		],
	},
	beta: {
		query: 'beta',
		answers: [{answer: 'Beta is the second.', url: 'https://b.example/'}],
		results: [
			{url: 'https://shared.example/', title: 'Shared again'},
			{url: 'https://b.example/2', title: 'Beta two'},
		],
	},
	many: {results: Array.from({length: 12}, (_, index) => ({url: `https://m.example/${index}`, title: `M${index}`}))},
};

beforeAll(async () => {
	server = await startTestServer({
		'/searx/search'(request, response) {
			const url = new URL(request.url!, 'http://x');
			const q = url.searchParams.get('q');
			seen.push({path: url.pathname, q, format: url.searchParams.get('format'), authorization: request.headers.authorization});
			if (q === 'broken') {
				response.writeHead(500, {'content-type': 'text/plain'});
				response.end('boom');
				return;
			}

			if (q === 'html') {
				response.writeHead(200, {'content-type': 'text/html'});
				response.end('<html>format not allowed</html>');
				return;
			}

			response.writeHead(200, {'content-type': 'application/json'});
			response.end(JSON.stringify(fakeResults[q ?? ''] ?? {results: [], answers: []}));
		},
	});
});

afterAll(async () => {
	await server.close();
});

async function execute(tool: ToolDefinition, args: unknown) {
	const registry = new ToolRegistry();
	registry.register(tool);
	return registry.execute({callId: 'call-ws', name: tool.name, arguments: args, signal: new AbortController().signal});
}

describe('the SearXNG provider', () => {
	test('queries <base>/search with format=json and the bearer key, and maps results and answers', async () => {
		seen.length = 0;
		const provider = searchProviderFromEnv({CARDTERM_SEARXNG_URL: `${server.origin}/searx`, CARDTERM_SEARXNG_KEY: 'sekret'});
		expect(provider?.name).toBe(`SearXNG at ${server.origin}/searx`);
		expect(await provider!.search('alpha', {signal: new AbortController().signal})).toEqual({
			answer: 'Alpha is the first letter.',
			sources: [
				{url: 'https://a.example/1', title: 'Alpha one', snippet: 'first result', publishedAt: '2026-05-01T00:00:00'},
				{url: 'https://shared.example/', title: 'Shared'},
				{url: 'https://a.example/3', snippet: 'no title'},
			],
		});
		expect(seen).toEqual([{path: '/searx/search', q: 'alpha', format: 'json', authorization: 'Bearer sekret'}]);
	});

	test('no URL in the environment means no provider', () => {
		expect(searchProviderFromEnv({})).toBeUndefined();
		expect(searchProviderFromEnv({CARDTERM_SEARXNG_URL: '  '})).toBeUndefined();
	});

	test('the search URL keeps the base path and encodes the query', () => {
		expect(searchUrl('https://s.example/searx/', 'a b&c').href).toBe('https://s.example/searx/search?q=a+b%26c&format=json');
		expect(searchUrl('https://s.example', 'x').href).toBe('https://s.example/search?q=x&format=json');
	});

	test('an HTTP error, a non-JSON answer and an unreachable instance are provider errors', async () => {
		const provider = searxngProvider({baseUrl: `${server.origin}/searx`});
		const signal = new AbortController().signal;
		await expect(provider.search('broken', {signal})).rejects.toMatchObject({
			name: 'WebSearchError',
			code: 'WEB_SEARCH_PROVIDER',
			message: `web_search: SearXNG at ${server.origin}/searx answered HTTP 500 for "broken"`,
		});
		await expect(provider.search('html', {signal})).rejects.toMatchObject({
			code: 'WEB_SEARCH_PROVIDER',
			message: `web_search: SearXNG at ${server.origin}/searx did not return JSON for "html" (is format=json enabled in its settings?)`,
		});
		await expect(searxngProvider({baseUrl: 'ftp://s.example'}).search('x', {signal})).rejects.toMatchObject({
			code: 'WEB_SEARCH_NOT_CONFIGURED',
			message: 'web_search: CARDTERM_SEARXNG_URL must be an http(s) URL, got "ftp://s.example"',
		});
	});

	test('a malformed JSON body is skipped entry by entry', () => {
		expect(parseSearxngResponse({results: [1, {url: 7}, {url: ' https://ok.example '}], answers: [3, '  ']})).toEqual({
			sources: [{url: 'https://ok.example'}],
		});
	});
});

describe('merging several queries', () => {
	test('duplicate queries collapse and blank or too many queries are refused', () => {
		expect(distinctQueries(['a', ' a ', 'b'], 4)).toEqual(['a', 'b']);
		expect(() => distinctQueries([], 4)).toThrow('web_search: "queries" must hold 1 to 4 queries, got 0');
		expect(() => distinctQueries(['a', 'b', 'c', 'd', 'e'], 4)).toThrow('web_search: "queries" must hold 1 to 4 queries, got 5');
		expect(() => distinctQueries(['a', ' '], 4)).toThrow('web_search: "queries[1]" must not be blank');
	});

	test('sources merge round-robin, dedupe by URL and cap, marking truncation', () => {
		const source = (url: string) => ({url});
		expect(mergeSearchResponses(['q1', 'q2'], [
			{sources: [source('a1'), source('s'), source('a3'), source('a4'), source('a5')]},
			{sources: [source('s'), source('b2'), source('b3')]},
		], 4)).toEqual({sources: [source('a1'), source('s'), source('b2'), source('a3')], truncated: true});
	});

	test('a single query\'s answer is used as is; several are headed by their query', () => {
		expect(mergeSearchResponses(['q'], [{answer: 'A', sources: []}], 8)).toEqual({content: 'A', sources: [], truncated: false});
		expect(mergeSearchResponses(['q1', 'q2', 'q3'], [{answer: 'A', sources: []}, {sources: []}, {answer: 'C', sources: []}], 8)).toEqual({
			content: '### q1\n\nA\n\n### q3\n\nC',
			sources: [],
			truncated: false,
		});
	});
});

describe('web_search through the registry', () => {
	test('two queries against the fake instance give the merged value, text and meta', async () => {
		const tool = webSearchTool({provider: searxngProvider({baseUrl: `${server.origin}/searx`})});
		expect(await execute(tool, {queries: ['alpha', 'beta', 'alpha']})).toEqual({
			isError: false,
			value: {
				content: '### alpha\n\nAlpha is the first letter.\n\n### beta\n\nBeta is the second.',
				sources: [
					{url: 'https://a.example/1', title: 'Alpha one', snippet: 'first result', publishedAt: '2026-05-01T00:00:00'},
					{url: 'https://shared.example/', title: 'Shared again'},
					{url: 'https://b.example/2', title: 'Beta two'},
					{url: 'https://a.example/3', snippet: 'no title'},
				],
				truncated: false,
			},
			content: [{
				type: 'text',
				text: [
					'### alpha\n\nAlpha is the first letter.\n\n### beta\n\nBeta is the second.',
					'Sources:\n'
					+ '- [Alpha one](https://a.example/1) — first result (2026-05-01T00:00:00)\n'
					+ '- [Shared again](https://shared.example/)\n'
					+ '- [Beta two](https://b.example/2)\n'
					+ '- [a.example](https://a.example/3) — no title',
					'Cite the relevant URLs above as markdown links in your answer.',
				].join('\n\n'),
			}],
			meta: {
				sources: [
					{url: 'https://a.example/1', title: 'Alpha one', snippet: 'first result', publishedAt: '2026-05-01T00:00:00'},
					{url: 'https://shared.example/', title: 'Shared again'},
					{url: 'https://b.example/2', title: 'Beta two'},
					{url: 'https://a.example/3', snippet: 'no title'},
				],
				truncated: false,
				answer: '### alpha\n\nAlpha is the first letter.\n\n### beta\n\nBeta is the second.',
			},
		});
	});

	test('more sources than the cap are cut and the text says so', async () => {
		const tool = webSearchTool({provider: searxngProvider({baseUrl: `${server.origin}/searx`})});
		const result = await execute(tool, {queries: ['many']});
		const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
		expect({isError: result.isError, meta: result.meta, tail: text.split('\n\n').slice(-2)}).toEqual({
			isError: false,
			meta: {sources: Array.from({length: 8}, (_, index) => ({url: `https://m.example/${index}`, title: `M${index}`})), truncated: true},
			tail: ['(Showing the first 8 sources. Refine the query for more.)', 'Cite the relevant URLs above as markdown links in your answer.'],
		});
	});

	test('no results say so', async () => {
		const tool = webSearchTool({provider: searxngProvider({baseUrl: `${server.origin}/searx`})});
		const result = await execute(tool, {queries: ['nothing here']});
		expect(result.content).toEqual([{type: 'text', text: 'No results found.'}]);
		expect(result.meta).toEqual({sources: [], truncated: false});
	});

	test('without a provider the call fails with the configuration hint', async () => {
		expect(await execute(webSearchTool(), {queries: ['x']})).toEqual({
			isError: true,
			error: {message: noSearchProviderMessage, info: {name: 'WebSearchError', code: 'WEB_SEARCH_NOT_CONFIGURED'}},
			content: [{type: 'text', text: 'Error: no search provider configured — set CARDTERM_SEARXNG_URL to a SearXNG instance'}],
		});
	});

	test('a blank query is an error result', async () => {
		const result = await execute(webSearchTool(), {queries: ['ok', '']});
		expect(result.isError && result.error).toEqual({message: 'web_search: "queries[1]" must not be blank', info: {name: 'WebSearchError', code: 'WEB_SEARCH_INVALID_QUERY'}});
	});
});

describe('web_search projections (contract.md §E2.8)', () => {
	const args = {queries: ['vitest environment option']};
	const value = {
		content: 'Set test.environment in vitest.config.ts.',
		sources: [{url: 'https://vitest.dev/config/', title: 'Configuring Vitest', snippet: 'Options for vitest.config.ts', publishedAt: '2026-05-01'}],
		truncated: false,
	};

	test('the call card matches the spec example', () => {
		expect(presentWebSearchCall(args)).toEqual({card: 'generic', title: 'vitest environment option', kind: 'search', rawInput: 'vitest environment option'});
		expect(presentWebSearchCall({queries: ['a', 'b']}).title).toBe('a, b');
	});

	test('the text and meta match the spec example', () => {
		expect(renderWebSearch(value)).toEqual([{
			type: 'text',
			text: 'Set test.environment in vitest.config.ts.\n\nSources:\n- [Configuring Vitest](https://vitest.dev/config/) — Options for vitest.config.ts (2026-05-01)\n\nCite the relevant URLs above as markdown links in your answer.',
		}]);
		expect(webSearchMeta(value)).toEqual({
			sources: [{url: 'https://vitest.dev/config/', title: 'Configuring Vitest', snippet: 'Options for vitest.config.ts', publishedAt: '2026-05-01'}],
			truncated: false,
			answer: 'Set test.environment in vitest.config.ts.',
		});
	});

	test('the result card matches the spec example', () => {
		expect(presentWebSearchResult(args, {content: renderWebSearch(value), isError: false, meta: webSearchMeta(value)})).toEqual({
			card: 'web',
			kind: 'search',
			title: 'vitest environment option',
			sources: [{url: 'https://vitest.dev/config/', title: 'Configuring Vitest', snippet: 'Options for vitest.config.ts', publishedAt: '2026-05-01'}],
			truncated: false,
			answer: 'Set test.environment in vitest.config.ts.',
		});
	});

	test('an empty source list is a valid card and errors or malformed meta decline', () => {
		const content = [{type: 'text' as const, text: 'x'}];
		expect(presentWebSearchResult(args, {content, isError: false, meta: {sources: [], truncated: false}})).toEqual({
			card: 'web',
			kind: 'search',
			title: 'vitest environment option',
			sources: [],
			truncated: false,
		});
		expect(presentWebSearchResult(args, {content, isError: true, meta: {sources: [], truncated: false}})).toBeUndefined();
		expect(presentWebSearchResult(args, {content, isError: false, meta: {sources: [{url: 1}], truncated: false}})).toBeUndefined();
		expect(presentWebSearchResult(args, {content, isError: false, meta: {sources: [], truncated: false, answer: 3}})).toBeUndefined();
		expect(presentWebSearchResult(args, {content, isError: false})).toBeUndefined();
	});
});
