/**
@module The network half of `web_fetch`: one GET with manual redirects, a deadline that covers the
whole exchange (headers and body, so a slow-loris server cannot hold a call open), and a cap on the
decoded body counted while streaming (so a gzip bomb stops at the cap instead of filling memory).
*/
import {bodyTreatment, decoderFor, metaCharset, parseMediaType, sniffBody} from './content-type.js';
import {WebFetchError} from './web-errors.js';

/** Limits of one fetch. */
export type FetchPageLimits = {
	/** Deadline for the whole exchange, redirects and body included. */
	readonly timeoutMs: number;
	/** Decoded (decompressed) body bytes kept; reading stops beyond. */
	readonly maxBodyBytes: number;
	/** Redirects followed; one more is an error. */
	readonly maxRedirects: number;
	readonly userAgent: string;
};

/** What came back. `text` is the decoded body; `sourceTruncated` when the byte cap cut it. */
export type FetchedPage = {
	readonly url: string;
	readonly statusCode: number;
	readonly kind: 'html' | 'text';
	readonly text: string;
	readonly sourceTruncated: boolean;
};

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** Parse `raw` as an absolute http(s) URL, or throw a classed error naming it. */
function parseHttpUrl(raw: string, context = 'web_fetch'): URL {
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		throw new WebFetchError(`${context}: invalid URL ${JSON.stringify(raw)} (expected an absolute http:// or https:// URL)`, 'WEB_FETCH_INVALID_URL');
	}

	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new WebFetchError(
			`${context}: refused ${url.protocol.slice(0, -1)} URL ${JSON.stringify(raw)}: only http and https URLs can be fetched`,
			'WEB_FETCH_UNSUPPORTED_SCHEME',
		);
	}

	return url;
}

/**
Fetch `rawUrl` and decode its body. Non-2xx statuses are not errors (a 404 page is content); only
transport failures, refused schemes or content types, too many redirects and the deadline are.
Cancellation by `signal` rejects with the signal's reason.
*/
export async function fetchPage(rawUrl: string, limits: FetchPageLimits, signal?: AbortSignal): Promise<FetchedPage> {
	let url = parseHttpUrl(rawUrl);
	signal?.throwIfAborted();
	const controller = new AbortController();
	const deadline = new WebFetchError(`web_fetch: timed out after ${limits.timeoutMs}ms fetching ${rawUrl}`, 'WEB_FETCH_TIMEOUT');
	const timer = setTimeout(() => {
		controller.abort(deadline);
	}, limits.timeoutMs);
	const forwardAbort = () => {
		controller.abort(signal?.reason);
	};

	signal?.addEventListener('abort', forwardAbort, {once: true});
	try {
		for (let redirects = 0; ; redirects++) {
			// eslint-disable-next-line no-await-in-loop -- a redirect is followed after its response
			const response = await request(url, limits, controller.signal);
			const location = response.headers.get('location');
			if (redirectStatuses.has(response.status) && location !== null) {
				// eslint-disable-next-line no-await-in-loop -- a redirect is followed after its response
				await discard(response);
				if (redirects === limits.maxRedirects) {
					throw new WebFetchError(
						`web_fetch: too many redirects fetching ${rawUrl} (more than ${limits.maxRedirects}; last ${url.href} → ${location})`,
						'WEB_FETCH_TOO_MANY_REDIRECTS',
					);
				}

				url = redirectTarget(url, location, rawUrl);
				continue;
			}

			// eslint-disable-next-line no-await-in-loop -- a redirect is followed after its response
			return await readPage(url.href, response, limits);
		}
	} catch (error) {
		// The controller's reason is the deadline or the caller's reason: report that, not the
		// transport's generic "This operation was aborted".
		if (controller.signal.aborted) {
			throw controller.signal.reason;
		}

		throw error;
	} finally {
		clearTimeout(timer);
		signal?.removeEventListener('abort', forwardAbort);
	}
}

