import {execFile} from 'node:child_process';
import {join} from 'node:path';
import {promisify} from 'node:util';
import {describe, expect, it} from 'vitest';
import {buildDist} from '../app/e2e-helpers.js';

const run = promisify(execFile);
const bench = join(import.meta.dirname, '../../bench/acp-drawn.mjs');

describe('bench/acp-drawn.mjs', () => {
	it('draws one short turn live and as a native session on the same screen, and prints its figure', async () => {
		buildDist();
		// The bench fails (exit ≠ 0) when either screen never shows the turn's last words.
		const {stdout} = await run(process.execPath, [bench, '--updates', '40', '--runs', '1', '--warmup', '0'], {timeout: 60_000});
		const figure = JSON.parse(stdout.trim()) as {name: string; median: number; floor: number; ratio: number; runs: number; target: string};
		expect(figure).toMatchObject({runs: 1, target: '≤ 1.3×', unit: 'cpu ms/event'});
		expect(figure.name).toContain('acp turn of 40 updates drawn by the live screen');
		expect(figure.median).toBeGreaterThan(0);
		expect(figure.floor).toBeGreaterThan(0);
	}, 90_000);
});
