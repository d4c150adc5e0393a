/**
Promise 2 (issue 8), memory: the heaviest damaged inputs (a line of tens of MiB, 100 000-level
nesting in every field of a result) replay in a child process whose V8 heap is capped at
CHILD_HEAP_MB, with the same outcome rules as the in-process fuzzer. Needs dist/ (npm run build).
*/
import {spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, describe, expect, it} from 'vitest';
import {MAX_LOG_CONTAINERS, MAX_LOG_NESTING} from '../../src/session/reader/log-json.js';
import {builtEntry} from '../app/e2e-helpers.js';
import {fixture} from '../session/helpers.js';
import {mutateLog} from './log-mutations.js';
import {checkOutcome} from './replay-check.js';

/** V8 old-space cap of the child process. */
const CHILD_HEAP_MB = 256;

const dir = mkdtempSync(join(tmpdir(), 'cardterm-heap-'));

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

describe('a damaged session log under a heap cap', () => {
	it(`replays the heaviest inputs in a child process whose V8 heap is capped at ${CHILD_HEAP_MB} MB`, context => {
		const bin = fileURLToPath(new URL('../../bin/cardterm', import.meta.url));
		if (!existsSync(builtEntry)) {
			context.skip('dist/ is not built (npm run build); the in-process cases above still ran');
		}

		const seed = readFileSync(fixture('basic.jsonl'));
		const heavy: Array<[string, Buffer]> = [
			['a 24 MiB string in a result', mutateLog(seed, [{kind: 'huge-string', line: 8, path: 4, bytes: 24 << 20}])],
			['100 000-level nesting in every field of a result', mutateLog(seed, Array.from({length: 8}, (_, path) => ({kind: 'deep' as const, line: 8, path, nesting: 'array' as const})))],
		];
		for (const [label, bytes] of heavy) {
			const path = join(dir, 'heavy.jsonl');
			writeFileSync(path, bytes);
			for (const mode of ['--json', '--print'] as const) {
				const child = spawnSync(process.execPath, [`--max-old-space-size=${CHILD_HEAP_MB}`, bin, 'replay', path, mode], {encoding: 'utf8', timeout: 60_000, maxBuffer: 512 << 20, env: {...process.env, NO_COLOR: '1'}});
				checkOutcome({code: child.status ?? -1, out: child.stdout, err: child.stderr}, path, mode, `${label} (child, signal ${String(child.signal)})`);
			}
		}
	}, 180_000);

	it(`names a 20 MB line of nested or container-dense JSON as damaged, in a child process whose V8 heap is capped at ${CHILD_HEAP_MB} MB`, context => {
		// Issue 11 item 10: JSON.parse took 30–60 heap bytes per container, so these lines crashed the capped heap.
		const bin = fileURLToPath(new URL('../../bin/cardterm', import.meta.url));
		if (!existsSync(builtEntry)) {
			context.skip('dist/ is not built (npm run build); test/json/nesting-scan.test.ts still ran');
		}

		const header = readFileSync(fixture('basic.jsonl'), 'utf8').split('\n')[0]!;
		const line = (value: string) => `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1,"x":${value}}}`;
		const levels = 10 << 20;
		const nest = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
		const cases: Array<[string, string, string]> = [
			['10 M levels of arrays', line(nest(levels)), `nested deeper than ${MAX_LOG_NESTING}`],
			// Within the depth bound: the event object and the outer array add 3 levels.
			['500-level arrays side by side', line(`[${Array.from({length: Math.floor(levels / 500)}, () => nest(500)).join(',')}]`), `holds more than ${MAX_LOG_CONTAINERS} arrays and objects`],
			['7 M empty arrays', line(`[${Array.from({length: Math.floor((2 * levels) / 3)}, () => '[]').join(',')}]`), `holds more than ${MAX_LOG_CONTAINERS} arrays and objects`],
		];
		for (const [label, text, reason] of cases) {
			const path = join(dir, 'nested.jsonl');
			writeFileSync(path, `${header}\n${text}\n`);
			const child = spawnSync(process.execPath, [`--max-old-space-size=${CHILD_HEAP_MB}`, bin, 'replay', path, '--json'], {encoding: 'utf8', timeout: 60_000, maxBuffer: 64 << 20, env: {...process.env, NO_COLOR: '1'}});
			expect([label, checkOutcome({code: child.status ?? -1, out: child.stdout, err: child.stderr}, path, '--json', `${label} (child, signal ${String(child.signal)})`)]).toEqual([label, 'replayed']);
			expect([label, child.stderr]).toEqual([label, `${path}:2: ${reason}\ncardterm: 1 damaged line skipped in ${path}\n`]);
		}
	}, 180_000);
});
