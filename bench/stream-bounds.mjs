// A model that streams without end, and a long code block at a realistic pace (issue 16, attacker
// item 3), in the real interactive session: `bin/cardterm` in a private 120×40 tmux window against
// the fake model server (in this process), its resident memory read from /proc every 200 ms.
//   npm run build && node bench/stream-bounds.mjs [--runs 3] [--seconds 20] [--baseline DIR]
// Scenarios, each run RUNS times (medians):
// - `endless`: deltas of 180 characters as fast as cardterm reads them, for SECONDS or until the
//   turn ends (cardterm cuts an answer at 4 Mi characters). Figures: peak RSS growth over the
//   session's RSS at the prompt (MB), its rate over the stream (MB/s), and the characters the log
//   kept; then Esc 1 s into a second such stream: ms until the turn's end row shows.
// - `code`: a 3 000-line code block, one line every 5 ms (15 s): peak RSS growth (MB).
// The floor of a memory figure is the RSS at the prompt in the same run (ratio = growth / floor).
// --baseline DIR runs a second checkout's build (DIR/bin/cardterm, e.g. main) the same way, run for
// run alternating with this one, and prints each figure again with that build's median as the floor
// (ratio = this build / baseline).
import {execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {parseArgs} from 'node:util';
import {startFakeModelServer} from '../test/fixtures/fake-model-server.mjs';
import {figure, summarize} from './lib/stats.mjs';

const {values} = parseArgs({options: {runs: {type: 'string', default: '3'}, seconds: {type: 'string', default: '20'}, baseline: {type: 'string'}}});
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const builds = [{name: 'this', bin: resolve(import.meta.dirname, '..', 'bin', 'cardterm')}];
if (values.baseline !== undefined) {
	builds.push({name: 'baseline', bin: resolve(values.baseline, 'bin', 'cardterm')});
}

const socket = `cardterm-stream-bounds-${process.pid}`;
const tmux = (...args) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], {encoding: 'utf8', maxBuffer: 256 << 20});
const sleep = ms => new Promise(resolve => {
	setTimeout(resolve, ms);
});
const sentence = 'The quick brown fox jumps over the lazy dog. ';
const codeLines = Array.from({length: 3000}, (_, index) => `const value${index} = compute(${index}, "some string here");\n`);
// The prompt picks the answer: `code` the paced code block, anything else the endless stream.
const server = await startFakeModelServer({
	script: request => JSON.stringify(request.messages.at(-1)).includes('code')
		? {text: ['Here it is:\n\n```ts\n', ...codeLines, '```\n'], chunkDelayMs: 5}
		: {text: 'Here it comes: ', endless: {text: sentence.repeat(4)}},
	lifetimeMs: 4 * 3600_000,
	keepRequests: false,
});
const work = mkdtempSync(join(tmpdir(), 'cardterm-bench-stream-bounds-'));

function status(pid, field) {
	try {
		return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
	} catch {
		return Number.NaN;
	}
}

const pane = target => tmux('capture-pane', '-p', '-t', target, '-S', '-100');

/** A session of `bin` in a fresh window; returns its pid, its window and where its sessions go. */
async function launch(bin, target) {
	const sessions = join(work, target);
	const command = ['env', '-i', `PATH=${process.env.PATH}`, `HOME=${work}`, 'TERM=xterm-256color', `CARDTERM_SESSION_DIR=${sessions}`, 'OPENAI_API_KEY=test', process.execPath, bin, '--base-url', server.url, '--model', 'fake-model'];
	tmux('new-session', '-d', '-s', target, '-x', '120', '-y', '40', '-c', work, ...command);
	const started = Date.now();
	while (!pane(target).includes('fake-model')) {
		if (Date.now() - started > 60_000) {
			throw new Error(`${target}: no prompt after 60 s:\n${pane(target)}`);
		}

		 
		await sleep(100);
	}

	// `env` execs node: the pane's process is cardterm.
	return {pid: Number(tmux('display-message', '-p', '-t', target, '#{pane_pid}').trim()), sessions};
}

/** Whether a turn runs: its status line offers Esc. */
const turnRuns = target => tmux('capture-pane', '-p', '-t', target).includes('Esc to cancel');

/** Sends `prompt` and waits for its turn to start. */
async function start(target, prompt) {
	tmux('send-keys', '-t', target, prompt, 'Enter');
	const sent = Date.now();
	while (!turnRuns(target)) {
		if (Date.now() - sent > 30_000) {
			throw new Error(`${target}: the turn did not start:\n${pane(target)}`);
		}

		 
		await sleep(20);
	}
}

/** Sends `prompt`, then reads the RSS every 200 ms until its turn ends or `limitMs`; returns the readings' peak, the time taken and whether the turn ended. */
async function watch(pid, target, prompt, limitMs) {
	await start(target, prompt);
	const started = Date.now();
	let peak = status(pid, 'VmRSS');
	while (Date.now() - started < limitMs && turnRuns(target)) {
		 
		await sleep(200);
		peak = Math.max(peak, status(pid, 'VmRSS'));
	}

	return {peak, ms: Date.now() - started, ended: !turnRuns(target)};
}

