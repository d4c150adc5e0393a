// An ACP agent's busy turn drawn live vs the same events drawn without ACP (issue 15: "drawn with the
// same per-event cost as a native session (bench: ACP session vs the same events from a log, ≤ 1.3×)").
//   npm run build && node bench/acp-session.mjs [--updates N] [--runs N] [--warmup N]
// (a) The live side runs `cardterm acp`'s session (the scripted agent over stdio, the SDK, the
// mapping, the log writer, the fold) and lays out every entry each event changes, as the live
// screen does. Cost is this process's CPU time (user + system) per event: wall time of the live side
// is the agent's pace, not cardterm's work. Three floors, measured in the same run, interleaved; one
// JSON figure each (target ≤ 1.3):
// (b) "from its log": the log (a) wrote, read, folded and laid out in one hot loop — the issue's
//     literal reading; no writer, and no live session can run back to back like this.
// (c) "a native session writing the same events": `openSession` + `session.log.emit` of the same
//     drafts in one synchronous loop (log writer, fold, layout) — what ACP adds, but at no pace.
// (d) "a native session fed at the live pace": the session of (c), fed each batch of drafts at the
//     offset (a) received it (one batch per turn of (a)'s event loop, timed in-process with
//     performance.now(); the process idles between batches as (a) did). This is the like-for-like
//     reading of "the same per-event cost as a native session": a native agent's events arrive
//     spread over a turn too, and work after an idle gap, in small batches, costs more than the same
//     work back to back; what (a) spends beyond (d) is ACP's own (the agent's pipe, JSON-RPC, the SDK,
//     the mapping). (a)'s timing adds a performance.now(), two pushes and a setImmediate per batch.
// Measured 2025-12-03, 2 cores, load average 2.5 (other test runs): 1.50×, 2.40×, 1.66× vs the log
// (0.026–0.036 cpu ms/event live) in three runs — target not met, and the figure swings with the
// load. bench/acp-stages.mjs runs the same frames without the agent's process: parse, mapping,
// writer, fold and layout cost 1.34× the floor there, so most of the live excess is spent while the
// agent runs beside this process (reads, the writer's write + fdatasync per batch, V8's GC threads).
// 2026-12-04 (load 2.9–3.7), 8 runs of this bench each, alternating builds: before the writer's
// coalesced sync and copy (5709907) 1.96× / 2.29× (medians; ranges 1.40–2.46 / 1.52–3.05), after
// 1.83× / 2.22× (1.40–3.61 / 1.42–3.53): within the swing. What the live side spends beyond the
// floor here is mostly not cardterm's per-event work: a quarter to a third of its CPU is on V8's
// worker threads (mostly TurboFan recompiling live-only code that deopts and tiers up across the
// runs), code runs half in baseline tier in the first runs, and the same work after an idle gap
// costs 1.5–1.8× what it costs back to back (the floor runs in one hot loop).
// 2026-12-04 04:00–04:04 (load 2.6–4.3), 10 runs of `--runs 7` with floor (d): vs the log 2.15×
// (median; range 1.63–3.37), vs (c) 2.79× (2.07–3.42), vs (d) 1.55× (1.28–1.98) — target not met on
// (d) either; the pace accounts for ~40% (16–64%) of the live excess over (c). The live side got
// its 1 400 events in 5 to ~1 000 batches per turn (the agent's pace decides), and (d) follows it.
// A CPU profile of `--runs 3` puts ACP's own per-event code (frame reader with its JSON.parse,
// mapping, call state, pipe reads, the SDK's receive) at ~15 µs/event under the profiler, ~14% of
// the live side's CPU there (≈ 5–11 µs of the 36–81 unprofiled): less than the live − (d) gap
// (11–34 µs), the rest being spent while the agent process shares the 2 cores (and on V8's threads,
// which the profile omits).
// 2026-12-04 18:05–18:30 (load 1.9–3.6), 30 invocations of `--runs 7` per build, alternating: the
// writer's batch written with writeSync (not through the thread pool) takes live from 0.053 to 0.040
// cpu ms/event (medians): vs the log 2.70× → 1.92× (ranges 1.75–4.62 → 1.55–2.64), vs (c) 2.79× →
// 2.06× (1.66–5.36 → 1.48–3.26), vs (d) 1.56× → 1.59× (0.98–2.06 → 1.21–2.31), (d) itself paying the
// same write per batch (0.037 → 0.025). Target not met on any floor. (d)'s figure depends on its
// place: measured right after (a) instead of after (c)'s hot loop over the same events, live vs (d)
// is 1.375× (1.15–1.82) against 1.55× (1.20–2.23) in 28 invocations each (docs/performance.md; with
// --warmup 5, below, the place no longer matters). Under
// perf (measured windows only), ACP's own code is ~8.5 µs/event of the live main thread's ~36:
// JSON.parse of the frames, the mapping, Node's stream path; no live-only deopt. But with one warm-up
// turn ACP's hot functions (parseFrame, AcpEvents.update, emitLine) reach TurboFan only in the 5th–7th
// measured live turn or not at all (they run in (a) only; the floors' code in three sides): with
// `--warmup 5`, 32 alternating invocations each (18:42–18:49, load 1.5–4.2), live vs (d) 1.625× →
// 1.26× (ranges 1.08–2.30 → 0.98–1.78; ≤ 1.3 in 4 → 19 of 32), vs the log 1.925× → 1.71×, vs (c)
// 2.095× → 1.825×; over 44 invocations of --warmup 5, 1.28× vs (d) (0.94–1.78, ≤ 1.3 in 25).
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {openAcpSession} from '../dist/src/host/open-acp-session.js';
import {withAcpPresenter} from '../dist/src/acp/acp-presenter.js';
import {openSession} from '../dist/src/host/open-session.js';
import {referencePresenters} from '../dist/src/acp/reference-presenters.js';
import {layoutEntry} from '../dist/src/layout/entries/layout-entry.js';
import {colorTheme} from '../dist/src/layout/text/theme.js';
import {SessionFold} from '../dist/src/session/fold/fold.js';
import {openSessionLog} from '../dist/src/session/reader/read-session-log.js';
import {emitAtPace, paceGroups, paceRecorder} from './lib/live-pace.mjs';
import {readDrafts} from './lib/log-drafts.mjs';
import {figure} from './lib/stats.mjs';

