/**
@module The web card body. Search: the queries, the answer, numbered sources `title · domain`
linked to their URL (http and https only). Fetch: the URL and HTTP status (error role at 400 and
above), the tool's truncation notice, and the fetched text (from the raw result content) as the
foldable body.
*/
import type {ContentBlock} from '../../tools/content.js';
import type {WebFetchResultView, WebSearchResultView} from '../../tools/views.js';
import {BodyRows} from './body-rows.js';
import {type BodyContext, contentRows, textRows} from './body-text.js';
import type {CardBody} from './card-body.js';
import {plural} from '../text/format.js';
import {safeLinkTarget} from '../text/link-target.js';
import {sanitizeInline} from '../text/sanitize.js';
import {span, wrapSpans} from '../text/spans.js';
import type {Span, StyledLine} from '../text/styled-line.js';

/** The host of a URL without a leading `www.`, or undefined when it does not parse. */
export function domainOf(url: string): string | undefined {
	try {
		const host = new URL(url).hostname;
		return host === '' ? undefined : host.replace(/^www\./, '');
	} catch {
		return undefined;
	}
}

/** The queries a web search ran: `args.queries` when it is a list of strings, else the title. */
function queriesOf(args: unknown, fallback: string | undefined): string[] {
	if (typeof args === 'object' && args !== null && Array.isArray((args as {queries?: unknown}).queries)) {
		const queries = (args as {queries: unknown[]}).queries.filter((query): query is string => typeof query === 'string');
		if (queries.length > 0) {
			return queries;
		}
	}

	return fallback === undefined || fallback === '' ? [] : [fallback];
}

/** A web search: queries, answer, numbered sources. */
export function layoutWebSearchBody(view: WebSearchResultView, args: unknown, context: BodyContext): CardBody {
	const {theme, width} = context;
	const lines = new BodyRows(context.keep, {pinned: true});
	for (const query of queriesOf(args, view.title)) {
		lines.pushAll(wrapSpans([span('query ', theme.muted), span(sanitizeInline(query), theme.input)], width));
	}

	lines.pin();
	if (view.answer !== undefined && view.answer.trim() !== '') {
		contentRows([{type: 'text', text: view.answer}], theme.body, context, lines);
	}

	const numberWidth = String(view.sources.length).length;
	view.sources.forEach((source, index) => {
		const link = safeLinkTarget(source.url, {web: true});
		const domain = domainOf(source.url);
		const label = source.title !== undefined && source.title.trim() !== '' ? source.title : domain ?? source.url;
		const spans: Span[] = [
			span(`${String(index + 1).padStart(numberWidth)}. `, theme.muted),
			span(sanitizeInline(label), link === undefined ? theme.body : theme.link, link),
		];
		if (domain !== undefined && label !== domain) {
			spans.push(span(` · ${sanitizeInline(domain)}`, theme.muted));
		}

		lines.pushAll(wrapSpans(spans, width));
	});

	const footer: StyledLine[] = view.truncated
		? wrapSpans([span(`showing the first ${plural(view.sources.length, 'source')} (tool truncated)`, theme.warning)], width)
		: view.sources.length === 0
			? wrapSpans([span('no sources', theme.muted)], width)
			: [];
	lines.pushAll(footer);
	return lines.body(footer.length);
}

const fetchedHeading = /^Fetched \S+ \(HTTP \d+\)\r?\n(\r?\n)?/;

/** The fetched text: the raw content without its `Fetched <url> (HTTP n)` heading, which the card shows. */
function fetchedContent(content: readonly ContentBlock[]): ContentBlock[] {
	return content.map((block, index) => index === 0 && block.type === 'text' ? {type: 'text', text: block.text.replace(fetchedHeading, '')} : block);
}

/** A web fetch: URL and status pinned, then the fetched text. */
export function layoutWebFetchBody(view: WebFetchResultView, content: readonly ContentBlock[], context: BodyContext): CardBody {
	const {theme, width} = context;
	const link = safeLinkTarget(view.url, {web: true});
	const statusStyle = view.statusCode >= 400 ? theme.error : theme.muted;
	const lines = new BodyRows(context.keep, {pinned: true});
	lines.pushAll(wrapSpans([
		span(sanitizeInline(view.url), link === undefined ? theme.body : theme.link, link),
		span(' · ', theme.muted),
		span(`HTTP ${view.statusCode}`, statusStyle),
	], width));
	if (view.truncated) {
		textRows('content truncated by the tool', theme.warning, width, lines);
	}

	lines.pin();
	contentRows(fetchedContent(content), theme.body, context, lines);
	return lines.body();
}
