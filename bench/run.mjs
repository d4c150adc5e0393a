// The benchmark harness of issue 7 (`npm run bench`, which builds first). Runs against dist/.
//   node bench/run.mjs [--quick] [--markdown FILE] [--only NAME[,NAME…]] [--keep]
// --only runs the scenarios whose name contains one of the NAMEs (e.g. `--only "replay small-events,pager messages"`);
// inputs are generated only for the scenarios that run.
// Generates its inputs into a temp dir, runs every scenario several times (a warm-up discarded),
// and prints one JSON object per figure — {name, median, p95, unit, floor, ratio, target, met} —
// then a table. Every floor is measured in the same run, interleaved with the figure it divides.
import {execFileSync, spawn} from 'node:child_process';
import {mkdtempSync, rmSync, statSync, writeFileSync, closeSync, openSync, existsSync} from 'node:fs';
import {cpus, loadavg, tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {writeLog} from './generate-log.mjs';
import {figure, round, summarize} from './lib/stats.mjs';

const {values} = parseArgs({options: {quick: {type: 'boolean', default: false}, markdown: {type: 'string'}, keep: {type: 'boolean', default: false}, only: {type: 'string'}}});
const only = values.only === undefined ? undefined : values.only.split(',').map((name) => name.trim()).filter((name) => name !== '');
/** Whether the scenario `name` runs (`--only`). */
const selected = (name) => only === undefined || only.some((part) => name.includes(part));
const quick = values.quick;
const root = join(import.meta.dirname, '..');
const lib = join(import.meta.dirname, 'lib');
const work = mkdtempSync(join(tmpdir(), 'cardterm-bench-'));
const env = {...process.env, NODE_ENV: 'production'};
delete env.CI;
delete env.CONTINUOUS_INTEGRATION;
delete env.FORCE_COLOR;
const figures = [];
const startedAt = new Date();
const loadBefore = loadavg();

const emit = (value) => {
	figures.push(value);
	process.stdout.write(`${JSON.stringify(value)}\n`);
};

const note = (text) => process.stderr.write(`bench: ${text}\n`);

/** Runs `node ...args` to completion; returns wall ms from spawn to exit, peak RSS (MB), stdout rows and text. */
function run(args, {capture = false, countRows = false, rss = false} = {}) {
	return new Promise((resolve, reject) => {
		const nodeArgs = rss ? ['--import', join(lib, 'report-rss.mjs'), ...args] : args;
		const started = performance.now();
		const child = spawn(process.execPath, nodeArgs, {cwd: root, env, stdio: ['ignore', capture || countRows ? 'pipe' : 'ignore', 'pipe']});
		let rows = 0;
		const out = [];
		let err = '';
		child.stdout?.on('data', (chunk) => {
			if (capture) {
				out.push(chunk);
			}

			for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) {
				rows++;
			}
		});
		child.stderr.on('data', (chunk) => {
			err += chunk;
		});
		child.on('error', reject);
		child.on('close', (code) => {
			const ms = performance.now() - started;
			if (code !== 0) {
				reject(new Error(`node ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`));
				return;
			}

			const match = /bench-max-rss-kb (\d+)/.exec(err);
			resolve({ms, rssMb: match === null ? undefined : Number(match[1]) / 1024, rows, text: Buffer.concat(out).toString('utf8')});
		});
	});
}

/** The JSON lines a helper printed (lines that do not start with `{` are ignored). */
const jsonLines = (text) => text.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));

/** Alternates runs of `a` and `b` (`warmup` discarded) so both see the same machine conditions. */
async function paired(a, b, runs, warmup = 1) {
	const left = [];
	const right = [];
	for (let index = 0; index < runs + warmup; index++) {
		const x = await a();
		const y = await b();
		if (index >= warmup) {
			left.push(x);
			right.push(y);
		}
	}

	return [left, right];
}

const failures = [];
/** Runs one scenario; a failure (e.g. a module another engineer is rebuilding) is reported, not fatal. */
async function scenario(name, body) {
	if (!selected(name)) {
		return;
	}

	try {
		await body();
	} catch (error) {
		failures.push(`${name}: ${error instanceof Error ? error.message.split('\n').slice(0, 6).join(' ') : String(error)}`);
		note(`scenario "${name}" failed: ${error instanceof Error ? error.message : String(error)}`);
	}
}

