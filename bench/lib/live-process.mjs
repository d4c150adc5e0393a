// A real interactive session process after N settled cards: `cardterm` (this checkout's build, or
// CARDTERM_PEERS_BUILD's) in its agent mode in a 120×40 tmux window, driven by the peer bench's fake
// model server through one turn of N `echo` calls (BATCH calls a model step, so the run measures the
// session and not a conversation of N requests). The memory figures are read from /proc for the
// cardterm process itself, never from this script's heap.
//   node bench/lib/live-process.mjs [--calls 10000] [--batch 100] [--heap-snapshot FILE] [--keep]
// --heap-snapshot writes the process's V8 heap snapshot after the figures (SIGUSR2, node's
// --heapsnapshot-signal) to FILE; bench/lib/heap-summary.mjs FILE says what it holds.
// Prints one JSON object: {calls, batch, sessionMs, rssBeforeMb (at the prompt), rssAfterMb (the turn
// done, 3 s later), peakRssMb (VmHWM), pssAfterMb, settledOnScreen, pid, log}.
import {copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import cardterm from '../peers/drivers/cardterm.mjs';
import {startModelServer} from '../peers/model-server-process.mjs';
import {processTree, pssKb} from '../peers/process-tree.mjs';
import {benchBatchPrompt, doneMarker} from '../peers/script-step.mjs';
import {TmuxServer} from '../peers/tmux-pane.mjs';

const {values} = parseArgs({options: {calls: {type: 'string', default: '10000'}, batch: {type: 'string', default: '100'}, 'heap-snapshot': {type: 'string'}, keep: {type: 'boolean', default: false}}});
const calls = Number(values.calls);
const batch = Number(values.batch);
const sleep = ms => new Promise(resolve => {
	setTimeout(resolve, ms);
});

/** A `/proc/<pid>/status` figure (VmRSS, VmHWM) in MB; NaN when the process is gone. */
function statusMb(pid, field) {
	try {
		const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match === null ? Number.NaN : Number(match[1]) / 1024;
	} catch {
		return Number.NaN;
	}
}

const commandLine = pid => {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
	} catch {
		return '';
	}
};

/** Signals `pid` to write a heap snapshot into its cwd (the work folder) and copies it to `target` once its size stops changing. */
async function writeHeapSnapshot(pid, target) {
	process.kill(pid, 'SIGUSR2');
	let size = -1;
	for (let waited = 0; waited < 300_000; waited += 1000) {
		// polling a file being written
		await sleep(1000);
		const file = readdirSync(work).find(name => name.endsWith('.heapsnapshot'));
		const now = file === undefined ? -1 : statSync(join(work, file)).size;
		if (now > 0 && now === size) {
			copyFileSync(join(work, file), target);
			return;
		}

		size = now;
	}

	throw new Error('the heap snapshot was not written within 5 min');
}

const folder = mkdtempSync(join(tmpdir(), 'cardterm-live-process-'));
const home = join(folder, 'home');
const work = join(folder, 'work');
mkdirSync(home);
mkdirSync(work);
const installed = cardterm.install();
const server = await startModelServer({logFile: join(folder, 'server.log')});
const tmux = new TmuxServer(folder);
const model = 'fake-model';
let result;
try {
	const snapshot = values['heap-snapshot'];
	const environment = {PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TERM: 'xterm-256color', LANG: 'C.UTF-8', ...cardterm.configure(), ...(snapshot === undefined ? {} : {NODE_OPTIONS: '--heapsnapshot-signal=SIGUSR2'})};
	const bin = installed.command.at(-1);
	const pane = tmux.open('live', [...installed.command, ...cardterm.launchArgs({model, baseUrl: server.baseUrl})], {environment, cwd: work});
	pane.go();
	await pane.waitFor('the prompt', () => cardterm.ready.test(pane.screen()), {timeoutMs: 120_000, everyMs: 50});
	// Node running the bin (the pane's `sh -c` names the bin in its script too).
	const pid = processTree(pane.shellPid()).find(candidate => commandLine(candidate).startsWith(`${installed.command[0]} ${bin}`));
	if (pid === undefined) {
		throw new Error('the cardterm process was not found under the pane');
	}

	const rssBeforeMb = statusMb(pid, 'VmRSS');
	const prompt = benchBatchPrompt(calls, batch);
	pane.type(prompt);
	await pane.waitFor('the typed prompt', () => pane.screen().includes(prompt.slice(0, 24)), {timeoutMs: 15_000});
	await sleep(300);
	const started = performance.now();
	pane.keys('Enter');
	// The final answer's marker on the screen (the status line counts the settled cards meanwhile).
	const marker = doneMarker(calls);
	await pane.waitFor(`the answer after ${calls} calls`, () => pane.screen().includes(marker), {timeoutMs: 60_000 + calls * 200, everyMs: 500});
	const sessionMs = performance.now() - started;
	await sleep(3000);
	const okCount = /●\s*([\d\s]+?)\s*ok\b/.exec(pane.screen())?.[1]?.replaceAll(/\s/g, '');
	result = {
		calls,
		batch,
		sessionMs,
		rssBeforeMb,
		rssAfterMb: statusMb(pid, 'VmRSS'),
		peakRssMb: statusMb(pid, 'VmHWM'),
		pssAfterMb: pssKb(pid) / 1024,
		settledOnScreen: okCount === undefined ? null : Number(okCount),
		pid,
		version: installed.version,
	};
	if (snapshot !== undefined) {
		await writeHeapSnapshot(pid, snapshot);
	}

	pane.keys('C-d');
	await sleep(1000);
} finally {
	tmux.close();
	server.stop();
	if (!values.keep) {
		rmSync(folder, {recursive: true, force: true});
	}
}

process.stdout.write(`${JSON.stringify(result)}\n`);
