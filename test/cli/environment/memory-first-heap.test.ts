/**
The interactive session's memory-first heap (src/cli/environment/memory-first-heap.ts), in a fresh Node process
each: a session-like pattern (each turn serialises a growing conversation and keeps a little of it)
leaves a smaller heap with it than without.
*/
import {join} from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {buildDist, freshProcessOutput, repo} from '../../app/e2e-helpers.js';

/** The heap's total size in MiB after the work, with or without the policy. */
function heapAfterWork(memoryFirst: boolean): number {
	const module = join(repo, 'dist/src/cli/environment/memory-first-heap.js');
	const script = `
		const {memoryFirstHeap} = await import(${JSON.stringify(module)});
		if (${memoryFirst}) memoryFirstHeap();
		const v8 = await import('node:v8');
		const kept = [];
		for (let round = 0; round < 300; round++) {
			const body = JSON.stringify(Array.from({length: 3000 + round * 20}, (_, i) => ({i, text: 'line ' + i})));
			kept.push(body.slice(0, 200));
			await new Promise(resolve => setImmediate(resolve));
		}
		console.log(v8.getHeapStatistics().total_heap_size / 2 ** 20);
	`;
	return Number(freshProcessOutput(script));
}

describe('the memory-first heap', () => {
	beforeAll(() => {
		buildDist();
	}, 300_000);

	it('leaves a heap at least a tenth smaller than V8 alone after the same work', () => {
		const plain = heapAfterWork(false);
		const memoryFirst = heapAfterWork(true);
		expect(memoryFirst).toBeLessThan(plain * 0.9);
	}, 60_000);
});
