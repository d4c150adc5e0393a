import {gzipSync} from 'node:zlib';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {resolveWebFetchOptions, runWebFetch, type WebFetchOptions} from '../../../src/builtin/web/run-web-fetch.js';
import {WebFetchError} from '../../../src/builtin/web/web-errors.js';
import {
	presentWebFetchCall,
	presentWebFetchResult,
	renderWebFetch,
	webFetchMeta,
	type WebFetchValue,
} from '../../../src/builtin/web/web-fetch-output.js';
import {nestingExceeds} from '../../../src/builtin/web/html-to-markdown.js';
import {startTestServer, type TestServer} from './web-test-server.js';

const menuHtml = `<!doctype html><html><head><title>Menu</title><style>body{color:red}</style><script>alert('x')</script></head><body><h1>Café menu</h1>
<p>Prices include <strong>service &amp; <em>tax</em></strong> — updated daily.</p>
<ul><li>Espresso</li><li>Flat white</li></ul>
<table><thead><tr><th>Drink</th><th>Price</th></tr></thead><tbody><tr><td>Espresso</td><td>€2</td></tr></tbody></table>
<p>See <a href="https://fixture.invalid/specials">today’s specials</a>.</p></body></html>`;

let server: TestServer;
let bombSize = 0;

beforeAll(async () => {
	const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 'a'));
	bombSize = bomb.byteLength;
	server = await startTestServer({
		'/menu.html'(_request, response) {
			response.writeHead(200, {'content-type': 'text/html; charset=utf-8'});
			response.end(menuHtml);
		},
		'/notes.txt'(_request, response) {
			response.writeHead(200, {'content-type': 'text/plain'});
			response.end('line one\n  line two\n');
		},
		'/data.json'(_request, response) {
			response.writeHead(200, {'content-type': 'application/json'});
			response.end('{"a": [1, 2]}');
		},
		'/logo.png'(_request, response) {
			response.writeHead(200, {'content-type': 'image/png'});
			response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
		},
		'/untyped-binary'(_request, response) {
			response.writeHead(200, {'content-type': ''});
			response.end(Buffer.from([1, 0, 2, 0]));
		},
		'/gone.html'(_request, response) {
			response.writeHead(404, {'content-type': 'text/html'});
			response.end('<h1>Not here</h1>');
		},
		'/hop'(request, response) {
			const left = Number(new URL(request.url!, 'http://x').searchParams.get('left'));
			if (left === 0) {
				response.writeHead(200, {'content-type': 'text/plain'});
				response.end('landed');
				return;
			}

			response.writeHead(302, {location: `/hop?left=${left - 1}`});
			response.end('moving');
		},
		'/to-file'(_request, response) {
			response.writeHead(301, {location: 'file:///etc/passwd'});
			response.end();
		},
		'/slow'(request, response) {
			response.writeHead(200, {'content-type': 'text/plain'});
			response.write('a');
			const timer = setInterval(() => response.write('a'), 20);
			request.socket.on('close', () => {
				clearInterval(timer);
			});
		},
		'/silent'() {
			// Never answers: the deadline must cover waiting for headers too.
		},
		'/big.txt'(_request, response) {
			response.writeHead(200, {'content-type': 'text/plain'});
			response.end('b'.repeat(3 * 1024 * 1024));
		},
		'/bomb.txt'(_request, response) {
			response.writeHead(200, {'content-type': 'text/plain', 'content-encoding': 'gzip'});
			response.end(bomb);
		},
		'/invalid-utf8.txt'(_request, response) {
			response.writeHead(200, {'content-type': 'text/plain; charset=utf-8'});
			response.end(Buffer.from([0x61, 0xff, 0xfe, 0x62, 0xc3]));
		},
		'/latin1.txt'(_request, response) {
			response.writeHead(200, {'content-type': 'text/plain; charset=iso-8859-1'});
			response.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
		},
		'/meta-latin1.html'(_request, response) {
			response.writeHead(200, {'content-type': 'text/html'});
			response.end(Buffer.concat([Buffer.from('<html><head><meta charset="iso-8859-1"></head><body><p>caf'), Buffer.from([0xe9]), Buffer.from('</p></body></html>')]));
		},
		'/empty'(_request, response) {
			response.writeHead(204);
			response.end();
		},
	});
});

afterAll(async () => {
	await server.close();
});

function fetchValue(path: string, options: WebFetchOptions = {}, signal?: AbortSignal): Promise<WebFetchValue> {
	return runWebFetch(path.includes('://') ? path : server.origin + path, resolveWebFetchOptions(options), signal);
}

async function fetchFailure(path: string, options: WebFetchOptions = {}): Promise<{name: string; code: string; message: string}> {
	try {
		await fetchValue(path, options);
	} catch (error) {
		const {name, code, message} = error as WebFetchError;
		return {name, code, message};
	}

	throw new Error(`expected ${path} to fail`);
}

