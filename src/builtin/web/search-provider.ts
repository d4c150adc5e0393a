/**
@module The seam between `web_search` and a search backend. A provider answers one query; the tool
merges several queries' answers and sources.
*/
import type {WebSource} from '../../tools/views.js';

/** One query's answer (Markdown, when the backend has one) and its sources in rank order. */
export type SearchResponse = {readonly answer?: string; readonly sources: readonly WebSource[]};

/** A search backend. Rejections become the tool's error; `signal` aborts the request. */
export type SearchProvider = {
	/** A short name for messages, e.g. `SearXNG at https://search.example`. */
	readonly name: string;
	search(query: string, options: {readonly signal: AbortSignal}): Promise<SearchResponse>;
};
