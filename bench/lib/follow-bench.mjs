// Follow mode: a child process appends RATE events/s while followSessionLog reads; for each event,
// the latency from its append (its `time`) to the moment the reader yields it.
//   node bench/lib/follow-bench.mjs DIR RATE SECONDS
import {spawn} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {followSessionLog} from '../../dist/src/session/reader/follow-session-log.js';
import {generateLogLines} from './log-generator.mjs';

const [dir, rateText, secondsText] = process.argv.slice(2);
const file = join(dir, 'follow.jsonl');
writeFileSync(file, `${generateLogLines({events: 0, seed: 5}).next().value}\n`);
const total = Math.round(Number(rateText) * Number(secondsText));
const controller = new AbortController();
const writer = spawn(process.execPath, [join(import.meta.dirname, 'follow-writer.mjs'), file, rateText, secondsText], {stdio: 'inherit'});
const latencies = [];
const timeout = setTimeout(() => controller.abort(), (Number(secondsText) + 10) * 1000);
for await (const event of followSessionLog(file, {signal: controller.signal})) {
	latencies.push(Date.now() - event.time);
	if (latencies.length >= total) {
		break;
	}
}

clearTimeout(timeout);
writer.kill();
process.stdout.write(`${JSON.stringify({received: latencies.length, expected: total, latencies})}\n`);
process.exit(0);
