import {readFileSync} from 'node:fs';
import {Readable} from 'node:stream';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {isPlainRecord} from '../../../src/json/is-plain-record.js';
import {openSessionLog} from '../../../src/session/reader/read-session-log.js';
import {SessionLogError, type LogDiagnostic} from '../../../src/session/reader/log-errors.js';
import {fixture} from '../helpers.js';

const plain = readFileSync(fixture('basic.jsonl'));
const compressed = readFileSync(fixture('basic.jsonl.zst'));

type Mutation =
	| {kind: 'truncate'; at: number}
	| {kind: 'flip'; at: number; bit: number}
	| {kind: 'delete-line'; line: number}
	| {kind: 'duplicate-line'; line: number}
	| {kind: 'swap-lines'; a: number; b: number}
	| {kind: 'insert'; line: number; text: string};

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
	fc.record({kind: fc.constant('truncate' as const), at: fc.nat()}),
	fc.record({kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({min: 0, max: 7})}),
	fc.record({kind: fc.constant('delete-line' as const), line: fc.nat()}),
	fc.record({kind: fc.constant('duplicate-line' as const), line: fc.nat()}),
	fc.record({kind: fc.constant('swap-lines' as const), a: fc.nat(), b: fc.nat()}),
	fc.record({kind: fc.constant('insert' as const), line: fc.nat(), text: fc.oneof(fc.json(), fc.string(), fc.jsonValue().map(value => JSON.stringify({type: 'tool/result', seq: 3, time: 1, data: value})))}),
);

function mutate(bytes: Buffer, mutations: readonly Mutation[]): Buffer {
	let current = Buffer.from(bytes);
	for (const change of mutations) {
		const lines = current.toString('latin1').split('\n');
		const pick = (n: number) => n % Math.max(1, lines.length);
		switch (change.kind) {
			case 'truncate':
				current = current.subarray(0, change.at % (current.length + 1));
				continue;
			case 'flip':
				if (current.length > 0) {
					current = Buffer.from(current);
					current[change.at % current.length] ^= 1 << change.bit;
				}

				continue;
			case 'delete-line':
				lines.splice(pick(change.line), 1);
				break;
			case 'duplicate-line':
				lines.splice(pick(change.line), 0, lines[pick(change.line)]);
				break;
			case 'swap-lines': {
				const [a, b] = [pick(change.a), pick(change.b)];
				[lines[a], lines[b]] = [lines[b], lines[a]];
				break;
			}

			case 'insert':
				lines.splice(pick(change.line), 0, Buffer.from(change.text, 'utf8').toString('latin1'));
				break;
			default:
				throw new Error('unknown mutation');
		}

		current = Buffer.from(lines.join('\n'), 'latin1');
	}

	return current;
}

/** Reads `bytes`; returns what happened. Anything thrown other than SessionLogError fails the property. */
async function readBytes(bytes: Buffer): Promise<'refused' | {events: number; diagnostics: LogDiagnostic[]}> {
	let log;
	try {
		log = await openSessionLog(Readable.from([bytes]), {name: 'fuzz.jsonl'});
	} catch (error) {
		if (error instanceof SessionLogError && error.exitCode === 65 && error.file === 'fuzz.jsonl') {
			return 'refused';
		}

		throw error;
	}

	let previous = -1;
	let events = 0;
	for await (const event of log.events) {
		expect(typeof event.type).toBe('string');
		expect(Number.isSafeInteger(event.seq) && event.seq > previous).toBe(true);
		expect(Number.isFinite(event.time)).toBe(true);
		expect(isPlainRecord(event.data)).toBe(true);
		previous = event.seq;
		events += 1;
	}

	for (const diagnostic of log.diagnostics) {
		expect(diagnostic.file).toBe('fuzz.jsonl');
		expect(diagnostic.line).toBeGreaterThan(1);
		expect(diagnostic.reason.length).toBeGreaterThan(0);
	}

	return {events, diagnostics: [...log.diagnostics]};
}

describe('a damaged log', () => {
	it('either reads with well-formed events in rising seq order or is refused with exit 65, for random damage', async () => {
		await fc.assert(fc.asyncProperty(fc.array(mutation, {minLength: 1, maxLength: 4}), async mutations => {
			await readBytes(mutate(plain, mutations));
		}), {numRuns: 300});
	});

	it('in zstd form never throws anything but SessionLogError, for random damage', async () => {
		await fc.assert(fc.asyncProperty(fc.array(fc.oneof(
			fc.record({kind: fc.constant('truncate' as const), at: fc.nat()}),
			fc.record({kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({min: 0, max: 7})}),
		), {minLength: 1, maxLength: 3}), async mutations => {
			await readBytes(mutate(compressed, mutations));
		}), {numRuns: 100});
	});

	it('in zstd form refuses a frame that asks for a window above the limit instead of allocating it', async () => {
		const damaged = Buffer.from(compressed);
		// Header descriptor 0x04 (checksum, no single segment) then window descriptor: exponent 30.
		damaged[5] = 30 << 3;
		const log = await openSessionLog(Readable.from([damaged]), {name: 'fuzz.jsonl'}).then(() => 'read', (error: unknown) => (error as Error).message);
		expect(log).toBe('fuzz.jsonl:1: missing header: zstd data is corrupt in the 0–6 byte range (frame 1): zstd frame asks for a 1099511627776-byte window, more than the 134217728-byte limit');
	});

	it('whose header line survives is never refused', async () => {
		await fc.assert(fc.asyncProperty(fc.array(mutation, {minLength: 1, maxLength: 4}), async mutations => {
			const headerLength = plain.indexOf(10) + 1;
			const body = mutate(plain.subarray(headerLength), mutations);
			const result = await readBytes(Buffer.concat([plain.subarray(0, headerLength), body]));
			expect(result).not.toBe('refused');
		}), {numRuns: 200});
	});
});

describe('a log cut at any byte of its last lines', () => {
	it('reads the whole lines before the cut and reports at most a torn tail', async () => {
		const lastLinesStart = plain.lastIndexOf(10, plain.lastIndexOf(10, plain.lastIndexOf(10, plain.length - 2) - 1) - 1) + 1;
		const complete = await readBytes(plain);
		expect(complete).not.toBe('refused');
		for (let cut = lastLinesStart; cut <= plain.length; cut += 1) {
			const bytes = plain.subarray(0, cut);
			const result = await readBytes(bytes);
			if (result === 'refused') {
				throw new Error(`cut at ${cut} was refused`);
			}

			const wholeLines = bytes.subarray(0, bytes.lastIndexOf(10) + 1).toString('utf8').split('\n').length - 2;
			// basic.jsonl's last lines are plain events: one event per line from here on.
			expect(result.events).toBe((complete as {events: number}).events - (plain.toString('utf8').split('\n').length - 2 - wholeLines));
			expect(result.diagnostics.map(({kind}) => kind)).toEqual(bytes.at(-1) === 10 ? [] : ['torn-tail']);
		}
	});
});
