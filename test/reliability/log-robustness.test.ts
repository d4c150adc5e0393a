/**
Promise 2 (issue 8): a damaged log never crashes or hangs `cardterm replay`. Every input either
replays (exit 0, each bad line named on stderr as `FILE:LINE: reason`, then one count line) or is
refused with exit 65 and a one-line reason, in `--json` and `--print` alike. Inputs: the fixture
logs, a recorded session of every reference tool and the dsh corpus when present, mutated by
`log-mutations.ts` (byte and line damage, wrong types in any field, huge strings, 100 000-level
nesting, unknown event types and card kinds, orphan results and calls, duplicate call ids).
Memory bound checked here: the heap still reachable after all random cases and a full GC grows by
less than RETAINED_HEAP_LIMIT (the peak is bounded in log-heap-cap.test.ts). Seeded;
`CARDTERM_FUZZ_CASES=N` runs N random cases, `CARDTERM_FUZZ_SEED=S` another seed.
*/
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {setFlagsFromString} from 'node:v8';
import {runInNewContext} from 'node:vm';
import fc from 'fast-check';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {fuzzCases, fuzzSeed} from './hostile-text.js';
import {countPaths, mutateLog, mutation, WRONG_VALUES, type Mutation} from './log-mutations.js';
import {checkBoth, loadSeeds, replay, type Seed} from './replay-check.js';
import {rawFrame, rleBombFrame, TEN_GIB_BLOCKS} from './zstd-frames.js';

/** Heap still reachable after every random case ran and a full GC, above what it was before. */
const RETAINED_HEAP_LIMIT = 64 * 1024 * 1024;

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

let dir: string;
let seeds: Seed[];

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'cardterm-robust-'));
	seeds = await loadSeeds();
});

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

function heapAfterGc(): number {
	gc();
	return process.memoryUsage().heapUsed;
}

