/**
@module `web_fetch`'s body: fetch, convert HTML to Markdown, cap the text, build the canonical value.
*/
import {fetchPage, type FetchPageLimits} from './fetch-page.js';
import {htmlToMarkdown} from './html-to-markdown.js';
import {sliceChars, type WebFetchValue} from './web-fetch-output.js';
import {WebFetchError} from './web-errors.js';

/** Caps and defaults of `web_fetch`; every field has a default. */
export type WebFetchOptions = {
	/** Deadline of one fetch, redirects and body included (default 30 000 ms). */
	readonly timeoutMs?: number;
	/** Decoded body bytes read (default 5 MiB); the rest is not read and the value is `truncated`. */
	readonly maxBodyBytes?: number;
	/** HTML characters handed to the converter (default 1 000 000); conversion cost grows with size. */
	readonly maxHtmlChars?: number;
	/** Characters of converted text kept in the value (default 100 000). */
	readonly maxContentChars?: number;
	/** Characters of the whole model-facing text (default 200 000). */
	readonly maxOutputChars?: number;
	/** Redirects followed (default 5); one more is an error. */
	readonly maxRedirects?: number;
	readonly userAgent?: string;
};

/** `WebFetchOptions` with every default filled in. */
export type ResolvedWebFetchOptions = Required<WebFetchOptions>;

/** Fill in defaults and check the numbers, naming a bad option. */
export function resolveWebFetchOptions(options: WebFetchOptions = {}): ResolvedWebFetchOptions {
	const resolved: ResolvedWebFetchOptions = {
		timeoutMs: options.timeoutMs ?? 30_000,
		maxBodyBytes: options.maxBodyBytes ?? 5 * 1024 * 1024,
		maxHtmlChars: options.maxHtmlChars ?? 1_000_000,
		maxContentChars: options.maxContentChars ?? 100_000,
		maxOutputChars: options.maxOutputChars ?? 200_000,
		maxRedirects: options.maxRedirects ?? 5,
		userAgent: options.userAgent ?? 'cardterm-web-fetch/0.1',
	};
	for (const [name, value] of Object.entries(resolved)) {
		if (typeof value === 'number' && !(Number.isInteger(value) && value >= (name === 'maxRedirects' ? 0 : 1))) {
			throw new TypeError(`web_fetch option ${name} must be a ${name === 'maxRedirects' ? 'non-negative' : 'positive'} integer, got ${String(value)}`);
		}
	}

	return resolved;
}

/** Fetch `url` and build the canonical value. */
export async function runWebFetch(url: string, options: ResolvedWebFetchOptions, signal?: AbortSignal): Promise<WebFetchValue> {
	if (url.trim() === '') {
		throw new WebFetchError('web_fetch: "url" must be a non-empty http(s) URL', 'WEB_FETCH_INVALID_URL');
	}

	const limits: FetchPageLimits = {
		timeoutMs: options.timeoutMs,
		maxBodyBytes: options.maxBodyBytes,
		maxRedirects: options.maxRedirects,
		userAgent: options.userAgent,
	};
	const page = await fetchPage(url.trim(), limits, signal);
	let truncated = page.sourceTruncated;
	let content = page.text;
	if (page.kind === 'html') {
		if (content.length > options.maxHtmlChars) {
			content = sliceChars(content, options.maxHtmlChars);
			truncated = true;
		}

		content = htmlToMarkdown(content).markdown.trim();
	}

	if (content.length > options.maxContentChars) {
		content = sliceChars(content, options.maxContentChars);
		truncated = true;
	}

	return {url: page.url, statusCode: page.statusCode, body: {kind: page.kind, content}, truncated};
}