const mb = (bytes) => round(bytes / 1_048_576, 1);
// No ratio means the floor was not measured in this run (`--only` left its scenario out): not judged.
const ratioAtMost = (limit) => (value) => (value.ratio === null ? null : value.ratio <= limit);

// ---------------------------------------------------------------------------------------------
// Inputs: ≈100 KB, ≈10 MB, ≈100 MB (quick: ≈100 KB, ≈1 MB, ≈10 MB), seed 1; and a log of many
// small events (a chatty session, `--shape small` of the generator): 100 000 events (quick: 10 000).
const sizes = quick ? [['100KB', 110], ['1MB', 1_100], ['10MB', 10_500]] : [['100KB', 110], ['10MB', 10_500], ['100MB', 100_000]];
const smallEventsLabel = 'small-events';
const inputs = [...sizes.map(([label, events]) => [label, events, 'large']), [smallEventsLabel, quick ? 10_000 : 100_000, 'small']];
const logs = {};
/** The generated log `label` (written on first use, so `--only` writes only what it runs). */
function input(label) {
	if (logs[label] === undefined) {
		const [, events, shape] = inputs.find(([name]) => name === label);
		const file = join(work, `bench-${label}.jsonl`);
		const fd = openSync(file, 'w');
		writeLog(fd, {events, seed: 1, shape});
		closeSync(fd);
		logs[label] = {file, events, bytes: statSync(file).size};
		note(`generated ${label}: ${events} events, ${mb(logs[label].bytes)} MiB`);
	}

	return logs[label];
}

const cli = join(root, 'bin/cardterm');
const [smallLabel, , largeLabel] = sizes.map(([label]) => label);
// A header-only log: `replay --print` on it is the command's start-up cost, subtracted for net rows/s.
const emptyLog = join(work, 'bench-empty.jsonl');
{
	const fd = openSync(emptyLog, 'w');
	writeLog(fd, {events: 0, seed: 1});
	closeSync(fd);
}

let startup;
/** Median start-up of `cardterm replay --print` (measured once, on first use). */
async function replayStartup() {
	if (startup === undefined) {
		const [runs] = await paired(() => run([cli, 'replay', emptyLog, '--print']), async () => undefined, 5);
		startup = summarize(runs.map((result) => result.ms)).median;
		emit(figure('replay --print start-up (header-only log)', runs.map((result) => result.ms), {floor: null, target: null, met: null}));
	}

	return startup;
}

/** Rows per second of output net of the command's start-up. */
const netRate = (result, base) => result.rows / (Math.max(1, result.ms - base) / 1000);
const replayRuns = quick ? 2 : 3;

// 1–2. replay --json and replay --print --expand none against the parse floor, per size and for
// the small-events log (targets on the largest log and on the small-events one).
const parseFloor = {};
for (const [label] of inputs) await scenario(`replay ${label}`, async () => {
	const {file, events, bytes} = input(label);
	const isLarge = label === largeLabel;
	const targeted = isLarge || label === smallEventsLabel;
	const runs = isLarge ? replayRuns : replayRuns + 1;
	const floorRun = () => run([join(lib, 'parse-floor.mjs'), file], {rss: true});
	// The large log was just written, so it is in the page cache: its runs skip the warm-up (time).
	const warmup = isLarge ? 0 : 1;
	const [json, floorA] = await paired(() => run([cli, 'replay', file, '--json'], {rss: true}), floorRun, runs, warmup);
	const [print, floorB] = await paired(() => run([cli, 'replay', file, '--print', '--expand', 'none', '--width', '120'], {countRows: true}), floorRun, runs, warmup);
	const floors = [...floorA, ...floorB].map((result) => result.ms);
	parseFloor[label] = summarize(floors).median;
	const tag = `(${label}, ${events} events, ${mb(bytes)} MiB)`;
	emit(figure(`parse floor: read + JSON.parse every line ${tag}`, floors, {floor: null, target: null, met: null}));
	emit(figure(`replay --json end to end ${tag}`, json.map((result) => result.ms), {floor: parseFloor[label], target: targeted ? '≤ 2.5× floor' : null, met: targeted ? ratioAtMost(2.5) : null}));
	if (targeted) {
		emit(figure(`replay --json peak RSS ${tag}`, json.map((result) => result.rssMb), {unit: 'MB', floor: summarize(floorA.map((result) => result.rssMb)).median, target: '≤ 400 MB', met: (value) => value.median <= 400}));
	}

	emit(figure(`replay --print --expand none ${tag}`, print.map((result) => result.ms), {floor: parseFloor[label], target: targeted ? '≤ 5× floor' : null, met: targeted ? ratioAtMost(5) : null}));
	const base = await replayStartup();
	emit(figure(`replay --print --expand none rows/s net of start-up ${tag}, ${print[0].rows} rows`, print.map((result) => netRate(result, base)), {unit: 'rows/s', floor: null, target: isLarge ? '≥ 200 000 rows/s' : null, met: isLarge ? (value) => value.median >= 200_000 : null}));
	if (label === sizes[1][0]) {
		// Transcript dump throughput (R4): every card fully expanded, as `--print --expand all`.
		const [all] = await paired(() => run([cli, 'replay', file, '--print', '--expand', 'all', '--width', '120'], {countRows: true}), async () => undefined, 2);
		emit(figure(`replay --print --expand all rows/s net of start-up ${tag}, ${all[0].rows} rows`, all.map((result) => netRate(result, base)), {unit: 'rows/s', floor: null, target: '≥ 200 000 rows/s', met: (value) => value.median >= 200_000}));
	}

	note(`replay ${label} done (${print[0].rows} rows printed)`);
});

