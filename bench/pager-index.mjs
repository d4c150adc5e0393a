// The pager on a lazy card index (src/transcript/indexed-entry-source.ts), issue 7's pager targets.
//   npm run build && node bench/pager-index.mjs [--log FILE] [--runs N] [--quick] [--tail-bytes B]
// Prints one JSON object per figure on stdout — {name, median, p95, unit, floor, ratio, target, met} —
// and progress notes on stderr. Logs are generated deterministically (bench/generate-log.mjs) into a
// cache folder under the OS temp dir and reused across runs; --log replaces the 100 MB one.
//
// Method:
// - First frame: the parent notes the epoch, spawns `node bench/pager-index.mjs --child first-frame LOG`,
//   which builds the pager exactly as `cardterm replay LOG` does on a terminal (openIndexedEntrySource
//   + <Pager>), renders to a fake 120×40 TTY (bench/lib/fake-tty.mjs), and reports the epoch of the
//   first frame whose 38 card rows are all drawn. Node start-up and imports count, for both sizes.
//   100 MB and 100 KB runs alternate.
// - Full index: a child opens the source without the tail window and awaits the index; the time is
//   measured inside the child. The floor — read the file in 1 MiB chunks, split lines, JSON.parse each —
//   runs in its own child, alternating with the index runs. RSS is the index child's peak (maxRSS).
// - Steps: one child holds a pager per size (100, 10 000, 100 000 cards, each over its own indexed
//   log), and the sizes take turns key by key; a step is the time from the key to the frame it causes.
import {spawn} from 'node:child_process';
import {closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, statSync, writeSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {writeLog} from './generate-log.mjs';
import {generateLogLines} from './lib/log-generator.mjs';
import {figure, summarize} from './lib/stats.mjs';

const {values, positionals} = parseArgs({
	allowPositionals: true,
	options: {
		log: {type: 'string'},
		runs: {type: 'string'},
		quick: {type: 'boolean', default: false},
		child: {type: 'string'},
		'tail-bytes': {type: 'string'},
	},
});
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const note = (text) => process.stderr.write(`pager-index: ${text}\n`);
const tailBytes = values['tail-bytes'] === undefined ? undefined : Number(values['tail-bytes']);

if (values.child !== undefined) {
	await child(values.child, positionals);
	process.exit(0);
}

const quick = values.quick;
const runs = Number(values.runs ?? (quick ? 3 : 7));
const cache = join(tmpdir(), 'cardterm-bench-pager-index');
mkdirSync(cache, {recursive: true});
const large = values.log ?? ensureEventsLog('100mb', 100_000);
const small = ensureEventsLog('100kb', 100);
const stepCounts = quick ? [100, 1000, 10_000] : [100, 10_000, 100_000];
const stepLogs = stepCounts.map((count) => ensureCardsLog(count));
const label = (path) => `${(statSync(path).size / 1e6).toFixed(1)} MB`;
const figures = [];
const emit = (value) => {
	figures.push(value);
	print(value);
};

// 1. First frame, 100 MB against 100 KB, alternating.
{
	const largeRuns = [];
	const smallRuns = [];
	for (let index = 0; index <= runs; index++) {
		const big = await firstFrame(large);
		const little = await firstFrame(small);
		// The first pair warms the page cache and is discarded.
		if (index > 0) {
			largeRuns.push(big.first);
			smallRuns.push(little.first);
		}
	}

	const smallMedian = summarize(smallRuns).median;
	emit(figure(`pager first full frame from process start (${label(large)} log)`, largeRuns, {floor: smallMedian, target: `≤ 1.5× the ${label(small)} log`, met: (value) => value.ratio <= 1.5}));
	emit(figure(`pager first full frame from process start (${label(small)} log)`, smallRuns, {floor: null, target: null, met: null}));
	note('first frame done');
}

// 2. Full index against the parse floor, alternating; peak RSS of the index child.
{
	const indexRuns = [];
	const floorRuns = [];
	const rss = [];
	let cards = 0;
	for (let index = 0; index < Math.max(3, runs); index++) {
		floorRuns.push((await childJson(['floor', large])).ms);
		const indexed = await childJson(['index', large]);
		indexRuns.push(indexed.ms);
		rss.push(indexed.maxRssMb);
		cards = indexed.cards;
	}

	emit(figure(`pager full card index (${label(large)} log, ${cards} cards)`, indexRuns, {floor: floorRuns, target: '≤ 3× parse floor', met: (value) => value.ratio <= 3}));
	emit(figure(`pager parse floor (${label(large)} log: read, split, JSON.parse every line)`, floorRuns, {floor: null, target: null, met: null}));
	emit(figure(`pager peak RSS while indexing (${label(large)} log)`, rss, {unit: 'MB', floor: null, target: '≤ 300 MB', met: (value) => value.median <= 300}));
	note('index done');
}

// 3. Steps at each size.
{
	const lines = await childLines(['steps', stepLogs.join(','), String(quick ? 4 : 10)]);
	const byKind = new Map();
	for (const line of lines) {
		const entry = byKind.get(line.kind) ?? new Map();
		entry.set(line.count, line.samples);
		byKind.set(line.kind, entry);
	}

	for (const [kind, samplesByCount] of byKind) {
		const base = summarize(samplesByCount.get(stepCounts[0]) ?? []).median;
		for (const count of stepCounts) {
			const samples = samplesByCount.get(count) ?? [];
			const first = count === stepCounts[0];
			emit(figure(`pager step ${kind} N=${count} cards (indexed log)`, samples, {floor: first ? null : base, target: first ? 'p95 ≤ 33 ms' : `p95 ≤ 33 ms; ≤ 1.5× N=${stepCounts[0]}`, met: (value) => value.runs > 0 && value.p95 <= 33 && (value.ratio === null || value.ratio <= 1.5)}));
		}
	}
}

const unmet = figures.filter((value) => value.met === false).map((value) => value.name);
note(unmet.length === 0 ? 'every target met' : `targets not met: ${unmet.join('; ')}`);

/** A generated log of `events` events (cached). */
function ensureEventsLog(name, events) {
	const path = join(cache, `${name}.jsonl`);
	if (!existsSync(path)) {
		note(`generating ${path} (${events} events)`);
		const fd = openSync(`${path}.part`, 'w');
		writeLog(fd, {events, seed: 1});
		closeSync(fd);
		renameSync(`${path}.part`, path);
	}

	return path;
}

/** A generated log holding `count` tool calls (cached): the generator's mix, cut after the call's result. */
function ensureCardsLog(count) {
	const path = join(cache, `cards-${count}.jsonl`);
	if (existsSync(path)) {
		return path;
	}

	note(`generating ${path} (${count} cards)`);
	const fd = openSync(`${path}.part`, 'w');
	let calls = 0;
	let pending = [];
	let size = 0;
	const flush = () => {
		writeSync(fd, pending.join(''));
		pending = [];
		size = 0;
	};

	for (const line of generateLogLines({events: 50 * count + 1000, seed: 2})) {
		if (calls >= count && line.includes('"type":"tool/call"')) {
			break;
		}

		if (line.includes('"type":"tool/call"')) {
			calls++;
		}

		pending.push(line, '\n');
		size += line.length;
		if (size > 1 << 20) {
			flush();
		}
	}

	flush();
	closeSync(fd);
	renameSync(`${path}.part`, path);
	return path;
}

async function firstFrame(log) {
	const started = Date.now();
	const value = await childJson(['first-frame', log]);
	if (value.firstFrameEpoch === null) {
		throw new Error(`no full frame for ${log}`);
	}

	return {first: value.firstFrameEpoch - started};
}

async function childJson(args) {
	return (await childLines(args))[0];
}

/** Runs this script as a child in `mode`; returns its stdout JSON lines. */
function childLines([mode, ...rest]) {
	return new Promise((resolve, reject) => {
		const args = [import.meta.filename, '--child', mode, ...(tailBytes === undefined ? [] : ['--tail-bytes', String(tailBytes)]), ...rest];
		const env = {...process.env, NODE_ENV: 'production'};
		delete env.CI;
		delete env.FORCE_COLOR;
		const spawned = spawn(process.execPath, args, {env, stdio: ['ignore', 'pipe', 'pipe']});
		let out = '';
		let err = '';
		spawned.stdout.on('data', (chunk) => {
			out += chunk;
		});
		spawned.stderr.on('data', (chunk) => {
			err += chunk;
		});
		spawned.on('error', reject);
		spawned.on('close', (code) => {
			if (code !== 0) {
				reject(new Error(`pager-index child ${mode} exited ${code}: ${err.slice(-2000)}`));
				return;
			}

			resolve(out.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line)));
		});
	});
}

