/**
@module The log writer never writes a line its own reader refuses. The reader takes lines of at most
64 MiB (`line-splitter.ts`) nesting at most 512 levels and 1 048 576 arrays and objects
(`log-json.ts`); an event past those bounds — a plugin tool's 100 MB result, an agent's result
nested 600 deep — would be lost on replay and refuse `--continue`. So its data is kept within them
before it is written: values nested past `KEPT_DEPTH` levels, and arrays and objects past
`KEPT_CONTAINERS`, are replaced by a string that says so, and the longest strings are cut (each
ending in a marker with the count of characters not kept) until the line fits. Types and shapes
stay as they were: a result's text is still a string, a card still pairs with its call.
*/
import {scanJsonNesting} from '../../json/nesting-scan.js';
import {DEFAULT_MAX_LINE_BYTES} from '../reader/line-splitter.js';
import {MAX_LOG_CONTAINERS, MAX_LOG_NESTING} from '../reader/log-json.js';

/** Levels of an event's data kept: the reader's bound, with room for the envelope and a packed row around it. */
const KEPT_DEPTH = MAX_LOG_NESTING - 16;
/** Arrays and objects of an event's data kept: the reader's bound, with room for the envelope. */
const KEPT_CONTAINERS = MAX_LOG_CONTAINERS - 1024;
/** Bytes a line may take: the reader's bound, with room to spare. */
const KEPT_LINE_BYTES = DEFAULT_MAX_LINE_BYTES - 1024 * 1024;
/** A string is never cut shorter than this (a cut below it would say more in its marker than it keeps). */
const SHORTEST_CUT = 256;

/** What stands for a value the bounds leave out. */
const NOT_KEPT = `[not kept: nested deeper than ${KEPT_DEPTH} levels or past ${KEPT_CONTAINERS} arrays and objects, more than a session log's line holds]`;

/** Whether the reader would refuse `line` (its bytes, or its nesting). */
export function exceedsLineBounds(line: string): boolean {
	// A character takes at most three bytes of UTF-8 (a surrogate pair, four for two), so most lines need no count.
	if (line.length * 3 > KEPT_LINE_BYTES && Buffer.byteLength(line) > KEPT_LINE_BYTES) {
		return true;
	}

	return line.length > 2 * KEPT_DEPTH && scanJsonNesting(line, KEPT_DEPTH, KEPT_CONTAINERS) !== undefined;
}

/**
`record` (a log event as plain JSON data) kept within the reader's bounds, and its line (without the
newline). `stringify` is how the writer makes a line of it.
*/
export function fitLineBounds<T>(record: T, stringify: (value: T) => string): {readonly record: T; readonly line: string} {
	let fitted = bounded(record, 0, {containers: KEPT_CONTAINERS}, Number.POSITIVE_INFINITY) as T;
	let line = stringify(fitted);
	// Cut the longest strings until the line fits: each round aims under the bound by the share the line is over it.
	for (let longest = longestString(fitted); Buffer.byteLength(line) > KEPT_LINE_BYTES && longest > SHORTEST_CUT;) {
		longest = Math.max(SHORTEST_CUT, Math.floor(longest * 0.9 * KEPT_LINE_BYTES / Buffer.byteLength(line)));
		fitted = bounded(record, 0, {containers: KEPT_CONTAINERS}, longest) as T;
		line = stringify(fitted);
	}

	return {record: fitted, line};
}

/** A copy of `value` with nesting and containers within the bounds, and strings longer than `longest` cut. */
function bounded(value: unknown, depth: number, budget: {containers: number}, longest: number): unknown {
	if (typeof value === 'string') {
		return value.length > longest ? cut(value, longest) : value;
	}

	if (typeof value !== 'object' || value === null) {
		return value;
	}

	if (depth >= KEPT_DEPTH || budget.containers <= 0) {
		return NOT_KEPT;
	}

	budget.containers--;
	if (Array.isArray(value)) {
		return value.map(item => bounded(item, depth + 1, budget, longest));
	}

	const copy: Record<string, unknown> = {};
	for (const [key, item] of Object.entries(value)) {
		copy[key.length > longest ? cut(key, longest) : key] = bounded(item, depth + 1, budget, longest);
	}

	return copy;
}

function cut(text: string, keep: number): string {
	// A surrogate pair is not split: the kept part stays valid UTF-16.
	const end = /[\uD800-\uDBFF]/.test(text.charAt(keep - 1)) ? keep - 1 : keep;
	return `${text.slice(0, end)}… [${text.length - end} characters not kept: a session log's line holds at most ${DEFAULT_MAX_LINE_BYTES / 1024 / 1024} MiB]`;
}

/** The length of the longest string (or key) in `value`. */
function longestString(value: unknown): number {
	if (typeof value === 'string') {
		return value.length;
	}

	if (typeof value !== 'object' || value === null) {
		return 0;
	}

	let longest = 0;
	for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
		longest = Math.max(longest, typeof key === 'string' ? key.length : 0, longestString(item));
	}

	return longest;
}
