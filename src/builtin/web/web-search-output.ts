/**
@module `web_search`'s pure projections (contract.md §E2.8): the model-facing text (lossy by
design: answer, a source list, a truncation note and a request to cite), the persisted `meta`
(the value with `content` renamed `answer`), and the call and result cards.
*/
import {isIntrinsicArray, isPlainRecord} from '../../json/is-plain-record.js';
import type {JsonValue} from '../../json/json-value.js';
import type {ContentBlock} from '../../tools/content.js';
import type {GenericCallView, ToolResult, WebSearchResultView, WebSource} from '../../tools/views.js';
import type {WebSearchValue} from './run-web-search.js';

/** The persisted meta. */
type WebSearchMeta = {readonly sources: readonly WebSource[]; readonly truncated: boolean; readonly answer?: string};

/** The label of a source: its title, else its URL's host name, else the URL. */
export function sourceLabel(source: WebSource): string {
	if (source.title !== undefined) {
		return source.title;
	}

	try {
		return new URL(source.url).hostname || source.url;
	} catch {
		return source.url;
	}
}

/** `output.render`. */
export function renderWebSearch(value: WebSearchValue): ContentBlock[] {
	const parts: string[] = [];
	if (value.content !== undefined) {
		parts.push(value.content);
	}

	if (value.sources.length === 0) {
		parts.push('No results found.');
	} else {
		const lines = value.sources.map(source => {
			const snippet = source.snippet === undefined ? '' : ` — ${source.snippet}`;
			const date = source.publishedAt === undefined ? '' : ` (${source.publishedAt})`;
			return `- [${sourceLabel(source)}](${source.url})${snippet}${date}`;
		});
		parts.push(`Sources:\n${lines.join('\n')}`);
	}

	if (value.truncated) {
		parts.push(`(Showing the first ${value.sources.length} sources. Refine the query for more.)`);
	}

	if (value.sources.length > 0) {
		parts.push('Cite the relevant URLs above as markdown links in your answer.');
	}

	return [{type: 'text', text: parts.join('\n\n')}];
}

/** `output.presentationMeta`: `{sources, truncated, answer?}`. */
export function webSearchMeta(value: WebSearchValue): JsonValue {
	const meta: WebSearchMeta = value.content === undefined
		? {sources: value.sources, truncated: value.truncated}
		: {sources: value.sources, truncated: value.truncated, answer: value.content};
	return meta as unknown as JsonValue;
}

/** The card title: the queries as the model wrote them, comma-separated. */
function searchTitle(args: {readonly queries: readonly string[]}): string {
	return args.queries.join(', ');
}

/** `presentCall`. */
export function presentWebSearchCall(args: {readonly queries: readonly string[]}): GenericCallView {
	const title = searchTitle(args);
	return {card: 'generic', title, kind: 'search', rawInput: title};
}

/** `presentResult`: the citation card, or `undefined` on an error or a malformed `meta`. */
export function presentWebSearchResult(args: {readonly queries: readonly string[]}, result: ToolResult): WebSearchResultView | undefined {
	const meta = result.meta;
	if (result.isError || !isPlainRecord(meta) || typeof meta.truncated !== 'boolean' || !isIntrinsicArray(meta.sources)) {
		return undefined;
	}

	if (meta.answer !== undefined && typeof meta.answer !== 'string') {
		return undefined;
	}

	const sources: WebSource[] = [];
	for (const source of meta.sources) {
		const checked = checkSource(source);
		if (checked === undefined) {
			return undefined;
		}

		sources.push(checked);
	}

	const view: WebSearchResultView = {card: 'web', kind: 'search', title: searchTitle(args), sources, truncated: meta.truncated};
	return typeof meta.answer === 'string' ? {...view, answer: meta.answer} : view;
}

function checkSource(source: unknown): WebSource | undefined {
	if (!isPlainRecord(source) || typeof source.url !== 'string') {
		return undefined;
	}

	for (const key of ['title', 'snippet', 'publishedAt'] as const) {
		if (source[key] !== undefined && typeof source[key] !== 'string') {
			return undefined;
		}
	}

	return source as WebSource;
}