/** The child modes: each prints JSON lines. */
async function child(mode, args) {
	const maxRssMb = () => process.resourceUsage().maxRSS / 1024;
	if (mode === 'floor') {
		const started = performance.now();
		const lines = parseFloor(args[0]);
		print({ms: performance.now() - started, lines, maxRssMb: maxRssMb()});
		return;
	}

	const {openIndexedEntrySource} = await import('../dist/src/transcript/indexed-entry-source.js');
	const {referencePresenters} = await import('../dist/src/acp/reference-presenters.js');
	const presenters = (header) => referencePresenters(header.cwd ?? process.cwd());
	if (mode === 'index') {
		const started = performance.now();
		const source = await openIndexedEntrySource(args[0], {presenters, tail: false});
		await source.ready;
		const ms = performance.now() - started;
		print({ms, cards: source.count(), rssMb: process.memoryUsage().rss / 1048576, maxRssMb: maxRssMb()});
		source.close();
		return;
	}

	const React = (await import('react')).default;
	const {render} = await import('ink');
	const {Pager} = await import('../dist/components/Pager.js');
	const {colorTheme} = await import('../dist/src/layout/text/theme.js');
	const {FakeStdin, FakeStdout, sleep} = await import('./lib/fake-tty.mjs');
	const {default: stripAnsi} = await import('strip-ansi');
	const cardRows = 40 - 2;
	const isFullFrame = (text) => stripAnsi(text).split('\n').filter((row) => row.trim() !== '').length >= cardRows;
	const mount = (source, stdout, stdin, start) => render(React.createElement(Pager, {source, theme: colorTheme, title: 'bench', start, onExit() {}}), {stdout, stdin, stderr: stdout, exitOnCtrlC: false, patchConsole: false});

	if (mode === 'first-frame') {
		// As src/cli/pager/pager-command.tsx does for a plain log on a terminal.
		const stdout = new FakeStdout({columns: 120, rows: 40});
		const stdin = new FakeStdin();
		let first = null;
		stdout.onFrame = (text) => {
			if (first === null && isFullFrame(text)) {
				first = Date.now();
			}
		};

		const source = await openIndexedEntrySource(args[0], {presenters, ...(tailBytes === undefined ? {} : {tailBytes})});
		const instance = mount(source, stdout, stdin, 'end');
		await source.ready;
		await sleep(150);
		instance.unmount();
		source.close();
		print({firstFrameEpoch: first, cards: source.count(), maxRssMb: maxRssMb()});
		return;
	}

	if (mode === 'steps') {
		const paths = args[0].split(',');
		const repeats = Number(args[1] ?? '10');
		const pagers = [];
		for (const path of paths) {
			const source = await openIndexedEntrySource(path, {presenters, tail: false});
			await source.ready;
			const stdout = new FakeStdout({columns: 120, rows: 40});
			const stdin = new FakeStdin();
			pagers.push({count: source.count(), path, source, stdout, stdin, instance: mount(source, stdout, stdin, 'start')});
		}

		await sleep(300);
		const step = async (pager, key) => {
			const next = pager.stdout.nextFrame(3000);
			const started = performance.now();
			pager.stdin.press(key);
			const written = await next;
			await sleep(45);
			return written === undefined ? undefined : written.at - started;
		};

		const all = async (keys) => {
			for (const key of keys) {
				for (const pager of pagers) {
					await step(pager, key);
				}
			}
		};

		const run = async (kind, keys) => {
			const samples = new Map(pagers.map((pager) => [pager, []]));
			for (let round = 0; round < repeats; round++) {
				for (const key of keys) {
					for (const pager of pagers) {
						const ms = await step(pager, key);
						// The first round warms up and is discarded.
						if (ms !== undefined && round >= 1) {
							samples.get(pager).push(ms);
						}
					}
				}
			}

			for (const [pager, values] of samples) {
				print({kind, count: Number(pager.path.match(/cards-(\d+)/)?.[1] ?? pager.count), cards: pager.count, samples: values});
			}
		};

		// Into the middle of each log, so every key has somewhere to go.
		await all(['G']);
		await run('jump g/G', ['g', 'G']);
		await run('line j/k', ['j', 'k']);
		await run('page PgDn/PgUp', ['\u001b[6~', '\u001b[5~']);
		// A query with several matches at every size: n and N always move (a lone match, found round the
		// end, gives no new frame to time).
		await all([...'/git', '\r']);
		await run('search-next n/N', ['n', 'N']);
		await run('next-failure e/E', ['e', 'E']);
		for (const pager of pagers) {
			pager.instance.unmount();
			pager.source.close();
		}

		return;
	}

	throw new Error(`pager-index: unknown child mode ${mode}`);
}

/**
The floor of any index: read in 1 MiB chunks, split at newline bytes, decode each line and JSON.parse
it, keep nothing. (Splitting bytes, not a decoded chunk string, is the faster way and the one the
index itself uses, so the ratio compares like with like.)
*/
function parseFloor(path) {
	const fd = openSync(path, 'r');
	let buffer = Buffer.allocUnsafe(1 << 20);
	let kept = 0;
	let lines = 0;
	for (;;) {
		if (kept === buffer.length) {
			// A line longer than the buffer: grow it.
			const bigger = Buffer.allocUnsafe(buffer.length * 2);
			buffer.copy(bigger, 0, 0, kept);
			buffer = bigger;
		}

		const read = readSync(fd, buffer, kept, buffer.length - kept, null);
		if (read === 0) {
			break;
		}

		const end = kept + read;
		let start = 0;
		for (let newline = buffer.indexOf(10, start); newline !== -1 && newline < end; newline = buffer.indexOf(10, start)) {
			JSON.parse(buffer.toString('utf8', start, newline));
			lines++;
			start = newline + 1;
		}

		kept = end - start;
		buffer.copy(buffer, 0, start, end);
	}

	closeSync(fd);
	return lines;
}
