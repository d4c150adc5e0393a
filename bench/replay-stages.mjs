// Where `cardterm replay` spends its time, stage by stage, in one process (after a build):
//   node bench/replay-stages.mjs LOG [--print] [--rounds N]
// Each stage runs the whole log through one more step of the replay path than the one before —
// read + JSON.parse (the floor) · the log reader (envelope checks, events) · + the fold and the
// transcript stream · + the entry's output (--json objects and their safe JSON, or with --print
// the layout and the rendered rows) — and prints the median ms of each and its ratio to the floor.
// Stages take turns round by round, so each sees the same machine; a profile (`node --cpu-prof`)
// of the command says which function inside a stage costs what.
import {parseArgs} from 'node:util';
import {referencePresenters} from '../dist/src/acp/reference-presenters.js';
import {TranscriptStream} from '../dist/src/cli/print/transcript-stream.js';
import {entryOutput} from '../dist/src/cli/print/entry-output.js';
import {entryJsonValue} from '../dist/src/cli/print/entry-json-output.js';
import {JsonLines} from '../dist/src/layout/terminal/terminal-sink.js';
import {SessionFold} from '../dist/src/session/fold/fold.js';
import {openSessionLog} from '../dist/src/session/reader/read-session-log.js';
import {parseFloor} from './lib/parse-floor.mjs';
import {summarize, round} from './lib/stats.mjs';

const {values, positionals} = parseArgs({allowPositionals: true, options: {print: {type: 'boolean', default: false}, rounds: {type: 'string', default: '5'}}});
const [file] = positionals;
const rounds = Number(values.rounds);

const floor = () => parseFloor(file);

/** The replay loop of replay-command.ts up to `depth`: 0 reader, 1 + fold, 2 + output. */
async function replay(depth) {
	const log = await openSessionLog(file);
	const fold = new SessionFold(referencePresenters(log.header.cwd ?? process.cwd()));
	const now = Date.now();
	let bytes = 0;
	// What `replay LOG --print --expand none --width 120 > file` writes per entry (no layout caches, rows not joined).
	const print = entryOutput({json: false, width: 120, color: false, hyperlinks: false, isTTY: false, sessionCwd: log.header.cwd ?? process.cwd(), expansion: 'summary', now});
	const write = depth < 2 ? () => undefined : (values.print
		? (entry) => {
			bytes += print(entry).length;
		}
		: (entry) => {
			// As replay --json: lines collected and taken (made safe, encoded) a MiB at a time.
			lines.add(entryJsonValue(entry));
			if (lines.units > 1 << 20) {
				bytes += lines.take().length;
			}
		});
	const lines = new JsonLines();
	const stream = new TranscriptStream(fold, write);
	let events = 0;
	for await (const batch of log.eventBatches) {
		for (const event of batch) {
			events++;
			if (depth >= 1) {
				fold.apply(event);
				stream.advance();
			}
		}
	}

	stream.finish();
	bytes += lines.units > 0 ? lines.take().length : 0;
	return {events, bytes};
}

const stages = [
	['read + JSON.parse (floor)', async () => floor()],
	['log reader (events)', () => replay(0)],
	['+ fold and transcript stream', () => replay(1)],
	[values.print ? '+ layout and rendered rows (--print --expand none)' : '+ entry JSON, terminal-safe (--json)', () => replay(2)],
];
const samples = stages.map(() => []);
for (let round = 0; round <= rounds; round++) {
	for (const [index, [, run]] of stages.entries()) {
		const started = performance.now();
		await run();
		if (round > 0) {
			samples[index].push(performance.now() - started);
		}
	}
}

const floorMedian = summarize(samples[0]).median;
for (const [index, [name]] of stages.entries()) {
	const {median, p95} = summarize(samples[index]);
	process.stdout.write(`${JSON.stringify({name, median: round(median, 1), p95: round(p95, 1), ratio: round(median / floorMedian, 2)})}\n`);
}
