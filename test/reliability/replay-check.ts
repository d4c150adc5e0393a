/**
Shared pieces of the log robustness tests: the seed logs (fixtures, a recorded session of every
reference tool, the dsh corpus when present), an in-process `cardterm replay` with a hang guard, and
the check of promise 2 for one outcome (and of promise 1: stdout and stderr hold only text): exit 0 with each bad line named on stderr and one count
line (and, for `--json`, one well-formed card object per stdout line), or exit 65 with a one-line
reason naming the file.
*/
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {expect} from 'vitest';
import {main} from '../../src/cli/main.js';
import {fakeIo} from '../cli/cli-io-fake.js';
import {fixture} from '../session/helpers.js';
import {scanTerminalOutput} from './escape-scanner.js';
import {hostileLogBytes} from './hostile-log.js';
import {HOSTILE_FRAGMENTS} from './hostile-text.js';
import {recordTemplateSession} from './template-session.js';

/** A replay that takes longer than this is a hang (a guard, not a speed test). */
export const CASE_TIMEOUT_MS = 15_000;

/** The keys of each `--json` entry object, in order (entry-json.ts). */
const ENTRY_KEYS: Readonly<Record<string, readonly string[]>> = {
	card: ['entry', 'callId', 'name', 'status', 'outcome', 'call', 'result', 'isError', 'error', 'durationMs', 'children'],
	user: ['entry', 'seq', 'time', 'source', 'text'],
	assistant: ['entry', 'seq', 'time', 'turn', 'step', 'text', 'reasoning', 'interrupted', 'streaming', 'preparing'],
	turn: ['entry', 'seq', 'time', 'turn', 'outcome', 'failed', 'durationMs', 'usage'],
	notice: ['entry', 'seq', 'time', 'source', 'summary', 'detail'],
	todo: ['entry', 'seq', 'time', 'items'],
};

/** The dsh corpus folder (read-only, outside the repo). */
export const corpusDir = fileURLToPath(new URL('../../../shared/corpus/dsh-sessions', import.meta.url));

/** A log to mutate. */
export type Seed = {readonly name: string; readonly bytes: Buffer};

/** The seed logs; says on stderr when the corpus is absent. */
export async function loadSeeds(): Promise<Seed[]> {
	const template = await recordTemplateSession();
	const seeds: Seed[] = [
		{name: 'basic.jsonl', bytes: readFileSync(fixture('basic.jsonl'))},
		{name: 'spec-example.jsonl', bytes: readFileSync(fixture('spec-example.jsonl'))},
		// Compressed: byte damage hits zstd frames (line mutations turn it into garbage, which must be handled too).
		{name: 'basic.jsonl.zst', bytes: readFileSync(fixture('basic.jsonl.zst'))},
		{name: 'template', bytes: hostileLogBytes(template.header, template.events, [])},
		// The same session with its strings left as recorded: hostileLogBytes with an empty pool writes '' everywhere, so also keep the real one.
		{name: 'template-real', bytes: Buffer.from([template.header, ...template.events].map(event => `${JSON.stringify(event)}\n`).join(''))},
		// Every string of the recorded session replaced by hostile fragments and invalid UTF-8.
		{name: 'template-hostile', bytes: hostileLogBytes(template.header, template.events, [...HOSTILE_FRAGMENTS.map(fragment => new Uint8Array(Buffer.from(fragment))), new Uint8Array([0xc3, 0x28, 0xff, 0xfe, 0x9b, 0x32, 0x4a, 0xe2, 0x80])])},
	];
	if (existsSync(corpusDir)) {
		for (const name of readdirSync(corpusDir).filter(file => file.endsWith('.jsonl')).sort()) {
			seeds.push({name: `corpus/${name}`, bytes: readFileSync(join(corpusDir, name))});
		}
	} else {
		console.warn(`log robustness: the dsh corpus (${corpusDir}) is not present; fuzzing fixtures and generated logs only`);
	}
	return seeds;
}

/** What one replay did. */
export type Outcome = {readonly code: number; readonly out: string; readonly err: string};

