/**
@module Classed errors of the web tools. Their `code` lands on the failed result (`error.info`), so a
UI or a policy can tell a refused scheme from a timeout without parsing the message.
*/
import {HarnessError} from '../../tools/errors.js';

/** Why a `web_fetch` call failed. */
export type WebFetchErrorCode =
	| 'WEB_FETCH_INVALID_URL'
	| 'WEB_FETCH_UNSUPPORTED_SCHEME'
	| 'WEB_FETCH_TOO_MANY_REDIRECTS'
	| 'WEB_FETCH_TIMEOUT'
	| 'WEB_FETCH_UNSUPPORTED_CONTENT_TYPE'
	| 'WEB_FETCH_NETWORK';

/** A `web_fetch` failure: the message names the URL and what went wrong. */
export class WebFetchError extends HarnessError {
	declare readonly code: WebFetchErrorCode;

	constructor(message: string, code: WebFetchErrorCode, options?: ErrorOptions) {
		super(message, code, options);
	}
}

/** Why a `web_search` call failed. */
export type WebSearchErrorCode = 'WEB_SEARCH_NOT_CONFIGURED' | 'WEB_SEARCH_PROVIDER' | 'WEB_SEARCH_INVALID_QUERY';

/** A `web_search` failure. */
export class WebSearchError extends HarnessError {
	declare readonly code: WebSearchErrorCode;

	constructor(message: string, code: WebSearchErrorCode, options?: ErrorOptions) {
		super(message, code, options);
	}
}
