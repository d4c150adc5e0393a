/**
@module `web_fetch`'s canonical value and its pure projections (contract.md §E2.9): the
model-facing text, the persisted `meta`, and the call and result cards.
*/
import {isPlainRecord} from '../../json/is-plain-record.js';
import type {ContentBlock} from '../../tools/content.js';
import type {GenericCallView, ToolResult, WebFetchResultView} from '../../tools/views.js';

/** The canonical value. `truncated` is the provider's own cut: the byte cap or the content cap. */
export type WebFetchValue = {
	readonly url: string;
	readonly statusCode: number;
	readonly body: {readonly kind: 'html' | 'text'; readonly content: string};
	readonly truncated: boolean;
};

/** What the card needs and the text cannot carry losslessly. */
export type WebFetchMeta = {readonly url: string; readonly statusCode: number; readonly truncated: boolean};

/** Footer appended when anything cut the text. */
const webFetchTruncationNotice = '\n\n(Content truncated. Fetch a more specific URL or section for the full text.)';

/** The model-facing text, bounded to `maxOutputChars` (the footer comes on top), and whether that bound cut it. */
function webFetchText(value: WebFetchValue, maxOutputChars: number): {readonly text: string; readonly cut: boolean} {
	const header = `Fetched ${value.url} (HTTP ${value.statusCode})`;
	const full = value.body.content === '' ? header : `${header}\n\n${value.body.content}`;
	const cut = full.length > maxOutputChars;
	const bounded = cut ? sliceChars(full, maxOutputChars) : full;
	return {text: cut || value.truncated ? bounded + webFetchTruncationNotice : bounded, cut};
}

/** `output.render`. */
export function renderWebFetch(value: WebFetchValue, maxOutputChars: number): ContentBlock[] {
	return [{type: 'text', text: webFetchText(value, maxOutputChars).text}];
}

/** `output.presentationMeta`: `truncated` is the effective truncation, which a client cannot recompute. */
export function webFetchMeta(value: WebFetchValue, maxOutputChars: number): WebFetchMeta {
	return {url: value.url, statusCode: value.statusCode, truncated: value.truncated || webFetchText(value, maxOutputChars).cut};
}

/** `presentCall`: a generic fetch card titled with the URL. */
export function presentWebFetchCall(args: {readonly url: string}): GenericCallView {
	return {card: 'generic', title: args.url, kind: 'fetch', rawInput: args.url};
}

/** `presentResult`: the web fetch card, or `undefined` for an error or a malformed `meta`. */
export function presentWebFetchResult(args: {readonly url: string}, result: ToolResult): WebFetchResultView | undefined {
	const meta = result.meta;
	if (result.isError || !isPlainRecord(meta)) {
		return undefined;
	}

	const {url, statusCode, truncated} = meta;
	if (typeof url !== 'string' || !Number.isInteger(statusCode) || typeof truncated !== 'boolean') {
		return undefined;
	}

	return {card: 'web', kind: 'fetch', title: args.url, url, statusCode: statusCode as number, truncated};
}

/** Cut `text` to at most `limit` UTF-16 units without splitting a surrogate pair. */
export function sliceChars(text: string, limit: number): string {
	if (text.length <= limit) {
		return text;
	}

	const code = text.charCodeAt(limit - 1);
	return text.slice(0, code >= 0xd8_00 && code <= 0xdb_ff ? limit - 1 : limit);
}

