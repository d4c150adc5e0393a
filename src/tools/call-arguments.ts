/**
@module A call's argument text as a value: JSON within bounds, one rule wherever arguments are read
— the agent loop that decides whether a call runs, the conversation sent back to the model, the
runtime that runs it, a card and a replay.

Why bounds: a model (or a log) writes arguments as text, and text is cheap to nest. `JSON.parse`
takes 30–60 heap bytes per array or object (a 32 MB string of 16 M arrays took 1.7 GB to replay),
and every later walk of the value recurses per level (the model library's `JSON.stringify` of the
next request overflowed the stack on 5 000 levels, so every later turn failed). Arguments a tool
takes nest a few levels (the built-in tools at most 3) and hold a few hundred containers, so past
`ARGUMENT_MAX_DEPTH` levels or `ARGUMENT_MAX_CONTAINERS` arrays and objects the text is not parsed:
the call is refused, its card shows the text.
*/
import {scanJsonNesting} from '../json/nesting-scan.js';

/** Levels of arrays and objects a call's arguments may nest (as a config file may). */
export const ARGUMENT_MAX_DEPTH = 64;
/** Arrays and objects a call's arguments may hold (~6 MB of heap once parsed). */
export const ARGUMENT_MAX_CONTAINERS = 100_000;

/** The parsed arguments, or why the text is not used: not JSON (V8's message), or past a bound (the sentence says which). */
export type ArgumentsText = {readonly ok: true; readonly value: unknown} | {readonly ok: false; readonly kind: 'syntax' | 'nesting'; readonly problem: string};

/** `raw` parsed within the bounds; blank text is a call without arguments (`{}`). */
export function readArgumentsText(raw: string): ArgumentsText {
	if (raw.trim() === '') {
		return {ok: true, value: {}};
	}

	// Each level takes at least two characters: shorter text cannot pass either bound, so it is not scanned.
	const excess = raw.length > 2 * ARGUMENT_MAX_DEPTH ? scanJsonNesting(raw, ARGUMENT_MAX_DEPTH, ARGUMENT_MAX_CONTAINERS) : undefined;
	if (excess !== undefined) {
		return {ok: false, kind: 'nesting', problem: excess.kind === 'depth' ? `the arguments nest deeper than ${excess.limit} levels of arrays and objects` : `the arguments hold more than ${excess.limit} arrays and objects`};
	}

	try {
		return {ok: true, value: JSON.parse(raw) as unknown};
	} catch (error) {
		return {ok: false, kind: 'syntax', problem: error instanceof Error ? error.message : String(error)};
	}
}
