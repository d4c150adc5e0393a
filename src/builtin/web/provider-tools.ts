/**
@module Tools a model provider ran itself (Anthropic's server tools `web_search` and `web_fetch`,
issue 26): recorded as a settled `tool/call` + `tool/result` pair under `provider_<name>` (marked
`providerExecuted`), so they are cards of what the provider did and never a call of cardterm's own
tool of the same name. Pure: what the result holds (`providerToolResult`) and how its card looks
(`providerToolPresenter`). A provider web search is a `web` search card; a fetch, whose status the
provider does not report, is a generic card with the page's title; any other server tool a generic
card of its raw result.
*/
import {isIntrinsicArray, isPlainRecord} from '../../json/is-plain-record.js';
import type {JsonValue} from '../../json/json-value.js';
import type {Presenter, PresenterLookup} from '../../presentation/presenters.js';
import type {ContentBlock} from '../../tools/content.js';
import type {GenericCallView, ToolCallView, ToolResult, ToolResultView, WebSource} from '../../tools/views.js';
import {renderWebSearch, sourceLabel} from './web-search-output.js';

/** The prefix of the tool names provider-executed calls are recorded under. */
const PROVIDER_TOOL_PREFIX = 'provider_';

/** The recorded name of the provider's tool `name`. */
export function providerToolName(name: string): string {
	return `${PROVIDER_TOOL_PREFIX}${/^[A-Za-z0-9_:.-]{1,64}$/.test(name) ? name : 'tool'}`;
}

/** What the card of a provider's call shows: its text, and `meta` for the presenter. */
export type ProviderToolOutcome = {readonly content: readonly ContentBlock[]; readonly meta?: JsonValue};

/**
The card material of the provider's result: a search's sources (title, URL, page age; the
encrypted page content is the provider's, not kept), a fetch's page title and URL, or the raw
result of another tool. An error result names the provider's error code.
*/
export function providerToolResult(name: string, result: JsonValue, isError: boolean): ProviderToolOutcome {
	if (isError) {
		const code = isPlainRecord(result) && typeof result.errorCode === 'string' ? result.errorCode : undefined;
		return {content: [{type: 'text', text: `Error: the provider's ${name} failed${code === undefined ? '' : `: ${code}`}`}]};
	}

	if (name === 'web_search' && isIntrinsicArray(result)) {
		const sources: WebSource[] = [];
		for (const item of result) {
			if (isPlainRecord(item) && typeof item.url === 'string') {
				sources.push({url: item.url, ...(typeof item.title === 'string' ? {title: item.title} : {}), ...(typeof item.pageAge === 'string' ? {publishedAt: item.pageAge} : {})});
			}
		}

		return {content: renderWebSearch({sources, truncated: false}), meta: {sources, truncated: false} as unknown as JsonValue};
	}

	if (name === 'web_fetch' && isPlainRecord(result) && typeof result.url === 'string') {
		const document = isPlainRecord(result.content) ? result.content : {};
		const title = typeof document.title === 'string' ? document.title : undefined;
		return {content: [{type: 'text', text: `Fetched ${result.url}${title === undefined ? '' : `: ${title}`}`}], meta: {url: result.url, ...(title === undefined ? {} : {title})}};
	}

	return {content: [{type: 'text', text: JSON.stringify(result, null, 2) ?? 'null'}]};
}

function callTitle(name: string, args: unknown): string {
	const input = isPlainRecord(args) ? args : {};
	if (typeof input.query === 'string') {
		return input.query;
	}

	if (typeof input.url === 'string') {
		return input.url;
	}

	return name;
}

/** The presenter of every `provider_<name>` call. */
export const providerToolPresenter: Presenter = {
	presentCall(args: unknown): ToolCallView {
		const view: GenericCallView = {card: 'generic', title: callTitle('provider tool', args), kind: isPlainRecord(args) && typeof args.url === 'string' ? 'fetch' : 'search'};
		return view;
	},
	presentResult(args: unknown, result: ToolResult): ToolResultView | undefined {
		const meta = result.meta;
		if (result.isError || !isPlainRecord(meta)) {
			return undefined;
		}

		if (isIntrinsicArray(meta.sources) && meta.sources.every(source => isPlainRecord(source) && typeof source.url === 'string')) {
			return {card: 'web', kind: 'search', title: `${callTitle('web search', args)} (searched by the provider)`, sources: meta.sources as unknown as WebSource[], truncated: meta.truncated === true};
		}

		if (typeof meta.url === 'string') {
			return {card: 'generic', title: `${typeof meta.title === 'string' ? meta.title : sourceLabel({url: meta.url})} (fetched by the provider)`};
		}

		return undefined;
	},
};

/** `fallback`'s presenters, and the provider tools' for `provider_<name>`. */
export function withProviderToolPresenter(fallback: PresenterLookup): PresenterLookup {
	return name => name.startsWith(PROVIDER_TOOL_PREFIX) ? providerToolPresenter : fallback(name);
}
