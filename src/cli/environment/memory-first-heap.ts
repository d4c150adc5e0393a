/**
@module The interactive session's heap favours memory over CPU. A session lives long and every model
step serialises the whole conversation, so the old generation fills with garbage that V8, tuned for
throughput, lets grow before it collects. With `--optimize-for-size` V8 grows the heap in smaller
steps and collects sooner: a 200-call agent session's peak PSS 105–119 → 80–85 MB, flat from 20 calls
(bench/peers); bench/agent-overhead.mjs peak RSS 148 → 110 MB at 300 calls and 273 → 129 MB at
2 000, for CPU per call +~13 % at 300 calls and about twice at 2 000 (the trade is argued in
docs/decisions/performance-decisions.md). The nursery is bounded as well
(bounded-young-generation.ts). V8 reads the flag at each heap growth, so setting it once the
process runs takes effect. Issue 16: peak tree memory.
*/
import {setFlagsFromString} from 'node:v8';
import {boundYoungGeneration} from './bounded-young-generation.js';

/** From now on, this process's heap grows in small steps and its nursery stays small. Process-wide. */
export function memoryFirstHeap(): void {
	setFlagsFromString('--optimize-for-size');
	boundYoungGeneration();
}