describe('a damaged session log', () => {
	it('replays or is refused with exit 65 for random damage of fixture, recorded and corpus logs, holding no heap afterwards', async () => {
		const before = heapAfterGc();
		await fc.assert(fc.asyncProperty(fc.nat(), fc.array(mutation, {minLength: 1, maxLength: 4}), async (pick, mutations: Mutation[]) => {
			// Half the cases on the few fixture and recorded logs (zstd and hostile included), half over everything.
			const own = seeds.filter(item => !item.name.startsWith('corpus/'));
			const seed = pick % 2 === 0 ? own[(pick >> 1) % own.length]! : seeds[(pick >> 1) % seeds.length]!;
			await checkBoth(dir, mutateLog(seed.bytes, mutations), `${seed.name} after ${JSON.stringify(mutations)}`);
		}), {numRuns: fuzzCases(60), seed: fuzzSeed()});
		const retained = heapAfterGc() - before;
		expect(retained).toBeLessThan(RETAINED_HEAP_LIMIT);
	}, 120_000);

	it('replays (exit 0) each kind of structural damage: unknown event types and card kinds, orphan results and calls, deep nesting, a huge string, huge row counts', async () => {
		// basic.jsonl: mutation line 7 is its tool/call, line 8 its tool/result (line numbers count past the header).
		const seed = seeds[0]!.bytes;
		const cases: Array<[string, Mutation[]]> = [
			['unknown event type', [{kind: 'unknown-type', line: 5, ignorable: false}]],
			['unknown ignorable event type', [{kind: 'unknown-type', line: 5, ignorable: true}]],
			['unknown card kind in meta', [{kind: 'unknown-card', line: 8}]],
			['result without its call', [{kind: 'drop-type', type: 'tool/call', nth: 0}]],
			['call without its result', [{kind: 'drop-type', type: 'tool/result', nth: 0}]],
			['deep arrays in every field of the result line', Array.from({length: 12}, (_, path) => ({kind: 'deep' as const, line: 8, path: path * 3, nesting: 'array' as const}))],
			['deep objects in the call line', Array.from({length: 6}, (_, path) => ({kind: 'deep' as const, line: 7, path, nesting: 'object' as const}))],
			['a 4 MiB string', [{kind: 'huge-string', line: 8, path: 4, bytes: 1 << 22}]],
			// Path 19 of the result line is its text block's `text`.
			['a result text of 300 000 lines', [{kind: 'many-lines', line: 8, path: 19, lines: 300_000}]],
		];
		for (const [label, mutations] of cases) {
			// sequential for readable failures
			expect([label, await checkBoth(dir, mutateLog(seed, mutations), label)]).toEqual([label, 'replayed']);
		}
	}, 60_000);

	it('replays or is refused with exit 65 with a wrong type in every field of every event of a fixture', async () => {
		const seed = seeds.find(item => item.name === 'basic.jsonl')!.bytes;
		const lines = seed.toString('utf8').split('\n').filter(line => line !== '');
		let cases = 0;
		for (let line = 1; line < lines.length; line++) {
			for (let path = 0; path < countPaths(lines[line]!); path++) {
				// Line numbers of the mutation count from 1 past the header, so line N is `line: N - 1`.
				const change: Mutation = {kind: 'wrong-type', line: line - 1, path, value: cases % WRONG_VALUES.length};
				// one replay at a time
				await checkBoth(dir, mutateLog(seed, [change]), `basic.jsonl ${JSON.stringify(change)}`);
				cases++;
			}
		}

		expect(cases).toBeGreaterThan(100);
	}, 60_000);

	it('names each damaged line on stderr with its line number and reason', async () => {
		const path = join(dir, 'named.jsonl');
		const damaged = mutateLog(seeds[0]!.bytes, [{kind: 'unknown-type', line: 0, ignorable: false}]);
		// An unknown type (line 2), a garbage line (13; the seq jump after it is put down to it), a torn tail (15).
		writeFileSync(path, Buffer.concat([damaged, Buffer.from('not json\n{"type":"turn/start","seq":99,"time":1,"data":{"turn":2}}\n{"type":"turn/e')]));
		const outcome = await replay(path, '--json');
		expect(outcome.code).toBe(0);
		expect(outcome.err.split('\n').map(line => line.replace(/: .*/, ''))).toEqual([`${path}:2`, `${path}:13`, `${path}:15`, 'cardterm', '']);
		expect(outcome.err).toContain('hologram/beam');
		expect(outcome.err).toContain(`cardterm: 3 damaged lines skipped in ${path}\n`);
	});

	it('is refused with exit 65 and a one-line reason for each header of another version', async () => {
		for (let value = 0; value < 6; value++) {
			// sequential for readable failures
			expect(await checkBoth(dir, mutateLog(seeds[0]!.bytes, [{kind: 'header-version', value}]), `header version #${value}`)).toBe('refused');
		}
	});

	it('names each compressed or container damage and replays the rest: a checksum mismatch, a decompression bomb, deep nesting', async () => {
		// Issue 11 items 7, 8, 10 (their own suites: zstd-checksum, zstd-bomb, log-heap-cap; endless input: endless-input).
		const basic = seeds.find(item => item.name === 'basic.jsonl')!.bytes;
		const [header, ...events] = basic.toString('utf8').split('\n');
		const zstdSeed = seeds.find(item => item.name === 'basic.jsonl.zst')!.bytes;
		const flipped = Buffer.from(zstdSeed);
		flipped[571] ^= 0x10;
		const cases: Array<[string, Buffer, RegExp]> = [
			['a zstd frame whose checksum does not match', flipped, /:8: zstd frame 3: checksum mismatch/],
			['a 10 GiB zstd bomb after the header', Buffer.concat([rawFrame(`${header}\n`), rleBombFrame(TEN_GIB_BLOCKS, 0x20)]), /:2: zstd frame 2 expands past the limit .*: refused as a decompression bomb/],
			['a line nested 1 000 levels deep', Buffer.from([header, `{"type":"x","seq":0,"time":1,"data":${'['.repeat(1000)}${']'.repeat(1000)}}`, ...events].join('\n')), /:2: nested deeper than 512\n/],
		];
		for (const [label, bytes, reason] of cases) {
			const path = join(dir, 'case.jsonl');
			// sequential for readable failures
			expect([label, await checkBoth(dir, bytes, label)]).toEqual([label, 'replayed']);
			// sequential for readable failures
			expect([label, (await replay(path, '--json')).err]).toEqual([label, expect.stringMatching(reason)]);
		}
	}, 60_000);
});