// 3. Pager: first full frame from process start, 100 MB vs 100 KB; full index vs parse floor.
await scenario('pager first frame', async () => {
	const large = input(largeLabel);
	const small = input(smallLabel);
	const firstFrame = async (log) => {
		const started = Date.now();
		const result = await run([join(lib, 'pager-bench.mjs'), 'first-frame', log.file], {capture: true});
		const [value] = jsonLines(result.text);
		return {first: value.firstFrameEpoch - started, indexed: value.indexedEpoch - started, rss: value.maxRssMb, cards: value.cards};
	};

	const runs = quick ? 2 : 3;
	const [largeRuns, smallRuns] = await paired(() => firstFrame(large), () => firstFrame(small), runs);
	emit(figure(`pager first full frame from process start (${largeLabel} log)`, largeRuns.map((value) => value.first), {floor: summarize(smallRuns.map((value) => value.first)).median, target: `≤ 1.5× the ${smallLabel} log`, met: ratioAtMost(1.5)}));
	emit(figure(`pager first full frame from process start (${smallLabel} log)`, smallRuns.map((value) => value.first), {floor: null, target: null, met: null}));
	emit(figure(`pager full index from process start (${largeLabel} log, ${largeRuns[0].cards} cards)`, largeRuns.map((value) => value.indexed), {floor: parseFloor[largeLabel], target: '≤ 3× parse floor', met: ratioAtMost(3)}));
	emit(figure(`pager peak RSS after full index (${largeLabel} log)`, largeRuns.map((value) => value.rss), {unit: 'MB', floor: null, target: '≤ 300 MB', met: (value) => value.median <= 300}));
	note('pager first frame done');
});

// 3a. Pager on sessions of messages (the small-events shape: the person's and the model's messages,
// cards, turns): the first full frame of a 2 000-message session against a 20-message one's.
await scenario('pager messages', async () => {
	const sessions = [20, 2_000].map((messages) => {
		const file = join(work, `bench-${messages}-messages.jsonl`);
		const fd = openSync(file, 'w');
		writeLog(fd, {events: 10_000_000, seed: 3, shape: 'small', messages});
		closeSync(fd);
		note(`generated a ${messages}-message session: ${mb(statSync(file).size)} MiB`);
		return {messages, file};
	});
	const firstFrame = async (session) => {
		const started = Date.now();
		const result = await run([join(lib, 'pager-bench.mjs'), 'first-frame', session.file], {capture: true});
		const [value] = jsonLines(result.text);
		if (value.firstFrameEpoch === null) {
			throw new Error(`the pager never drew a full frame of the ${session.messages}-message session`);
		}

		return {first: value.firstFrameEpoch - started, entries: value.cards};
	};

	const [many, few] = await paired(() => firstFrame(sessions[1]), () => firstFrame(sessions[0]), quick ? 3 : 5);
	emit(figure(`pager first full frame from process start (2000-message session, ${many[0].entries} entries)`, many.map((value) => value.first), {floor: summarize(few.map((value) => value.first)).median, target: '≤ 1.5× the 20-message session', met: ratioAtMost(1.5)}));
	emit(figure(`pager first full frame from process start (20-message session, ${few[0].entries} entries)`, few.map((value) => value.first), {floor: null, target: null, met: null}));
	note('pager messages done');
});

