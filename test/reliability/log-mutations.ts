/**
Mutations of session logs for the robustness fuzzer: byte damage (truncation, bit flips), line
damage (deletion, duplication, reordering), and structural damage of one event (a wrong type in any
field, a huge string, a string of 300 000 lines (huge row counts), 100 000 levels of nesting, an unknown event type or card kind, a result without
its call, a call without its result, a duplicated call id, a header of another version).
*/
import fc from 'fast-check';

/** A value of the wrong type (or a hostile one) to put into a field. */
export const WRONG_VALUES: readonly unknown[] = [null, 0, -1, 1.5, 1e308, true, false, '', 'x', '\u001B]0;t\u0007', [], [1], {}, {card: 'hologram'}, {type: 'tool-result'}];

/** A JSON text nested `depth` levels deep (arrays or objects). */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
	return kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** One mutation; numbers pick lines, paths and values modulo what exists. */
export type Mutation =
	| {readonly kind: 'truncate'; readonly at: number}
	| {readonly kind: 'flip'; readonly at: number; readonly bit: number}
	| {readonly kind: 'delete-line' | 'duplicate-line'; readonly line: number}
	| {readonly kind: 'move-line'; readonly from: number; readonly to: number}
	| {readonly kind: 'wrong-type'; readonly line: number; readonly path: number; readonly value: number}
	| {readonly kind: 'huge-string'; readonly line: number; readonly path: number; readonly bytes: number}
	| {readonly kind: 'many-lines'; readonly line: number; readonly path: number; readonly lines: number}
	| {readonly kind: 'deep'; readonly line: number; readonly path: number; readonly nesting: 'array' | 'object'}
	| {readonly kind: 'unknown-type'; readonly line: number; readonly ignorable: boolean}
	| {readonly kind: 'unknown-card'; readonly line: number}
	| {readonly kind: 'drop-type'; readonly type: 'tool/call' | 'tool/result'; readonly nth: number}
	| {readonly kind: 'duplicate-call-id'; readonly a: number; readonly b: number}
	| {readonly kind: 'header-version'; readonly value: number};

/** Nesting depth of the `deep` mutation (the brief's 100 000 levels). */
export const DEEP_LEVELS = 100_000;

/** Any mutation. Huge strings are at most 4 MiB so a case stays fast. */
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
	fc.record({kind: fc.constant('truncate' as const), at: fc.nat()}),
	fc.record({kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({min: 0, max: 7})}),
	fc.record({kind: fc.constantFrom('delete-line' as const, 'duplicate-line' as const), line: fc.nat()}),
	fc.record({kind: fc.constant('move-line' as const), from: fc.nat(), to: fc.nat()}),
	fc.record({kind: fc.constant('wrong-type' as const), line: fc.nat(), path: fc.nat(), value: fc.nat()}),
	fc.record({kind: fc.constant('huge-string' as const), line: fc.nat(), path: fc.nat(), bytes: fc.integer({min: 1 << 16, max: 1 << 22})}),
	// Past the ~125 000 arguments a spread may pass: a card of that many rows must still replay.
	fc.record({kind: fc.constant('many-lines' as const), line: fc.nat(), path: fc.nat(), lines: fc.integer({min: 130_000, max: 300_000})}),
	fc.record({kind: fc.constant('deep' as const), line: fc.nat(), path: fc.nat(), nesting: fc.constantFrom('array' as const, 'object' as const)}),
	fc.record({kind: fc.constant('unknown-type' as const), line: fc.nat(), ignorable: fc.boolean()}),
	fc.record({kind: fc.constant('unknown-card' as const), line: fc.nat()}),
	fc.record({kind: fc.constant('drop-type' as const), type: fc.constantFrom('tool/call' as const, 'tool/result' as const), nth: fc.nat()}),
	fc.record({kind: fc.constant('duplicate-call-id' as const), a: fc.nat(), b: fc.nat()}),
	fc.record({kind: fc.constant('header-version' as const), value: fc.nat()}),
);

