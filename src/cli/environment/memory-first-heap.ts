/**
@module A live session's heap (native or ACP: the one screen launcher sets it) favours memory over
CPU. A session lives long and every model step serialises the whole conversation, so the old
generation fills with garbage that V8, tuned for throughput, lets grow (up to 4× a step) before it
collects. Here it grows by a tenth at a time (`--heap-growing-percent=10`), so it is collected
sooner. `--optimize-for-size` (used until 2026-12-06) held it ~8 MB lower for much more CPU: a
2 000-call agent session 11.5–13.2 → 9.9–10.5 ms a call for 122–125 → 130–135 MB peak
PSS, 200 calls 5.4–6.1 → 5.1–5.3 ms (bench/peers, cardterm-only, alternated builds); with no policy
at all, 6.5–6.8 ms a call but 251–259 MB at 2 000 calls. The nursery is bounded as well
(bounded-young-generation.ts). V8 reads the flag at each heap growth, so setting it once the process
runs takes effect. Issue 16: peak tree memory; issue 34: overhead per call.
*/
import {setFlagsFromString} from 'node:v8';
import {boundYoungGeneration} from './bounded-young-generation.js';

/** From now on, this process's heap grows in small steps and its nursery stays small. Process-wide. */
export function memoryFirstHeap(): void {
	setFlagsFromString('--heap-growing-percent=10');
	boundYoungGeneration();
}