/** The characters of the model's answers the session's log kept. */
function keptChars(sessions) {
	const id = readdirSync(sessions).find(name => !name.startsWith('.'));
	let kept = 0;
	for (const line of readFileSync(join(sessions, id, 'session.jsonl'), 'utf8').split('\n')) {
		if (line.includes('"assistant/message"')) {
			for (const block of JSON.parse(line).data.message.content) {
				kept += block.text?.length ?? 0;
			}
		}
	}

	return kept;
}

async function run(build, index) {
	const results = {};
	// The endless stream.
	{
		const target = `endless-${build.name}-${index}`;
		const {pid, sessions} = await launch(build.bin, target);
		const idle = status(pid, 'VmRSS');
		const {peak, ms, ended} = await watch(pid, target, 'talk', seconds * 1000);
		results.idle = idle;
		results.endlessGrowth = peak - idle;
		results.endlessRate = (peak - idle) / (ms / 1000);
		results.cut = ended && pane(target).includes('cardterm\'s bound') ? 1 : 0;
		// Esc a second into another stream (after the first turn ends or is cancelled).
		for (const waited = Date.now(); turnRuns(target) && Date.now() - waited < 120_000;) {
			tmux('send-keys', '-t', target, 'Escape');
			 
			await sleep(500);
		}

		await start(target, 'again');
		await sleep(1000);
		const pressed = Date.now();
		tmux('send-keys', '-t', target, 'Escape');
		while (turnRuns(target) && Date.now() - pressed < 120_000) {
			 
			await sleep(20);
		}

		results.escMs = Date.now() - pressed;
		tmux('kill-session', '-t', target);
		await sleep(500);
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// Already gone with its tmux window.
		}

		results.kept = keptChars(sessions);
	}

	// The code block at a realistic pace.
	{
		const target = `code-${build.name}-${index}`;
		const {pid} = await launch(build.bin, target);
		const idle = status(pid, 'VmRSS');
		const {peak} = await watch(pid, target, 'the code', 120_000);
		results.codeIdle = idle;
		results.codeGrowth = peak - idle;
		tmux('kill-session', '-t', target);
		await sleep(500);
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// Already gone with its tmux window.
		}
	}

	return results;
}

const measured = new Map(builds.map(build => [build.name, []]));
try {
	for (let index = 0; index < runs; index++) {
		for (const build of builds) {
			if (!existsSync(build.bin)) {
				throw new Error(`no build at ${build.bin}`);
			}

			 
			const result = await run(build, index);
			measured.get(build.name).push(result);
			process.stderr.write(`bench: ${build.name} run ${index + 1}: ${JSON.stringify(result)}\n`);
		}
	}
} finally {
	try {
		tmux('kill-server');
	} catch {
		// No window was left.
	}

	await server.close();
	rmSync(work, {recursive: true, force: true});
}

const median = (name, key) => summarize(measured.get(name).map(result => result[key])).median;
const of = (name, key) => measured.get(name).map(result => result[key]);
for (const build of builds) {
	const tag = build.name === 'this' ? '' : ` (${build.name})`;
	const print = value => process.stdout.write(`${JSON.stringify(value)}\n`);
	print(figure(`endless stream: peak RSS growth${tag}`, of(build.name, 'endlessGrowth'), {unit: 'MB', floor: of(build.name, 'idle'), target: 'bounded: the answer is cut at 4 Mi characters', met: value => median(build.name, 'cut') === 1 && value.median < 400}));
	print(figure(`endless stream: RSS growth rate${tag}`, of(build.name, 'endlessRate'), {unit: 'MB/s', target: 'none (the issue measured ~40 MB/s)'}));
	print(figure(`endless stream: characters kept${tag}`, of(build.name, 'kept'), {unit: 'chars', target: 'the answer shown, cut at 4 Mi characters'}));
	print(figure(`endless stream: Esc to the turn's end${tag}`, of(build.name, 'escMs'), {unit: 'ms', target: '< 1000', met: value => value.median < 1000}));
	print(figure(`3 000-line code block: peak RSS growth${tag}`, of(build.name, 'codeGrowth'), {unit: 'MB', floor: of(build.name, 'codeIdle'), target: 'the issue: 116 → 512 MB'}));
}

if (builds.length > 1) {
	for (const [label, key, unit] of [['endless stream: peak RSS growth', 'endlessGrowth', 'MB'], ['endless stream: Esc to the turn\'s end', 'escMs', 'ms'], ['3 000-line code block: peak RSS growth', 'codeGrowth', 'MB']]) {
		process.stdout.write(`${JSON.stringify(figure(`${label}: this build / baseline`, of('this', key), {unit, floor: median('baseline', key), target: '< 1'}))}\n`);
	}
}