type Json = null | boolean | number | string | Json[] | {[key: string]: Json};

/** How deep `pathsOf` looks: enough for every field of an event, and no recursion into deep values. */
const PATH_DEPTH = 10;

/** Paths to every value inside `value` down to PATH_DEPTH (the root excluded), in document order. Iterative. */
function pathsOf(value: Json): Array<ReadonlyArray<string | number>> {
	const paths: Array<ReadonlyArray<string | number>> = [];
	const stack: Array<{readonly value: Json; readonly path: ReadonlyArray<string | number>}> = [{value, path: []}];
	while (stack.length > 0) {
		const {value: current, path} = stack.pop()!;
		if (path.length > 0) {
			paths.push(path);
		}

		if (path.length >= PATH_DEPTH || typeof current !== 'object' || current === null) {
			continue;
		}

		const entries: Array<[string | number, Json]> = Array.isArray(current) ? current.map((item, index) => [index, item]) : Object.entries(current);
		for (const [key, item] of entries.reverse()) {
			stack.push({value: item, path: [...path, key]});
		}
	}

	return paths;
}

/** `value` with the value at `path` replaced by a placeholder string; returns the placeholder. */
function setAt(value: Json, path: ReadonlyArray<string | number>, replacement: Json): Json {
	if (path.length === 0) {
		return replacement;
	}

	const [head, ...rest] = path;
	if (Array.isArray(value)) {
		const copy = [...value];
		copy[head as number] = setAt(copy[head as number]!, rest, replacement);
		return copy;
	}

	const record = value as {[key: string]: Json};
	return {...record, [head as string]: setAt(record[head as string]!, rest, replacement)};
}

const RAW = '\u0000RAW\u0000';

/** Replaces the value at path number `pick` of a JSON line by `raw` JSON text (the line stays as is if it does not parse). */
function replaceInLine(line: string, pick: number, raw: string): string {
	let value: Json;
	try {
		value = JSON.parse(line) as Json;
	} catch {
		return line;
	}

	const paths = pathsOf(value);
	if (paths.length === 0) {
		return line;
	}

	// The placeholder survives JSON.stringify as `"\u0000RAW\u0000"` and is swapped for the raw text.
	// A line already made 100 000 levels deep cannot be stringified again: it is left as it is.
	try {
		return JSON.stringify(setAt(value, paths[pick % paths.length]!, RAW)).replace(JSON.stringify(RAW), () => raw);
	} catch {
		return line;
	}
}

function parsed(line: string): {type?: unknown; data?: {callId?: unknown; message?: {source?: {callId?: unknown}}}} | undefined {
	try {
		const value = JSON.parse(line) as unknown;
		return typeof value === 'object' && value !== null ? value as ReturnType<typeof parsed> : undefined;
	} catch {
		return undefined;
	}
}

/** Applies `mutations` in order to a log's bytes. Line mutations never touch the header unless they say so. */
export function mutateLog(bytes: Buffer, mutations: readonly Mutation[]): Buffer {
	let current = bytes;
	for (const change of mutations) {
		if (change.kind === 'truncate') {
			current = current.subarray(0, change.at % (current.length + 1));
			continue;
		}

		if (change.kind === 'flip') {
			if (current.length > 0) {
				current = Buffer.from(current);
				current[change.at % current.length]! ^= 1 << change.bit;
			}

			continue;
		}

		// Line-level work on UTF-8 text; latin1 would corrupt multi-byte characters in JSON.parse.
		const lines = current.toString('utf8').split('\n');
		const trailing = lines.at(-1) === '' ? lines.pop() : undefined;
		const body = (n: number) => 1 + (n % Math.max(1, lines.length - 1));
		try {
			applyLineMutation(lines, change, body);
		} catch (error) {
			// Re-serialising an event that an earlier mutation nested 100 000 deep overflows the stack: skip this mutation.
			if (!(error instanceof RangeError)) {
				throw error;
			}
		}

		current = Buffer.from(`${lines.join('\n')}${trailing === undefined ? '' : '\n'}`);
	}

	return current;
}