// 3b. Pager steps at 100, 10 000 and 100 000 cards (one process per size; the N=100 step is the floor).
await scenario('pager steps', async () => {
	const counts = [100, 10_000, 100_000];
	const steps = {};
	const result = await run([join(lib, 'pager-bench.mjs'), 'steps', counts.join(','), quick ? '4' : '10'], {capture: true});
	for (const value of jsonLines(result.text)) {
		steps[value.count] ??= {};
		steps[value.count][value.kind] = value;
	}

	for (const kind of Object.keys(steps[100])) {
		const floor = summarize(steps[100][kind].samples).median;
		for (const count of counts) {
			const samples = steps[count][kind]?.samples ?? [];
			emit(figure(`pager step ${kind} N=${count}`, samples, {floor: count === 100 ? null : floor, target: count === 100 ? 'p95 ≤ 33 ms' : 'p95 ≤ 33 ms; ≤ 1.5× N=100', met: (value) => value.runs > 0 && value.p95 <= 33 && (value.ratio === null || value.ratio <= 1.5)}));
		}
	}
});

// 4–6. Live: tick cost and bytes at N = 100 vs 10 000 settled cards, settle + commit, RSS.
await scenario('live', async () => {
	const result = await run(['--expose-gc', join(lib, 'live-bench.mjs'), '100,10000'], {capture: true});
	const [value] = jsonLines(result.text);
	const live = {100: value.apps[100], 10_000: {...value.apps[10_000], settle: value.settle, liveCommits: value.liveCommits, rssBefore: value.rssBefore, rssAfter: value.rssAfter, heapAfter: value.heapAfter, maxRss: value.maxRss}};
	const tickFloor = summarize(live[100].ticks).median;
	emit(figure('live tick, 3 running cards, N=100 settled', live[100].ticks, {floor: null, target: '≤ 10 ms median', met: (value) => value.median <= 10}));
	emit(figure('live tick, 3 running cards, N=10000 settled', live[10_000].ticks, {floor: tickFloor, target: '≤ 1.5× N=100; ≤ 10 ms median', met: (value) => value.ratio <= 1.5 && value.median <= 10}));
	emit(figure('live bytes per tick, N=10000 settled', live[10_000].tickBytes, {unit: 'B', floor: summarize(live[100].tickBytes).median, target: 'does not grow with N (≤ 1.05× N=100)', met: ratioAtMost(1.05)}));
	emit(figure('card settle: layoutCard + renderLines of one new card', live[10_000].settle, {floor: tickFloor, target: '≤ 2 ms (plus one live-region redraw = floor)', met: (value) => value.median <= 2}));
	emit(figure('card commit with 3 running: CPU from the commit to its frame (layout + render + Ink write, the live region redrawn)', live[10_000].liveCommits, {floor: tickFloor, target: '≤ 2 ms + one live-region redraw', met: (value) => value.median <= 2 + tickFloor}));
	// This process holds the bench's own fold and app: its heap is the app's view data, not a session's memory.
	emit(figure('JS heap of the in-process app after 10 000 settled cards (the bench\'s own heap, not the session\'s RSS)', {median: live[10_000].heapAfter, p95: live[10_000].heapAfter, count: 1}, {unit: 'MB'}));

	// Issue 16's figure is the real session process: `cardterm` in tmux, one agent turn of 10 000 calls
	// (100 a model step) against the peer bench's fake model server, VmRSS read from /proc for that pid.
	if (hasTmux()) {
		const calls = quick ? 1000 : 10_000;
		const processRun = await run([join(lib, 'live-process.mjs'), '--calls', String(calls), '--batch', '100'], {capture: true});
		const [measured] = jsonLines(processRun.text);
		const label = calls.toLocaleString('en').replaceAll(',', ' ');
		emit(figure(`RSS of the cardterm session process after ${label} settled cards (agent turn in tmux; peak ${round(measured.peakRssMb, 0)} MB, PSS ${round(measured.pssAfterMb, 0)} MB, ${measured.settledOnScreen} ok on its status line)`, {median: measured.rssAfterMb, p95: measured.peakRssMb, count: 1}, {unit: 'MB', floor: measured.rssBeforeMb, target: '≤ 250 MB', met: (value) => value.median <= 250}));
	} else {
		note('live: no tmux, so no session process RSS figure');
	}
});

