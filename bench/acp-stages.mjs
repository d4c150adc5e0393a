// Where an ACP turn's per-event cost goes, stage by stage, in one process (after a build):
//   npm run build && node bench/acp-stages.mjs [--updates N] [--rounds N]
// The scripted agent's `bench N` turn is recorded once (its frames, through the frame trace); then
// the same frames run in a loop through one more step of the live path than the stage before:
// JSON-RPC parse · + the ACP → event mapping (events numbered in memory) · + the log writer
// (serialise, read back, pack, write) · + the fold · + the layout of what each event changed, which is
// bench/acp-session.mjs's live side without the agent's process and pipe. The floor is that
// session's log read back, folded and laid out (bench/acp-session.mjs's floor). Prints median
// µs per event of each stage and its ratio to the floor. Stages take turns round by round, so each
// sees the same machine; unlike the live figure, no other process runs meanwhile, so the figures
// move less with the machine's load and say what each layer costs. Measured 2025-12-03 (2 cores,
// load 2.6): parse 0.75 · mapping 1.08 · writer 5.41 · fold 8.74 · layout 11.09 µs/event, floor 8.3
// (layout stage 1.34× the floor: the writer is most of the gap, the ACP parse and mapping 1.1 µs).
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {AcpEvents} from '../dist/src/acp/acp-events.js';
import {withAcpPresenter} from '../dist/src/acp/acp-presenter.js';
import {openFrameTrace} from '../dist/src/acp/frame-trace.js';
import {parseFrame} from '../dist/src/acp/frame-reader.js';
import {openAcpSession} from '../dist/src/host/open-acp-session.js';
import {openSession} from '../dist/src/host/open-session.js';
import {referencePresenters} from '../dist/src/acp/reference-presenters.js';
import {layoutEntry} from '../dist/src/layout/entries/layout-entry.js';
import {colorTheme} from '../dist/src/layout/text/theme.js';
import {EventLog} from '../dist/src/session/events/event-log.js';
import {SessionFold} from '../dist/src/session/fold/fold.js';
import {SessionLogWriter} from '../dist/src/session/recorder/log-writer.js';
import {openSessionLog} from '../dist/src/session/reader/read-session-log.js';
import {round, summarize} from './lib/stats.mjs';

const {values} = parseArgs({options: {updates: {type: 'string', default: '1000'}, rounds: {type: 'string', default: '30'}}});
const rounds = Number(values.rounds);
const agent = join(import.meta.dirname, '..', 'test', 'acp', 'fake-agent.mjs');
const work = mkdtempSync(join(tmpdir(), 'cardterm-bench-acp-stages-'));
const options = {width: 100, theme: colorTheme, now: 0, sessionCwd: work};
const header = {type: 'session', version: 0, id: 'stages', createdAt: 0, cwd: work, delegationDepth: 0};
const prompt = `bench ${values.updates}`;

/** CPU milliseconds of this process since `started`. */
function cpuMs(started) {
	const used = process.cpuUsage(started);
	return (used.user + used.system) / 1000;
}

/** Lays out what one fold change touched (the live screen's work per event). */
function draw(change) {
	for (const entry of change.entries) {
		layoutEntry(entry, options);
	}
}

// The turn, recorded once: the frames the agent wrote and the log cardterm wrote.
const tracePath = join(work, 'frames.jsonl');
const recorded = await openAcpSession({command: process.execPath, args: [agent], cwd: work, root: join(work, 'sessions'), id: 'recorded', trace: openFrameTrace(tracePath)});
await recorded.client.prompt(prompt);
await recorded.close();
const updates = readFileSync(tracePath, 'utf8').trimEnd().split('\n').map(line => JSON.parse(line)).filter(frame => frame.dir === 'in' && frame.line.includes('"session/update"')).map(frame => frame.line);

/** The mapping fed every update of the turn, into `log`. */
function mapTurn(log) {
	const events = new AcpEvents(log);
	events.startTurn(prompt);
	for (const line of updates) {
		events.update(parseFrame(line).update.update);
	}

	events.endTurn({stopReason: 'end_turn'});
}

let file = 0;
const stages = {
	parse: async () => {
		for (const line of updates) {
			parseFrame(line);
		}
	},
	mapping: async () => {
		mapTurn(new EventLog());
	},
	writer: async () => {
		const writer = await SessionLogWriter.open(join(work, `writer-${file++}.jsonl`), header);
		const started = process.cpuUsage();
		mapTurn(new EventLog({record: draft => writer.append(draft)}));
		await writer.flush();
		const ms = cpuMs(started);
		await writer.close();
		return ms;
	},
	async fold() {
		return session(false);
	},
	async layout() {
		return session(true);
	},
	async floor() {
		const started = process.cpuUsage();
		const log = await openSessionLog(recorded.session.logPath);
		const fold = new SessionFold(referencePresenters(work));
		for await (const event of log.events) {
			draw(fold.apply(event));
		}

		return cpuMs(started);
	},
};

/** The live session without the agent: writer and fold (and the layout when `layout`). */
async function session(layout) {
	const opened = await openSession({cwd: work, logPath: join(work, `session-${file++}.jsonl`), presenters: withAcpPresenter});
	if (layout) {
		opened.onFoldChange(draw);
	}

	const started = process.cpuUsage();
	mapTurn(opened.log);
	await opened.flush();
	const ms = cpuMs(started);
	await opened.close();
	return ms;
}

const log = await openSessionLog(recorded.session.logPath);
let events = 0;
for await (const _ of log.events) {
	events++;
}

const samples = Object.fromEntries(Object.keys(stages).map(name => [name, []]));
try {
	for (let index = 0; index < rounds + 3; index++) {
		for (const [name, stage] of Object.entries(stages)) {
			const started = process.cpuUsage();
			// eslint-disable-next-line no-await-in-loop -- stages take turns
			const ms = await stage() ?? cpuMs(started);
			if (index >= 3) {
				samples[name].push(ms * 1000 / events);
			}
		}
	}
} finally {
	rmSync(work, {recursive: true, force: true});
}

const floor = summarize(samples.floor).median;
for (const [name, values_] of Object.entries(samples)) {
	const {median, p95} = summarize(values_);
	process.stdout.write(`${JSON.stringify({name: `acp turn of ${values.updates} updates, stage ${name}`, median: round(median, 2), p95: round(p95, 2), unit: 'cpu µs/event', floor: round(floor, 2), ratio: round(median / floor, 2), events})}\n`);
}