/** `cardterm replay PATH MODE --width 80` in-process, rejected after CASE_TIMEOUT_MS. */
export async function replay(path: string, mode: '--json' | '--print'): Promise<Outcome> {
	const io = fakeIo({env: {}});
	let timer: NodeJS.Timeout | undefined;
	const hang = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			reject(new Error(`replay ${mode} of ${path} did not finish within ${CASE_TIMEOUT_MS} ms`));
		}, CASE_TIMEOUT_MS);
	});
	try {
		const code = await Promise.race([main(['replay', path, mode, '--width', '80'], io), hang]);
		return {code, out: io.out(), err: io.err()};
	} finally {
		clearTimeout(timer);
	}
}

/** The promise, for one input and mode. Throws with the case named on any breach. */
export function checkOutcome(outcome: Outcome, path: string, mode: '--json' | '--print', label: string): 'replayed' | 'refused' {
	const {code, out, err} = outcome;
	const fail = (why: string): never => {
		throw new Error(`${label} ${mode}: ${why}; exit ${code}; stderr ${JSON.stringify(err.slice(0, 400))}`);
	};

	// Whatever the damage, stdout and stderr reach a terminal: nothing but text (colour is off here).
	for (const [stream, text] of [['stdout', out], ['stderr', err]] as const) {
		const {violations} = scanTerminalOutput(text, {hyperlinks: false, inkCursor: false});
		if (violations.length > 0) {
			fail(`${stream} holds ${violations.slice(0, 3).join('; ')}`);
		}
	}

	if (code === 65) {
		if (out !== '') {
			fail('refused but wrote to stdout');
		}

		if (!err.endsWith('\n') || err.slice(0, -1).includes('\n') || !err.startsWith(`cardterm: ${path}`)) {
			fail('refusal is not one line naming the file');
		}

		return 'refused';
	}

	if (code !== 0) {
		fail('exit code is neither 0 nor 65');
	}

	const lines = err === '' ? [] : err.slice(0, -1).split('\n');
	const named = lines.filter(line => line.startsWith(`${path}:`));
	for (const line of named) {
		if (!/^:\d+: \S/.test(line.slice(path.length))) {
			fail(`diagnostic without a line number and reason: ${JSON.stringify(line.slice(0, 200))}`);
		}
	}

	const summaries = lines.filter(line => !line.startsWith(`${path}:`));
	// Seq gaps and result formats cardterm does not read are notes, not damage (log-errors.ts isNote).
	const notes = named.filter(line => /^:\d+: (seq gap:|tool\/result in an unsupported result format)/.test(line.slice(path.length))).length;
	const damaged = named.length - notes;
	const expected = [
		...(damaged === 0 ? [] : [`cardterm: ${damaged} damaged line${damaged === 1 ? '' : 's'} skipped in ${path}`]),
		...(notes === 0 ? [] : [`cardterm: ${notes} note${notes === 1 ? '' : 's'} on ${path} (seq gaps or result formats cardterm does not read; no line was damaged)`]),
	];
	if (JSON.stringify(summaries) !== JSON.stringify(expected)) {
		fail(`stderr holds ${JSON.stringify(summaries.slice(0, 3))} besides diagnostics, expected ${JSON.stringify(expected)}`);
	}

	if (mode === '--json') {
		for (const line of out.split('\n').filter(text => text !== '')) {
			let entry: unknown;
			try {
				entry = JSON.parse(line);
			} catch {
				fail(`stdout line is not JSON: ${JSON.stringify(line.slice(0, 200))}`);
			}

			const kind = String((entry as {entry?: unknown}).entry);
			const keys = ENTRY_KEYS[kind];
			// A card says `outputHidesText: true` only when it does, and `approvalWaitMs` only when its call asked.
			const actual = Object.keys(entry as object).filter(key => !(kind === 'card' && (key === 'outputHidesText' || key === 'approvalWaitMs')));
			if (keys === undefined || JSON.stringify(actual) !== JSON.stringify(keys)) {
				fail(`entry object has keys ${JSON.stringify(Object.keys(entry as object))}`);
			}
		}
	}

	return 'replayed';
}

/** Replays `bytes` (written to `dir`) with --json and --print; both must agree on replayed or refused. */
export async function checkBoth(dir: string, bytes: Buffer, label: string): Promise<'replayed' | 'refused'> {
	const path = join(dir, 'case.jsonl');
	writeFileSync(path, bytes);
	const json = checkOutcome(await replay(path, '--json'), path, '--json', label);
	const print = checkOutcome(await replay(path, '--print'), path, '--print', label);
	expect(print).toBe(json);
	return json;
}

