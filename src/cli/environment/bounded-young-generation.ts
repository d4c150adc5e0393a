/**
@module A bound on V8's young generation for the long-lived screens. V8 grows the new space (the
nursery of short-lived objects) from 2 MiB up to 32 MiB while many allocations survive a scavenge,
and a live session's steps (each request serializes the conversation) drive it to the maximum: a
200-call session's process held about 30 MiB more of resident memory for it (issue 16: peak tree
memory). `--max-semi-space-size` is read only when the heap is made, but the growth factor is read
at each growth, so once the new space has reached the bound, growth stops (checked after each
collection, as the event loop turns: one long synchronous burst may grow it a step further). A small nursery costs a
little CPU in more scavenges (bench/peers, 200 calls: peak PSS 146 → 119 MB, CPU +5–10 % a call).
*/
import {PerformanceObserver} from 'node:perf_hooks';
import {getHeapSpaceStatistics, setFlagsFromString} from 'node:v8';

/** The new space the interactive session lets V8 grow to (both semi-spaces). */
export const YOUNG_GENERATION_BOUND = 4 * 2 ** 20;

function newSpaceSize(): number {
	return getHeapSpaceStatistics().find(space => space.space_name === 'new_space')?.space_size ?? 0;
}

/** From now on, the new space stops growing once it is `bound` bytes or more. Process-wide, once. */
export function boundYoungGeneration(bound: number = YOUNG_GENERATION_BOUND): void {
	const stop = (): boolean => {
		if (newSpaceSize() < bound) {
			return false;
		}

		setFlagsFromString('--semi-space-growth-factor=1');
		return true;
	};

	if (stop()) {
		return;
	}

	// A growth happens in a scavenge: look after each collection until the bound is reached.
	const observer = new PerformanceObserver(() => {
		if (stop()) {
			observer.disconnect();
		}
	});
	observer.observe({entryTypes: ['gc']});
}
