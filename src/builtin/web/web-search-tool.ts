/**
@module The `web_search` tool definition (contract.md §E2.8).
*/
import {defineTool} from '../../tools/define-tool.js';
import type {ToolDefinition} from '../../tools/types.js';
import {noSearchProviderMessage, runWebSearch} from './run-web-search.js';
import type {SearchProvider} from './search-provider.js';
import {presentWebSearchCall, presentWebSearchResult, renderWebSearch, webSearchMeta} from './web-search-output.js';

/** Configuration of `web_search`. */
export type WebSearchOptions = {
	/** The backend; absent, every call fails with the "no search provider configured" error. */
	readonly provider?: SearchProvider;
	/** Queries per call (default 4). */
	readonly maxQueries?: number;
	/** Sources kept after merging (default 8). */
	readonly maxResults?: number;
};

/** The `web_search` tool. */
export function webSearchTool(options: WebSearchOptions = {}): ToolDefinition {
	const {provider, maxQueries = 4, maxResults = 8} = options;
	for (const [name, value] of [['maxQueries', maxQueries], ['maxResults', maxResults]] as const) {
		if (!Number.isInteger(value) || value < 1) {
			throw new TypeError(`web_search option ${name} must be a positive integer, got ${String(value)}`);
		}
	}

	const tool: ToolDefinition = defineTool({
		name: 'web_search',
		description: `Search the web with 1 to ${maxQueries} distinct queries (phrasings of one question, or related ones). Returns up to ${maxResults} merged sources, and a short answer when the engine has one. Cite the URLs you rely on.`,
		parameters: {
			queries: {type: 'array', items: {type: 'string'}, required: true},
		},
		output: {
			schema: {
				type: 'object',
				additionalProperties: false,
				properties: {
					content: {type: 'string'},
					sources: {
						type: 'array',
						required: true,
						items: {
							type: 'object',
							additionalProperties: false,
							properties: {
								url: {type: 'string', required: true},
								title: {type: 'string'},
								snippet: {type: 'string'},
								publishedAt: {type: 'string'},
							},
						},
					},
					truncated: {type: 'boolean', required: true},
				},
			},
			render: (_args, value) => renderWebSearch(value),
			presentationMeta: (_args, value) => webSearchMeta(value),
		},
		isConcurrencySafe: () => true,
		execute: async (args, exec) => runWebSearch(args.queries, provider, {maxQueries, maxResults}, exec.signal),
		presentCall: args => presentWebSearchCall(args),
		presentResult: (args, result) => presentWebSearchResult(args, result),
	});
	// Offered to a model, a search without a backend only fails: the model is not told of it.
	return provider === undefined ? {...tool, unavailable: noSearchProviderMessage} : tool;
}
