/**
@module The classed error of `grep` and `glob` failures that are not path problems (those are `FsError`).
*/
import {HarnessError} from '../../tools/errors.js';

/** Stable codes of `SearchError`. */
export type SearchErrorCode =
	/** The regular expression (or the include glob) was rejected. */
	| 'SEARCH_INVALID_PATTERN'
	/** The search could not run or its output could not be parsed. */
	| 'SEARCH_FAILED'
	/** The raw match output exceeded its byte cap. */
	| 'SEARCH_RAW_OUTPUT_OVERFLOW'
	/** The search timed out or was cancelled. */
	| 'SEARCH_ABORTED';

/** A search failure with a stable code. */
export class SearchError extends HarnessError {
	declare readonly code: SearchErrorCode;

	constructor(message: string, code: SearchErrorCode, options?: ErrorOptions) {
		super(message, code, options);
	}
}
