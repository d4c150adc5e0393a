/**
@module The interactive session's heap favours memory over a little CPU. A session lives long and
every model step serialises the whole conversation, so the old generation fills with garbage that V8,
tuned for throughput, lets grow before it collects: a 200-call agent session's process peaked at
~147 MB of resident memory, ~125 MB with `--optimize-for-size` (V8 then grows the heap in smaller
steps and collects sooner), staying at its 20-call level; the agent's CPU per call rose by up to
~10 % (bench/agent-overhead.mjs, noisy). Issue 16: peak tree memory. The nursery is bounded as well
(bounded-young-generation.ts). V8 reads the flag at each heap growth, so setting it once the
process runs takes effect.
*/
import {setFlagsFromString} from 'node:v8';
import {boundYoungGeneration} from './bounded-young-generation.js';

/** From now on, this process's heap grows in small steps and its nursery stays small. Process-wide. */
export function memoryFirstHeap(): void {
	setFlagsFromString('--optimize-for-size');
	boundYoungGeneration();
}