// 6b. Keystroke echo (issue 14): a key at the prompt → the frame that shows it, after 20 and 2 000
// settled calls of a real interactive session (bench/lib/echo-bench.mjs); the 20-call figure is the floor.
await scenario('echo', async () => {
	const result = await run(['--expose-gc', join(lib, 'echo-bench.mjs'), '20,2000', quick ? '20' : '40'], {capture: true});
	const [value] = jsonLines(result.text);
	emit(figure('keystroke echo, key → frame, after 20 settled calls (fake TTY)', value.echo[20], {floor: null, target: null, met: null}));
	emit(figure('keystroke echo, key → frame, after 2000 settled calls (fake TTY)', value.echo[2000], {floor: summarize(value.echo[20]).median, target: '≤ 1.2× after 20', met: ratioAtMost(1.2)}));
});

// 6c. First token (issue 14): a text delta handed to a live session → the frame that shows it, for
// times to first token of 0–60 ms after the request (bench/lib/first-token-bench.mjs).
await scenario('first token', async () => {
	const result = await run(['--expose-gc', join(lib, 'first-token-bench.mjs'), quick ? '25' : '100'], {capture: true});
	const [value] = jsonLines(result.text);
	const all = Object.values(value.firstToken).flat();
	for (const [ttft, samples] of Object.entries(value.firstToken)) {
		emit(figure(`first token → frame, ${ttft} ms after the request (fake TTY)`, samples, {floor: null, target: null, met: null}));
	}

	emit(figure('first token → frame, every time to first token', all, {floor: null, target: '≤ 16 ms (one frame)', met: (v) => v.median <= 16}));
});
/** Whether tmux can be run (the session-process figures drive the real binary in it). */
function hasTmux() {
	try {
		execFileSync('tmux', ['-V'], {stdio: 'ignore'});
		return true;
	} catch {
		return false;
	}
}

// 7. Follow mode: a writer appending 1 000 events/s; append → yield latency.
await scenario('follow', async () => {
	const seconds = quick ? 4 : 8;
	const result = await run([join(lib, 'follow-bench.mjs'), work, '1000', String(seconds)], {capture: true});
	const [value] = jsonLines(result.text);
	emit(figure(`follow: append → followSessionLog yield latency at 1000 events/s (${value.received}/${value.expected} events)`, value.latencies, {floor: null, target: 'p95 < 100 ms', met: (v) => v.p95 < 100}));
});

// 8. Start-up: cardterm --help vs node -e 0; launch → prompt, → a typed key echoed, → the live screen on a pty.
await scenario('start-up', async () => {
	const [help, bare] = await paired(() => run([cli, '--help']), () => run(['-e', '0']), quick ? 6 : 10, 2);
	emit(figure('start-up: cardterm --help', help.map((value) => value.ms), {floor: summarize(bare.map((value) => value.ms)).median, target: '≤ 300 ms', met: (value) => value.median <= 300}));
	// Launch → prompt on a 120×40 pty (bench/lib/launch-bench.mjs), against Node writing the same row.
	const result = await run([join(lib, 'launch-bench.mjs'), quick ? '4' : '8'], {capture: true});
	const [launch] = jsonLines(result.text);
	emit(figure('start-up: launch → prompt on the terminal (pty 120×40)', launch.prompt, {floor: launch.floor, target: '≤ the best peer (Codex 0.33 s, bench/peers/RESULTS.md); ≤ 2× floor', met: ratioAtMost(2)}));
	emit(figure('start-up: launch → a key typed at the prompt echoed (typing works from the first frame)', launch.echo, {floor: launch.floor, target: null, met: null}));
	emit(figure('start-up: launch → the live screen (the session\'s status line; Enter runs what was typed)', launch.ready, {floor: launch.floor, target: null, met: null}));
});