const {values} = parseArgs({options: {updates: {type: 'string', default: '1000'}, runs: {type: 'string', default: '5'}, warmup: {type: 'string', default: '1'}}});
const updates = Number(values.updates);
const runs = Number(values.runs);
/** Live turns before the measured runs: ACP's own code runs only in (a), so it reaches TurboFan later than the floors' shared code. */
const warmups = Number(values.warmup);
const agent = join(import.meta.dirname, '..', 'test', 'acp', 'fake-agent.mjs');
const work = mkdtempSync(join(tmpdir(), 'cardterm-bench-acp-'));
writeFileSync(join(work, 'notes.md'), '# Notes\n');
const options = {width: 100, theme: colorTheme, now: 0, sessionCwd: work};

/** CPU milliseconds of this process since `started`. */
function cpuMs(started) {
	const used = process.cpuUsage(started);
	return (used.user + used.system) / 1000;
}

/** Lays out what one fold change touched (the live screen's work per event). */
function draw(change) {
	let rows = 0;
	for (const entry of change.entries) {
		rows += layoutEntry(entry, options).length;
	}

	return rows;
}

async function live(run) {
	const acp = await openAcpSession({command: process.execPath, args: [agent], cwd: work, root: join(work, 'sessions'), id: `run-${run}`});
	let events = 0;
	// When each event reached the session, and in which turn of the event loop: the pace floor (d) replays it.
	const recorder = paceRecorder(acp.session.log.nextSeq);
	acp.session.onFoldChange(change => {
		events++;
		recorder.record();
		draw(change);
	});
	const started = process.cpuUsage();
	recorder.start();
	await acp.client.prompt(`bench ${updates}`);
	await acp.session.flush();
	const ms = cpuMs(started);
	await acp.close();
	return {ms, events, log: acp.session.logPath, pace: recorder.pace};
}

async function replay(logPath) {
	const started = process.cpuUsage();
	const log = await openSessionLog(logPath);
	const fold = new SessionFold(referencePresenters(work));
	let events = 0;
	for await (const event of log.events) {
		events++;
		draw(fold.apply(event));
	}

	return {ms: cpuMs(started), events};
}

/** A native session writing the same events (log writer, fold, layout): what a session costs without ACP. */
async function native(logPath, run) {
	const {drafts} = await readDrafts(logPath);
	const session = await openSession({cwd: work, logPath: join(work, `native-${run}.jsonl`), presenters: withAcpPresenter});
	session.onFoldChange(draw);
	const started = process.cpuUsage();
	for (const draft of drafts) {
		session.log.emit(draft);
	}

	await session.flush();
	const ms = cpuMs(started);
	await session.close();
	return {ms, events: drafts.length};
}

/** The native session of `native`, fed each group of drafts at the offset the live run received it: the live pace without ACP. */
async function nativeAtLivePace(logPath, pace, run) {
	const groups = paceGroups(await readDrafts(logPath), pace);
	const session = await openSession({cwd: work, logPath: join(work, `paced-${run}.jsonl`), presenters: withAcpPresenter});
	session.onFoldChange(draw);
	const started = process.cpuUsage();
	const events = await emitAtPace(session, groups);
	await session.flush();
	const ms = cpuMs(started);
	await session.close();
	return {ms, events, groups: groups.length};
}

const liveSamples = [];
const floorSamples = [];
const nativeSamples = [];
const pacedSamples = [];
try {
	for (let warm = 0; warm < warmups; warm++) {
		// one turn after another
		await live(`warm-up-${warm}`);
	}
	for (let run = 0; run < runs; run++) {
		const one = await live(run);
		const back = await replay(one.log);
		const same = await native(one.log, run);
		const paced = await nativeAtLivePace(one.log, one.pace, run);
		liveSamples.push(one.ms / one.events);
		floorSamples.push(back.ms / back.events);
		nativeSamples.push(same.ms / same.events);
		pacedSamples.push(paced.ms / paced.events);
	}
} finally {
	rmSync(work, {recursive: true, force: true});
}

const met = value => value.ratio !== null && value.ratio <= 1.3;
process.stdout.write(`${JSON.stringify(figure(`acp turn of ${updates} updates, per event (live vs from its log)`, liveSamples, {unit: 'cpu ms/event', floor: floorSamples, target: '≤ 1.3×', met}))}\n`);
process.stdout.write(`${JSON.stringify(figure(`acp turn of ${updates} updates, per event (live vs a native session writing the same events)`, liveSamples, {unit: 'cpu ms/event', floor: nativeSamples, target: '≤ 1.3×', met}))}\n`);
process.stdout.write(`${JSON.stringify(figure(`acp turn of ${updates} updates, per event (live vs a native session fed at the live pace)`, liveSamples, {unit: 'cpu ms/event', floor: pacedSamples, target: '≤ 1.3×', met}))}\n`);
