/**
@module A `SearchProvider` over a SearXNG instance's JSON API (`<base>/search?q=…&format=json`):
it needs only the instance URL and, for instances behind a proxy that wants one, a bearer key.
The instance must have the `json` format enabled in its settings.
*/
import {isPlainRecord} from '../../json/is-plain-record.js';
import type {WebSource} from '../../tools/views.js';
import type {SearchProvider, SearchResponse} from './search-provider.js';
import {WebSearchError} from './web-errors.js';

/** Environment variable naming the SearXNG instance. */
const searxngUrlVariable = 'CARDTERM_SEARXNG_URL';
/** Environment variable with an optional bearer key sent to the instance. */
export const searxngKeyVariable = 'CARDTERM_SEARXNG_KEY';

/** Where the instance is and how long to wait for it. */
export type SearxngOptions = {
	/** The instance's base URL, e.g. `https://search.example/` or `http://127.0.0.1:8888/searx`. */
	readonly baseUrl: string;
	/** Sent as `Authorization: Bearer <key>` when present. */
	readonly apiKey?: string;
	/** Deadline of one query (default 15 000 ms). */
	readonly timeoutMs?: number;
};

/** A SearXNG provider. The base URL is checked when searching, so a bad setting fails the call, not startup. */
export function searxngProvider(options: SearxngOptions): SearchProvider {
	const {baseUrl, apiKey, timeoutMs = 15_000} = options;
	const name = `SearXNG at ${baseUrl}`;
	return {
		name,
		async search(query, {signal}) {
			const url = searchUrl(baseUrl, query);
			const deadline = new WebSearchError(`web_search: ${name} did not answer within ${timeoutMs}ms for ${JSON.stringify(query)}`, 'WEB_SEARCH_PROVIDER');
			const controller = new AbortController();
			const timer = setTimeout(() => {
				controller.abort(deadline);
			}, timeoutMs);
			const forwardAbort = () => {
				controller.abort(signal.reason);
			};

			signal.throwIfAborted();
			signal.addEventListener('abort', forwardAbort, {once: true});
			try {
				const response = await fetch(url, {
					signal: controller.signal,
					headers: {accept: 'application/json', ...(apiKey === undefined || apiKey === '' ? {} : {authorization: `Bearer ${apiKey}`})},
				});
				const text = await response.text();
				if (!response.ok) {
					throw new WebSearchError(`web_search: ${name} answered HTTP ${response.status} for ${JSON.stringify(query)}`, 'WEB_SEARCH_PROVIDER');
				}

				let body: unknown;
				try {
					body = JSON.parse(text);
				} catch {
					throw new WebSearchError(
						`web_search: ${name} did not return JSON for ${JSON.stringify(query)} (is format=json enabled in its settings?)`,
						'WEB_SEARCH_PROVIDER',
					);
				}

				return parseSearxngResponse(body);
			} catch (error) {
				if (controller.signal.aborted) {
					throw controller.signal.reason;
				}

				if (error instanceof WebSearchError) {
					throw error;
				}

				throw new WebSearchError(`web_search: could not reach ${name}: ${error instanceof Error ? error.message : String(error)}`, 'WEB_SEARCH_PROVIDER', {cause: error});
			} finally {
				clearTimeout(timer);
				signal.removeEventListener('abort', forwardAbort);
			}
		},
	};
}

/** The provider the environment configures, or `undefined` when `CARDTERM_SEARXNG_URL` is unset or blank. */
export function searchProviderFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): SearchProvider | undefined {
	const baseUrl = env[searxngUrlVariable]?.trim();
	if (baseUrl === undefined || baseUrl === '') {
		return undefined;
	}

	const apiKey = env[searxngKeyVariable]?.trim();
	return searxngProvider(apiKey === undefined || apiKey === '' ? {baseUrl} : {baseUrl, apiKey});
}

/** `<base>/search?q=<query>&format=json`, keeping any path the base has. */
export function searchUrl(baseUrl: string, query: string): URL {
	let base: URL;
	try {
		base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
	} catch {
		throw new WebSearchError(`web_search: ${searxngUrlVariable} is not a URL: ${JSON.stringify(baseUrl)}`, 'WEB_SEARCH_NOT_CONFIGURED');
	}

	if (base.protocol !== 'http:' && base.protocol !== 'https:') {
		throw new WebSearchError(`web_search: ${searxngUrlVariable} must be an http(s) URL, got ${JSON.stringify(baseUrl)}`, 'WEB_SEARCH_NOT_CONFIGURED');
	}

	const url = new URL('search', base);
	url.searchParams.set('q', query);
	url.searchParams.set('format', 'json');
	return url;
}

/**
Read a SearXNG JSON answer: `results[].{url, title, content, publishedDate}` become sources in rank
order (entries without a URL are skipped), `answers[]` (strings, or objects with an `answer`) are
joined by blank lines. Anything malformed is skipped rather than failing the search.
*/
export function parseSearxngResponse(body: unknown): SearchResponse {
	if (!isPlainRecord(body)) {
		throw new WebSearchError('web_search: SearXNG returned JSON that is not an object', 'WEB_SEARCH_PROVIDER');
	}

	const sources: WebSource[] = [];
	for (const result of Array.isArray(body.results) ? body.results : []) {
		if (!isPlainRecord(result) || typeof result.url !== 'string' || result.url.trim() === '') {
			continue;
		}

		const title = oneLine(result.title);
		const snippet = oneLine(result.content);
		const publishedAt = oneLine(result.publishedDate);
		sources.push({
			url: result.url.trim(),
			...(title === undefined ? {} : {title}),
			...(snippet === undefined ? {} : {snippet}),
			...(publishedAt === undefined ? {} : {publishedAt}),
		});
	}

	const answers: string[] = [];
	for (const entry of Array.isArray(body.answers) ? body.answers : []) {
		const text = typeof entry === 'string' ? entry : isPlainRecord(entry) && typeof entry.answer === 'string' ? entry.answer : undefined;
		if (text !== undefined && text.trim() !== '') {
			answers.push(text.trim());
		}
	}

	return answers.length === 0 ? {sources} : {answer: answers.join('\n\n'), sources};
}

/** A non-empty string with its whitespace runs collapsed, or `undefined`. */
function oneLine(value: unknown): string | undefined {
	if (typeof value !== 'string') {
		return undefined;
	}

	const text = value.replaceAll(/\s+/g, ' ').trim();
	return text === '' ? undefined : text;
}
