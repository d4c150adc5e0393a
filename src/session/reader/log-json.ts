/**
@module Parsing one line of a session log: `JSON.parse` behind the nesting bounds, so a hostile line
cannot make the parser take hundreds of MB (or a later recursive walk overflow the stack).

Bounds (contract.md has none; these are far above what events need):
- MAX_LOG_NESTING = 512 levels of arrays and objects. The dsh corpus nests at most 8; the contract's
  deepest rule is its 256-level cap on child call trees; results render depth 5 and more collapsed.
- MAX_LOG_CONTAINERS = 1 048 576 arrays and objects in one line (at ~60 bytes each, ~60 MB of heap).
*/
import {scanJsonNesting} from '../../json/nesting-scan.js';

export const MAX_LOG_NESTING = 512;
export const MAX_LOG_CONTAINERS = 1024 * 1024;

/** The parsed line, or why it was not parsed. */
export type ParsedLogLine = {readonly ok: true; readonly value: unknown} | {readonly ok: false; readonly problem: string};

/** Parses a log line within the bounds. `problem` is a diagnostic reason (`nested deeper than 512`, `not valid JSON`). */
export function parseLogJson(text: string): ParsedLogLine {
	// Each level takes two characters: a shorter line cannot pass either bound, so it is not scanned.
	const excess = text.length > 2 * MAX_LOG_NESTING ? scanJsonNesting(text, MAX_LOG_NESTING, MAX_LOG_CONTAINERS) : undefined;
	if (excess !== undefined) {
		return {ok: false, problem: excess.kind === 'depth' ? `nested deeper than ${excess.limit}` : `holds more than ${excess.limit} arrays and objects`};
	}

	try {
		return {ok: true, value: JSON.parse(text) as unknown};
	} catch {
		return {ok: false, problem: 'not valid JSON'};
	}
}