type LineMutation = Exclude<Mutation, {readonly kind: 'truncate' | 'flip'}>;

function applyLineMutation(lines: string[], change: LineMutation, body: (n: number) => number): void {
	switch (change.kind) {
		case 'delete-line': {
			lines.splice(body(change.line), 1);
			break;
		}

		case 'duplicate-line': {
			const index = body(change.line);
			lines.splice(index, 0, lines[index] ?? '');
			break;
		}

		case 'move-line': {
			const [moved] = lines.splice(body(change.from), 1);
			lines.splice(body(change.to), 0, moved ?? '');
			break;
		}

		case 'wrong-type': {
			const index = body(change.line);
			lines[index] = replaceInLine(lines[index] ?? '', change.path, JSON.stringify(WRONG_VALUES[change.value % WRONG_VALUES.length]));
			break;
		}

		case 'huge-string': {
			const index = body(change.line);
			lines[index] = replaceInLine(lines[index] ?? '', change.path, JSON.stringify('\u001B[2J'.repeat(Math.ceil(change.bytes / 9))));
			break;
		}

		case 'many-lines': {
			const index = body(change.line);
			lines[index] = replaceInLine(lines[index] ?? '', change.path, JSON.stringify('x\n'.repeat(change.lines)));
			break;
		}

		case 'deep': {
			const index = body(change.line);
			lines[index] = replaceInLine(lines[index] ?? '', change.path, deepJson(DEEP_LEVELS, change.nesting));
			break;
		}

		case 'unknown-type': {
			const index = body(change.line);
			const event = parsed(lines[index] ?? '');
			if (event !== undefined) {
				lines[index] = JSON.stringify({...event, type: 'hologram/beam', ...(change.ignorable ? {ignorable: true} : {})});
			}

			break;
		}

		case 'unknown-card': {
			const index = body(change.line);
			const event = parsed(lines[index] ?? '');
			if (event?.type === 'tool/result' && typeof event.data === 'object' && event.data !== null) {
				lines[index] = JSON.stringify({...event, data: {...event.data, meta: {card: 'hologram', view: {card: 'hologram', beams: 3}}}});
			} else if (event !== undefined) {
				lines[index] = JSON.stringify({...event, data: {...event.data, card: 'hologram', view: {card: 'hologram'}}});
			}

			break;
		}

		case 'drop-type': {
			const indexes = lines.map((line, index) => (parsed(line)?.type === change.type ? index : -1)).filter(index => index > 0);
			if (indexes.length > 0) {
				lines.splice(indexes[change.nth % indexes.length]!, 1);
			}

			break;
		}

		case 'duplicate-call-id': {
			const calls = lines.map((line, index) => (parsed(line)?.type === 'tool/call' ? index : -1)).filter(index => index > 0);
			if (calls.length >= 2) {
				const source = parsed(lines[calls[change.a % calls.length]!]!)!;
				const target = calls[change.b % calls.length]!;
				const event = parsed(lines[target]!)!;
				lines[target] = JSON.stringify({...event, data: {...event.data, callId: source.data?.callId}});
			}

			break;
		}

		case 'header-version': {
			const header = parsed(lines[0] ?? '');
			if (header !== undefined) {
				lines[0] = JSON.stringify({...header, version: [1, -1, '0', null, 0.5, 2 ** 53][change.value % 6]});
			}

			break;
		}

		default: {
			throw new Error(`unknown mutation ${JSON.stringify(change)}`);
		}
	}
}

/** How many value paths (to PATH_DEPTH) a JSON line has; 0 when it does not parse. */
export function countPaths(line: string): number {
	try {
		return pathsOf(JSON.parse(line) as Json).length;
	} catch {
		return 0;
	}
}