describe('web_fetch against a loopback server', () => {
	test('an HTML page becomes GFM Markdown without its script and style', async () => {
		expect(await fetchValue('/menu.html')).toEqual({
			url: `${server.origin}/menu.html`,
			statusCode: 200,
			body: {
				kind: 'html',
				content:
					'Menu\n\n# Café menu\n\nPrices include **service & _tax_** — updated daily.\n\n-   Espresso\n-   Flat white\n\n'
					+ '| Drink | Price |\n| --- | --- |\n| Espresso | €2 |\n\nSee [today’s specials](https://fixture.invalid/specials).',
			},
			truncated: false,
		});
	});

	test('plain text passes through unchanged', async () => {
		expect(await fetchValue('/notes.txt')).toEqual({
			url: `${server.origin}/notes.txt`,
			statusCode: 200,
			body: {kind: 'text', content: 'line one\n  line two\n'},
			truncated: false,
		});
	});

	test('JSON passes through as text', async () => {
		expect((await fetchValue('/data.json')).body).toEqual({kind: 'text', content: '{"a": [1, 2]}'});
	});

	test('an image content type is refused with a message naming the type', async () => {
		expect(await fetchFailure('/logo.png')).toEqual({
			name: 'WebFetchError',
			code: 'WEB_FETCH_UNSUPPORTED_CONTENT_TYPE',
			message: `web_fetch: cannot read content type "image/png" from ${server.origin}/logo.png: only HTML, text and JSON are supported`,
		});
	});

	test('binary data without a content type is refused', async () => {
		expect((await fetchFailure('/untyped-binary')).code).toBe('WEB_FETCH_UNSUPPORTED_CONTENT_TYPE');
	});

	test('a 404 page with a body is a successful value carrying its status', async () => {
		expect(await fetchValue('/gone.html')).toEqual({
			url: `${server.origin}/gone.html`,
			statusCode: 404,
			body: {kind: 'html', content: '# Not here'},
			truncated: false,
		});
	});

	test('a response without a body yields empty content', async () => {
		expect(await fetchValue('/empty')).toEqual({url: `${server.origin}/empty`, statusCode: 204, body: {kind: 'text', content: ''}, truncated: false});
	});

	test('five redirects are followed and the value names the final URL', async () => {
		expect(await fetchValue('/hop?left=5')).toEqual({
			url: `${server.origin}/hop?left=0`,
			statusCode: 200,
			body: {kind: 'text', content: 'landed'},
			truncated: false,
		});
	});

	test('a sixth redirect is an error', async () => {
		expect(await fetchFailure('/hop?left=6')).toEqual({
			name: 'WebFetchError',
			code: 'WEB_FETCH_TOO_MANY_REDIRECTS',
			message: `web_fetch: too many redirects fetching ${server.origin}/hop?left=6 (more than 5; last ${server.origin}/hop?left=1 → /hop?left=0)`,
		});
	});

	test('a redirect to a non-http scheme is refused', async () => {
		expect(await fetchFailure('/to-file')).toEqual({
			name: 'WebFetchError',
			code: 'WEB_FETCH_UNSUPPORTED_SCHEME',
			message: `web_fetch: redirect from ${server.origin}/to-file: refused file URL "file:///etc/passwd": only http and https URLs can be fetched`,
		});
	});

	test('non-http schemes and malformed URLs are refused before any request', async () => {
		expect(await fetchFailure('file:///etc/passwd')).toEqual({
			name: 'WebFetchError',
			code: 'WEB_FETCH_UNSUPPORTED_SCHEME',
			message: 'web_fetch: refused file URL "file:///etc/passwd": only http and https URLs can be fetched',
		});
		expect((await fetchFailure('ftp://127.0.0.1/x')).code).toBe('WEB_FETCH_UNSUPPORTED_SCHEME');
		expect(await fetchFailure('not a url://')).toEqual({
			name: 'WebFetchError',
			code: 'WEB_FETCH_INVALID_URL',
			message: 'web_fetch: invalid URL "not a url://" (expected an absolute http:// or https:// URL)',
		});
	});

	test('a slow-loris body ends at the deadline with a timeout error', async () => {
		expect(await fetchFailure('/slow', {timeoutMs: 200})).toEqual({
			name: 'WebFetchError',
			code: 'WEB_FETCH_TIMEOUT',
			message: `web_fetch: timed out after 200ms fetching ${server.origin}/slow`,
		});
	});

	test('a server that never sends headers ends at the deadline', async () => {
		expect((await fetchFailure('/silent', {timeoutMs: 200})).code).toBe('WEB_FETCH_TIMEOUT');
	});

	test('a cancelled call rejects with the caller\'s reason', async () => {
		const controller = new AbortController();
		const pending = fetchValue('/slow', {}, controller.signal);
		controller.abort(new Error('user pressed ctrl-c'));
		await expect(pending).rejects.toThrow('user pressed ctrl-c');
	});

	test('a body over the byte cap is cut at the cap and marked truncated', async () => {
		const value = await fetchValue('/big.txt', {maxBodyBytes: 1024 * 1024, maxContentChars: 10_000_000});
		expect({length: value.body.content.length, truncated: value.truncated}).toEqual({length: 1024 * 1024, truncated: true});
	});

	test('a gzip bomb is decompressed only up to the byte cap', async () => {
		expect(bombSize).toBeLessThan(200 * 1024);
		const value = await fetchValue('/bomb.txt', {maxBodyBytes: 2 * 1024 * 1024, maxContentChars: 10_000_000});
		expect({length: value.body.content.length, allA: /^a+$/.test(value.body.content), truncated: value.truncated}).toEqual({
			length: 2 * 1024 * 1024,
			allA: true,
			truncated: true,
		});
	});

	test('the provider cap on converted text marks the value truncated', async () => {
		const value = await fetchValue('/big.txt', {maxContentChars: 10});
		expect(value.body).toEqual({kind: 'text', content: 'bbbbbbbbbb'});
		expect(value.truncated).toBe(true);
	});

	test('invalid UTF-8 decodes with replacement characters', async () => {
		expect((await fetchValue('/invalid-utf8.txt')).body.content).toBe('a\uFFFD\uFFFDb\uFFFD');
	});

	test('a declared charset is honoured, from the header or an HTML meta tag', async () => {
		expect((await fetchValue('/latin1.txt')).body.content).toBe('café');
		expect((await fetchValue('/meta-latin1.html')).body.content).toBe('café');
	});
});

