/**
Promise 2 (issue 8), torn tails: a log cut at any byte of its last two lines (a writer that died
mid-append) replays in `--json` and `--print`, with the torn line named, and is never refused.
*/
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {checkBoth, loadSeeds, type Seed} from './replay-check.js';

let dir: string;
let seeds: Seed[];

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'cardterm-torn-'));
	seeds = await loadSeeds();
});

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

describe('a torn session log', () => {
	it('replays or is refused with exit 65 when cut at every byte of its last two lines', async () => {
		const outcomes = new Map<string, number>();
		for (const seed of seeds.filter(item => ['basic.jsonl', 'spec-example.jsonl', 'template-real', 'template-hostile'].includes(item.name))) {
			const text = seed.bytes;
			const end = text.length - 1;
			const lastTwo = text.lastIndexOf(10, text.lastIndexOf(10, end - 1) - 1) + 1;
			// Every byte of the first fixture; every 4th of the larger logs, to stay within CI time.
			const step = seed.name === 'basic.jsonl' ? 1 : 4;
			for (let at = lastTwo; at <= text.length; at += step) {
				// one replay at a time, as the CLI runs
				const outcome = await checkBoth(dir, text.subarray(0, at), `${seed.name} cut at ${at}`);
				outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
			}
		}

		// A cut after the header never refuses the log.
		expect(outcomes.get('refused')).toBeUndefined();
		expect(outcomes.get('replayed')).toBeGreaterThan(300);
	}, 120_000);

});
