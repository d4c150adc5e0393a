/**
The interactive session's nursery bound (src/cli/environment/bounded-young-generation.ts), in a fresh Node
process each (the test's own heap has grown already): an allocation pattern that makes V8 grow the
new space to its maximum stays at the bound with it, and grows past it without.
*/
import {join} from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {buildDist, freshProcessOutput, repo} from '../../app/e2e-helpers.js';

/** Runs a process that, turn by turn, keeps a fraction of what it allocates (survivors make V8 grow the new space); returns its new space in MiB. */
function newSpaceAfterWork(bound: boolean): number {
	const module = join(repo, 'dist/src/cli/environment/bounded-young-generation.js');
	const script = `
		const {boundYoungGeneration} = await import(${JSON.stringify(module)});
		if (${bound}) boundYoungGeneration();
		const v8 = await import('node:v8');
		const kept = [];
		for (let round = 0; round < 2000; round++) {
			const batch = [];
			for (let i = 0; i < 5000; i++) batch.push({i, text: 'x' + i});
			kept.push(batch.slice(0, 15));
			// A session works in turns of the event loop, where the bound's GC observer is heard.
			await new Promise(resolve => setImmediate(resolve));
		}
		const space = v8.getHeapSpaceStatistics().find(s => s.space_name === 'new_space');
		console.log(space.space_size / 2 ** 20);
	`;
	return Number(freshProcessOutput(script));
}

describe('the young generation bound', () => {
	beforeAll(() => {
		buildDist();
	}, 300_000);

	it('stops the new space growing at 4 MiB, where V8 alone grows it further', () => {
		const unbounded = newSpaceAfterWork(false);
		const bounded = newSpaceAfterWork(true);
		expect(unbounded).toBeGreaterThan(4);
		expect(bounded).toBeLessThanOrEqual(4);
	}, 60_000);
});
