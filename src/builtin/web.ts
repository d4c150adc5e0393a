/**
@module The web tools `web_fetch` and `web_search` (contract.md §E2.8–§E2.9, §E5.1).

Defaults: fetch deadline 30 s (redirects and body included), 5 redirects, 5 MiB of decoded body,
1 000 000 HTML characters converted, 100 000 characters of text kept, 200 000 characters of model
text; search 4 queries, 8 sources. The search backend is a SearXNG instance named by
`CARDTERM_SEARXNG_URL` (optional bearer key `CARDTERM_SEARXNG_KEY`) unless a provider is passed.
*/
import type {ToolDefinition} from '../tools/types.js';
import type {WebFetchOptions} from './web/run-web-fetch.js';
import type {SearchProvider} from './web/search-provider.js';
import {searchProviderFromEnv} from './web/searxng-provider.js';
import {webFetchTool} from './web/web-fetch-tool.js';
import {webSearchTool, type WebSearchOptions} from './web/web-search-tool.js';

/** Configuration of both web tools. */
export type WebToolsOptions = {
	readonly fetch?: WebFetchOptions;
	/** `provider` absent: taken from `env` (default `process.env`); none there either: calls fail with the setup hint. */
	readonly search?: WebSearchOptions;
	/** Where `CARDTERM_SEARXNG_URL` / `CARDTERM_SEARXNG_KEY` are read (default `process.env`). */
	readonly env?: Readonly<Record<string, string | undefined>>;
};

/** `web_search` and `web_fetch`. */
export function webTools(options: WebToolsOptions = {}): ToolDefinition[] {
	const provider: SearchProvider | undefined = options.search?.provider ?? searchProviderFromEnv(options.env ?? process.env);
	return [webSearchTool({...options.search, ...(provider === undefined ? {} : {provider})}), webFetchTool(options.fetch)];
}
