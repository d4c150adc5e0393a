/**
@module `web_search`'s body: validate the queries, ask the provider once per distinct query (in
parallel), merge the sources round-robin (rank 1 of every query, then rank 2, …), drop repeated
URLs, keep the first `maxResults`, and gather the answers.
*/
import type {WebSource} from '../../tools/views.js';
import type {SearchProvider, SearchResponse} from './search-provider.js';
import {WebSearchError} from './web-errors.js';

/** The canonical value of `web_search`: the answer (as `content`), the sources, and whether any were cut. */
export type WebSearchValue = {readonly content?: string; readonly sources: WebSource[]; readonly truncated: boolean};

/** Caps of `web_search`. */
export type WebSearchLimits = {
	/** Queries per call (spec default 4). */
	readonly maxQueries: number;
	/** Sources kept after merging (spec default 8). */
	readonly maxResults: number;
};

/** The message of the error a call gets when no provider is configured. */
export const noSearchProviderMessage = 'no search provider configured — set CARDTERM_SEARXNG_URL to a SearXNG instance';

/** Trim the queries, refuse blanks and too many, collapse duplicates (first occurrence wins). */
export function distinctQueries(queries: readonly string[], maxQueries: number): string[] {
	if (queries.length === 0 || queries.length > maxQueries) {
		throw new WebSearchError(`web_search: "queries" must hold 1 to ${maxQueries} queries, got ${queries.length}`, 'WEB_SEARCH_INVALID_QUERY');
	}

	const distinct: string[] = [];
	for (const [index, query] of queries.entries()) {
		const trimmed = query.trim();
		if (trimmed === '') {
			throw new WebSearchError(`web_search: "queries[${index}]" must not be blank`, 'WEB_SEARCH_INVALID_QUERY');
		}

		if (!distinct.includes(trimmed)) {
			distinct.push(trimmed);
		}
	}

	return distinct;
}

/** Merge per-query responses (in query order) into the canonical value. */
export function mergeSearchResponses(queries: readonly string[], responses: readonly SearchResponse[], maxResults: number): WebSearchValue {
	const seen = new Set<string>();
	const merged: WebSource[] = [];
	let longest = 0;
	for (const response of responses) {
		longest = Math.max(longest, response.sources.length);
	}

	for (let rank = 0; rank < longest; rank++) {
		for (const response of responses) {
			const source = response.sources[rank];
			if (source !== undefined && !seen.has(source.url)) {
				seen.add(source.url);
				merged.push(source);
			}
		}
	}

	const answered = queries.flatMap((query, index) => {
		const answer = responses[index]?.answer;
		return answer === undefined || answer.trim() === '' ? [] : [{query, answer: answer.trim()}];
	});
	const content = queries.length === 1 ? answered[0]?.answer : answered.map(({query, answer}) => `### ${query}\n\n${answer}`).join('\n\n');
	const sources = merged.slice(0, maxResults);
	const truncated = merged.length > maxResults;
	return content === undefined || content === '' ? {sources, truncated} : {content, sources, truncated};
}

/** Run the search. */
export async function runWebSearch(
	queries: readonly string[],
	provider: SearchProvider | undefined,
	limits: WebSearchLimits,
	signal: AbortSignal,
): Promise<WebSearchValue> {
	const distinct = distinctQueries(queries, limits.maxQueries);
	if (provider === undefined) {
		throw new WebSearchError(noSearchProviderMessage, 'WEB_SEARCH_NOT_CONFIGURED');
	}

	const responses = await Promise.all(distinct.map(async query => provider.search(query, {signal})));
	return mergeSearchResponses(distinct, responses, limits.maxResults);
}