describe('web_fetch projections (contract.md §E2.9)', () => {
	const args = {url: 'http://127.0.0.1:43117/menu.html'};
	const value: WebFetchValue = {url: args.url, statusCode: 200, body: {kind: 'html', content: 'Menu\n\n# Café menu'}, truncated: false};

	test('the call card is the generic fetch card of the spec example', () => {
		expect(presentWebFetchCall(args)).toEqual({
			card: 'generic',
			title: 'http://127.0.0.1:43117/menu.html',
			kind: 'fetch',
			rawInput: 'http://127.0.0.1:43117/menu.html',
		});
	});

	test('the text starts with the fetched line and the meta matches the spec example', () => {
		expect(renderWebFetch(value, 200_000)).toEqual([{type: 'text', text: 'Fetched http://127.0.0.1:43117/menu.html (HTTP 200)\n\nMenu\n\n# Café menu'}]);
		expect(webFetchMeta(value, 200_000)).toEqual({url: 'http://127.0.0.1:43117/menu.html', statusCode: 200, truncated: false});
	});

	test('the result card is the web fetch card of the spec example', () => {
		const meta = webFetchMeta(value, 200_000);
		expect(presentWebFetchResult(args, {content: renderWebFetch(value, 200_000), isError: false, meta})).toEqual({
			card: 'web',
			kind: 'fetch',
			title: 'http://127.0.0.1:43117/menu.html',
			url: 'http://127.0.0.1:43117/menu.html',
			statusCode: 200,
			truncated: false,
		});
	});

	test('the result card declines errors and malformed meta', () => {
		const content = [{type: 'text' as const, text: 'Error: x'}];
		expect(presentWebFetchResult(args, {content, isError: true, meta: {url: 'u', statusCode: 200, truncated: false}})).toBeUndefined();
		expect(presentWebFetchResult(args, {content, isError: false})).toBeUndefined();
		expect(presentWebFetchResult(args, {content, isError: false, meta: {url: 'u', statusCode: '200', truncated: false}})).toBeUndefined();
		expect(presentWebFetchResult(args, {content, isError: false, meta: ['u']})).toBeUndefined();
	});

	test('a provider-truncated value ends with the truncation footer and meta says truncated', () => {
		const cut = {...value, truncated: true};
		expect(renderWebFetch(cut, 200_000)).toEqual([{
			type: 'text',
			text: 'Fetched http://127.0.0.1:43117/menu.html (HTTP 200)\n\nMenu\n\n# Café menu\n\n(Content truncated. Fetch a more specific URL or section for the full text.)',
		}]);
		expect(webFetchMeta(cut, 200_000).truncated).toBe(true);
	});

	test('the whole-output cap cuts the text, adds the footer and makes meta truncated', () => {
		expect(renderWebFetch(value, 20)).toEqual([{
			type: 'text',
			text: 'Fetched http://127.0\n\n(Content truncated. Fetch a more specific URL or section for the full text.)',
		}]);
		expect(webFetchMeta(value, 20)).toEqual({url: args.url, statusCode: 200, truncated: true});
	});

	test('a 404 result card keeps the status for the red pill', () => {
		const notFound = {...value, statusCode: 404};
		expect(presentWebFetchResult(args, {content: renderWebFetch(notFound, 200_000), isError: false, meta: webFetchMeta(notFound, 200_000)})).toEqual({
			card: 'web',
			kind: 'fetch',
			title: args.url,
			url: args.url,
			statusCode: 404,
			truncated: false,
		});
	});
});

describe('deep HTML', () => {
	test('nesting beyond the convertible depth is detected without counting void or implicitly closed elements', () => {
		expect(nestingExceeds('<div>'.repeat(600), 512)).toBe(true);
		expect(nestingExceeds('<div><p>'.repeat(300) + '<br>'.repeat(1000), 512)).toBe(false);
		expect(nestingExceeds('<div></div>'.repeat(1000), 512)).toBe(false);
	});
});
