import {describe, expect, it} from 'vitest';
import {providerToolName, providerToolPresenter, providerToolResult, withProviderToolPresenter} from '../../../src/builtin/web/provider-tools.js';

describe('tools a provider ran itself', () => {
	it('a web search keeps the sources (title, URL, page age), not the provider\'s encrypted pages, and is a web card', () => {
		const outcome = providerToolResult('web_search', [
			{url: 'https://a.example/x', title: 'A', pageAge: '2 days ago', encryptedContent: 'E'.repeat(10_000), type: 'web_search_result'},
			{url: 'https://b.example/'},
			{title: 'no url'},
			'junk',
		], false);
		expect(outcome.meta).toEqual({sources: [{url: 'https://a.example/x', title: 'A', publishedAt: '2 days ago'}, {url: 'https://b.example/'}], truncated: false});
		expect(JSON.stringify(outcome)).not.toContain('EEEE');
		const view = providerToolPresenter.presentResult!({query: 'news today'}, {content: outcome.content, isError: false, meta: outcome.meta});
		expect(view).toMatchObject({card: 'web', kind: 'search', title: 'news today (searched by the provider)'});
	});

	it('a fetch names its page; an error names the provider\'s code; anything else is its raw result; malformed input never throws', () => {
		expect(providerToolResult('web_fetch', {url: 'https://w.example/p', content: {title: 'Page'}}, false).meta).toEqual({url: 'https://w.example/p', title: 'Page'});
		expect(providerToolResult('web_fetch', {errorCode: 'url_not_accessible'}, true).content).toEqual([{type: 'text', text: 'Error: the provider\'s web_fetch failed: url_not_accessible'}]);
		expect(providerToolResult('code_execution', {stdout: 'hi'}, false)).toEqual({content: [{type: 'text', text: '{\n  "stdout": "hi"\n}'}]});
		for (const result of [null, 3, 'x', [], {}]) {
			expect(() => providerToolResult('web_search', result as never, false)).not.toThrow();
			expect(() => providerToolPresenter.presentResult!(result, {content: [], isError: false, meta: result})).not.toThrow();
			expect(() => providerToolPresenter.presentCall!(result)).not.toThrow();
		}
	});

	it('records under provider_<name>, a name that cannot pass for another tool\'s; the lookup routes only those', () => {
		expect(providerToolName('web_search')).toBe('provider_web_search');
		expect(providerToolName('\u001B[2Jweb')).toBe('provider_tool');
		const lookup = withProviderToolPresenter(name => name === 'read' ? {} : undefined);
		expect(lookup('provider_web_fetch')).toBe(providerToolPresenter);
		expect(lookup('read')).toEqual({});
		expect(lookup('web_search')).toBeUndefined();
	});
});