// 9. One card snapshot: layoutCard + serialize vs splitting the card's plain text.
await scenario('card snapshot', async () => {
	const result = await run([join(lib, 'layout-bench.mjs'), quick ? '150' : '300'], {capture: true});
	const [value] = jsonLines(result.text);
	emit(figure(`card snapshot: layoutCard + JSON of the rows (width 100, expanded, mean ${round(value.rows, 1)} rows)`, value.layout, {floor: summarize(value.split).median, target: '≤ 20 ms', met: (v) => v.p95 <= 20}));
});

// 9b. Streaming Markdown: one text delta appended to a 20 000-character message, by itself and
// through the entry layout path (bench/markdown-stream.mjs), against a full re-layout.
await scenario('markdown stream', async () => {
	const result = await run([join(import.meta.dirname, 'markdown-stream.mjs')], {capture: true});
	for (const value of jsonLines(result.text)) {
		emit(value);
	}
});

// 10. The agent (issue 14): cardterm's own cost per model tool call of a 200-call session against the
// fake model server (wall minus the server's time), against the same calls run directly; peak RSS.
await scenario('agent overhead', async () => {
	const samples = [];
	for (let index = 0; index < (quick ? 1 : 3); index++) {
		const result = await run([join(import.meta.dirname, 'agent-overhead.mjs'), '200'], {capture: true});
		samples.push(jsonLines(result.text)[0]);
	}

	emit(figure('agent: cardterm overhead per model tool call, 200-call session (wall − server)', samples.map((value) => value.overheadPerCallMs), {floor: samples.map((value) => value.directPerCallMs), target: 'reported (floor: the same call run directly)', met: null}));
	emit(figure('agent: peak RSS after a 200-call session', samples.map((value) => value.maxRssMb), {unit: 'MB', floor: null, target: '≤ 250 MB', met: (value) => value.median <= 250}));
});

// 11. Diff layout (bench/diff-layout.mjs, owned separately): its figures with the issue's targets.
if (selected('diff-layout') && existsSync(join(import.meta.dirname, 'diff-layout.mjs'))) {
	const targets = [
		[/^diff-layout 2000 lines 20 edits \(bounded\)$/, '≤ 5 ms', 5],
		[/^diff-layout 20000 lines 20 edits \(bounded\)$/, '≤ 50 ms', 50],
		[/half rewritten/, '≤ 100 ms', 100],
	];
	try {
		const result = await run([join(import.meta.dirname, 'diff-layout.mjs')], {capture: true});
		for (const value of jsonLines(result.text)) {
			const target = targets.find(([pattern]) => pattern.test(value.name));
			emit({...value, target: target?.[1] ?? null, met: target === undefined ? null : value.median <= target[2]});
		}
	} catch (error) {
		note(`diff-layout.mjs failed: ${error.message}`);
	}
}

// ---------------------------------------------------------------------------------------------
const format = (value) => (value === null || value === undefined ? '—' : (typeof value === 'number' ? value.toLocaleString('en-US', {maximumFractionDigits: value >= 100 ? 0 : 2}) : String(value)));
let commit = 'unknown commit';
try {
	commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {cwd: root, encoding: 'utf8'}).trim();
} catch {
	// Not a git checkout: the table still stands.
}

const header = `cardterm bench ${quick ? '--quick' : '(full)'} · ${startedAt.toISOString()} · ${commit} · node ${process.version} · ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} · load avg ${loadBefore.map((x) => x.toFixed(1)).join(' ')} → ${loadavg().map((x) => x.toFixed(1)).join(' ')}`;
const table = [
	'| figure | median | p95 | unit | floor | ratio | target | met |',
	'|---|---:|---:|---|---:|---:|---|---|',
	...figures.map((value) => `| ${value.name} | ${format(value.median)} | ${format(value.p95)} | ${value.unit} | ${format(value.floor)} | ${value.ratio === null ? '—' : `${value.ratio}×`} | ${value.target ?? '—'} | ${value.met === null || value.met === undefined ? '—' : (value.met ? 'met' : '**not met**')} |`),
].join('\n');
const failed = failures.length === 0 ? '' : `\n\nScenarios that did not run:\n${failures.map((line) => `- ${line}`).join('\n')}`;
process.stdout.write(`\n${header}\n\n${table}${failed}\n`);
if (values.markdown !== undefined) {
	writeFileSync(values.markdown, `${header}\n\n${table}${failed}\n`);
}

if (!values.keep) {
	rmSync(work, {recursive: true, force: true});
}