async function request(url: URL, limits: FetchPageLimits, signal: AbortSignal): Promise<Response> {
	try {
		return await fetch(url, {
			method: 'GET',
			redirect: 'manual',
			signal,
			headers: {
				'user-agent': limits.userAgent,
				accept: 'text/html, application/xhtml+xml, text/plain;q=0.9, application/json;q=0.9, */*;q=0.1',
				'accept-encoding': 'gzip, deflate, br',
			},
		});
	} catch (error) {
		if (signal.aborted) {
			throw error;
		}

		throw new WebFetchError(`web_fetch: could not fetch ${url.href}: ${transportReason(error)}`, 'WEB_FETCH_NETWORK', {cause: error});
	}
}

function redirectTarget(from: URL, location: string, rawUrl: string): URL {
	let target: string;
	try {
		target = new URL(location, from).href;
	} catch {
		throw new WebFetchError(`web_fetch: ${from.href} redirected to an invalid location ${JSON.stringify(location)} (fetching ${rawUrl})`, 'WEB_FETCH_INVALID_URL');
	}

	return parseHttpUrl(target, `web_fetch: redirect from ${from.href}`);
}

async function readPage(url: string, response: Response, limits: FetchPageLimits): Promise<FetchedPage> {
	const mediaType = parseMediaType(response.headers.get('content-type'));
	const treatment = bodyTreatment(mediaType);
	if (treatment === 'refuse') {
		await discard(response);
		throw unsupported(mediaType.essence, url);
	}

	const {bytes, truncated} = await readCapped(response, limits.maxBodyBytes, url);
	const kind = treatment === 'sniff' ? sniffBody(bytes) : treatment;
	if (kind === 'refuse') {
		throw unsupported('binary data without a content type', url);
	}

	// Streaming mode keeps a multi-byte character split by the cap out of the text (no stray U+FFFD).
	const charset = mediaType.charset ?? (kind === 'html' ? metaCharset(bytes) : undefined);
	const text = decoderFor(charset).decode(bytes, {stream: truncated});
	return {url, statusCode: response.status, kind, text, sourceTruncated: truncated};
}

function unsupported(type: string, url: string): WebFetchError {
	return new WebFetchError(
		`web_fetch: cannot read content type ${JSON.stringify(type)} from ${url}: only HTML, text and JSON are supported`,
		'WEB_FETCH_UNSUPPORTED_CONTENT_TYPE',
	);
}

/** Read at most `maxBytes` decoded bytes; the rest is never pulled from the stream. */
async function readCapped(response: Response, maxBytes: number, url: string): Promise<{bytes: Uint8Array; truncated: boolean}> {
	if (response.body === null) {
		return {bytes: new Uint8Array(0), truncated: false};
	}

	const reader = response.body.getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	let truncated = false;
	try {
		for (;;) {
			// eslint-disable-next-line no-await-in-loop -- one chunk after another, up to the byte limit
			const {done, value} = await reader.read();
			if (done) {
				break;
			}

			const room = maxBytes - total;
			if (value.byteLength > room) {
				chunks.push(value.subarray(0, room));
				total += room;
				truncated = true;
				break;
			}

			chunks.push(value);
			total += value.byteLength;
		}
	} catch (error) {
		if (error instanceof WebFetchError || (error instanceof Error && error.name === 'AbortError')) {
			throw error;
		}

		throw new WebFetchError(`web_fetch: reading the body of ${url} failed: ${transportReason(error)}`, 'WEB_FETCH_NETWORK', {cause: error});
	} finally {
		if (truncated) {
			await reader.cancel().catch(() => undefined);
		}

		reader.releaseLock();
	}

	const bytes = new Uint8Array(total);
	let offset = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, offset);
		offset += chunk.byteLength;
	}

	return {bytes, truncated};
}

async function discard(response: Response): Promise<void> {
	await response.body?.cancel().catch(() => undefined);
}

/** The most specific reason a transport error carries (`ECONNREFUSED`, `ENOTFOUND`, …). */
function transportReason(error: unknown): string {
	if (error instanceof Error) {
		const cause = error.cause as {code?: unknown; message?: unknown} | undefined;
		if (cause !== undefined && typeof cause === 'object') {
			if (typeof cause.code === 'string') {
				return typeof cause.message === 'string' && cause.message !== '' ? `${cause.code} (${cause.message})` : cause.code;
			}

			if (typeof cause.message === 'string') {
				return cause.message;
			}
		}

		return error.message;
	}

	return String(error);
}
