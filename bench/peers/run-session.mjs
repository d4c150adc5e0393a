// One peer, one size, in a fresh 120×40 tmux window: launch → prompt, the scripted session, keystroke
// echo after it (and the same method's floor against plain bash in the same pane), quit, then resume
// of the saved session in a new window. Every figure is measured by the same code for every peer.
import {readFileSync} from 'node:fs';
import {childrenOf, processTree, samplePeakPss} from './process-tree.mjs';
import {unionLength} from './intervals.mjs';
import {requestTokens} from './request-tokens.mjs';
import {benchPrompt, doneMarker} from './script-step.mjs';
import {countClearScreens, countMarkedFrames, stripEscapes} from './terminal-bytes.mjs';
import {summarize} from '../lib/stats.mjs';

const sleep = ms => new Promise(resolve => {
	setTimeout(resolve, ms);
});

const wall = at => performance.timeOrigin + at;
const echoKeys = 10;
const stallMs = 60_000;
// The floor's prompt, so the harness can tell plain bash is up.
const floorPrompt = 'floor$ ';

/** How many of `line-1` … `line-calls` the text shows (each once, whatever the repeats). */
export function historyShown(text, calls) {
	const seen = new Set();
	for (const match of text.matchAll(/\bline-(\d+)\b/g)) {
		const index = Number(match[1]);
		if (index >= 1 && index <= calls) {
			seen.add(index);
		}
	}

	return seen.size;
}

/**
The program a pane's shell is running, once it has started: the descendant whose command line names
`commandPath` (the shell's other children, such as `stty`, come and go first), else — a program may
rename itself (pi sets `process.title`) — the shell's one child that is not `stty`.
*/
function programOf(pane, commandPath) {
	const shell = pane.shellPid();
	let program;
	return () => {
		if (program === undefined) {
			const tree = processTree(shell).filter(pid => pid !== shell);
			program = tree.find(pid => commandLine(pid).includes(commandPath)) ?? childrenOf(shell).find(pid => commandName(pid) !== 'stty');
		}

		return program;
	};
}

const commandName = pid => {
	try {
		return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
	} catch {
		return '';
	}
};

function commandLine(pid) {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
	} catch {
		return '';
	}
}

const alive = pid => processTree(pid).length > 0;

/** Sends each quit sequence in turn until the program is gone; SIGTERM (then SIGKILL) as the last resort. Returns how it ended. */
async function quit(pane, programPid, quitKeys) {
	if (programPid === undefined) {
		return 'never started';
	}

	for (const sequence of quitKeys) {
		for (const key of sequence) {
			pane.keys(key);
			// keys one after another, as typed
			await sleep(300);
		}

		const deadline = performance.now() + 5000;
		while (alive(programPid) && performance.now() < deadline) {
			// waiting for the process to end
			await sleep(50);
		}

		if (!alive(programPid)) {
			return `keys ${sequence.join(' ')}`;
		}
	}

	for (const signal of ['SIGTERM', 'SIGKILL']) {
		for (const pid of processTree(programPid)) {
			try {
				process.kill(pid, signal);
			} catch {
				// Already gone.
			}
		}

		// waiting for the process to end
		await sleep(2000);
		if (!alive(programPid)) {
			return signal;
		}
	}

	return 'still running';
}

/** Median latency (ms) from typing `z` to a `z` among the printed bytes, over `echoKeys` keys; null when a key never echoed. */
async function echoLatency(pane) {
	const samples = [];
	for (let index = 0; index < echoKeys; index++) {
		const from = pane.byteCount();
		const started = performance.now();
		pane.type('z');
		try {
			// one key at a time
			const seen = await pane.waitForPrinted('z', from, {timeoutMs: 5000});
			samples.push(seen - started);
		} catch {
			return {medianMs: null, samples};
		}

		// let the redraw finish before the next key
		await sleep(200);
	}

	return {medianMs: summarize(samples).median, samples};
}

/**
Waits for `marker` in the printed bytes after `from` (checked every ms) or on the screen (every 500 ms);
gives up after `timeoutMs`, or as soon as `stalled()` says the session stopped asking the model.
*/
async function waitForMarker(pane, marker, from, timeoutMs, stalled = () => false) {
	const started = performance.now();
	let scanned = from;
	let lastScreen = started;
	for (;;) {
		const end = pane.byteCount();
		if (end !== scanned) {
			if (stripEscapes(pane.bytesFrom(Math.max(from, scanned - 512), end)).includes(marker)) {
				return performance.now();
			}

			scanned = end;
		}

		const now = performance.now();
		if (now - lastScreen > 500) {
			lastScreen = now;
			if (pane.screen().includes(marker)) {
				return performance.now();
			}

			if (stalled()) {
				return undefined;
			}
		}

		if (now - started > timeoutMs) {
			return undefined;
		}

		// polling a real terminal
		await sleep(2);
	}
}

/**
Waits until the resumed session shows its last answer, or shows its prompt and then writes nothing
for 2 s (a resume that keeps its history off screen); returns when each was first seen.
*/
async function waitForResume(pane, marker, ready, timeoutMs) {
	const started = performance.now();
	let readyAt;
	let size = 0;
	let quietSince = started;
	let scanFrom = 0;
	for (;;) {
		// polling a real terminal
		const markerAt = await waitForMarker(pane, marker, scanFrom, 100);
		if (markerAt !== undefined) {
			return {markerAt, readyAt};
		}

		scanFrom = Math.max(0, pane.byteCount() - 512);
		const now = performance.now();
		const screen = pane.screen();
		if (screen.includes(marker)) {
			return {markerAt: now, readyAt};
		}

		if (pane.byteCount() !== size) {
			size = pane.byteCount();
			quietSince = now;
		}

		if (readyAt === undefined && ready.test(screen)) {
			readyAt = now;
		}

		if ((readyAt !== undefined && now - quietSince > 2000) || now - started > timeoutMs) {
			return {readyAt};
		}
	}
}

/** Opens a window for `argv` and waits for `ready` on the screen; returns the pane, the launch time and the PSS sampler. */
async function launch(tmux, name, argv, {environment, cwd, ready, then, commandIndex, timeoutMs = 120_000}) {
	const pane = tmux.open(name, argv, {environment, cwd, then});
	const started = pane.go();
	const program = programOf(pane, argv[commandIndex]);
	const pss = samplePeakPss(pane.shellPid());
	let readyAt;
	try {
		readyAt = await pane.waitFor(`the prompt (${ready})`, () => {
			program();
			return ready.test(pane.screen());
		}, {timeoutMs, everyMs: 25});
	} catch (error) {
		pss.stop();
		pane.close();
		throw error;
	}

	return {pane, program, pss, launchMs: readyAt - started, started};
}

/**
Measures one session of `calls` shell calls. `peer` is a driver (drivers/*.mjs) with its `command`
installed; `setup` is {tmux, server, environment, cwd, model, baseUrl, maxSessionMs}.
*/
export async function runSession(peer, calls, setup) {
	// Whatever fails, no sampler keeps ticking and no window keeps a peer running into the next session.
	const opened = [];
	try {
		return await measureSession(peer, calls, setup, opened);
	} finally {
		for (const {pss, pane} of opened) {
			pss.stop();
			pane.close();
		}
	}
}

async function measureSession(peer, calls, setup, opened) {
	const {tmux, server, environment, cwd, model, baseUrl, maxSessionMs} = setup;
	const marker = doneMarker(calls);
	const result = {peer: peer.name, calls, notes: []};
	const then = `PS1='${floorPrompt}' exec bash --norc --noprofile -i`;
	const session = await launch(tmux, `${peer.name}-${calls}`, [...peer.command, ...peer.launchArgs({model, baseUrl})], {environment, cwd, ready: peer.ready, then, commandIndex: peer.command.length - 1});
	const {pane} = session;
	opened.push(session);
	result.launchMs = session.launchMs;
	const launchBytes = pane.byteCount();

	await pane.typePrompt(benchPrompt(calls));
	const sessionFrom = pane.byteCount();
	const enterAt = performance.now();
	pane.keys('Enter');
	const firstStep = () => server.requests(wall(enterAt)).some(entry => entry.kind === 'call' || entry.kind === 'answer');
	try {
		// A loaded machine can take many seconds to the first request; only then is the Enter taken for lost.
		await pane.waitFor('the first model request', firstStep, {timeoutMs: 30_000, everyMs: 100});
	} catch {
		// Still in the input (a paste heuristic took the Enter as a newline): once more, the clock still running.
		result.notes.push('no model request 30 s after Enter; pressed it again (the time includes the wait)');
		pane.keys('Enter');
	}

	// A session that stopped asking the model (a step limit, an error on screen) is over: no request for a minute.
	let lastRequest = wall(enterAt);
	let stalledAfter;
	const stalled = () => {
		const newest = server.requests(lastRequest).at(-1);
		if (newest !== undefined) {
			lastRequest = newest.end ?? newest.arrival;
		}

		stalledAfter = wall(performance.now()) - lastRequest > stallMs ? lastRequest : undefined;
		return stalledAfter !== undefined;
	};

	const doneAt = await waitForMarker(pane, marker, sessionFrom, maxSessionMs(calls), stalled);
	const steps = server.requests(wall(enterAt), wall(doneAt ?? performance.now()));
	const served = steps.filter(entry => entry.kind === 'call').length;
	result.callsServed = served;
	if (doneAt === undefined) {
		const screenEnd = pane.screen().split('\n').filter(line => line.trim() !== '').slice(-4).join(' / ');
		result.notes.push(stalledAfter === undefined
			? `session timed out after ${Math.round(maxSessionMs(calls) / 1000)} s at call ${served}/${calls}`
			: `session stopped at call ${served}/${calls}: no model request for ${stallMs / 1000} s; the screen ended with: ${screenEnd.slice(0, 300)}`);
	} else {
		const serverMs = unionLength(steps.map(entry => [entry.arrival, entry.end]), wall(enterAt), wall(doneAt));
		result.sessionMs = doneAt - enterAt;
		result.serverMs = serverMs;
		result.wallPerCallMs = result.sessionMs / calls;
		result.overheadPerCallMs = (result.sessionMs - serverMs) / calls;
		result.sideRequests = steps.filter(entry => entry.kind === 'side').length;
		Object.assign(result, requestTokens(steps));
		if (steps.some(entry => entry.kind === 'no-shell-tool')) {
			result.notes.push('the peer offered no shell tool the server knows');
		}
	}

	await pane.settle(500, 5000);
	const sessionTo = pane.byteCount();
	result.sessionBytes = sessionTo - sessionFrom;
	result.sessionFrames = countMarkedFrames(pane.bytesFrom(sessionFrom, sessionTo));
	result.launchBytes = launchBytes;
	result.clearScreens = {launch: countClearScreens(pane.bytesFrom(0, launchBytes)), session: countClearScreens(pane.bytesFrom(sessionFrom, sessionTo))};
	result.historyAfterSession = historyShown(pane.history(), calls);

	const echo = await echoLatency(pane);
	result.echoMs = echo.medianMs;
	result.echoSamples = echo.samples;
	// bounded spread: echoKeys (10) keys.
	pane.keys(...Array.from({length: echoKeys}, () => 'BSpace'));
	await pane.settle(300, 3000);

	const programPid = session.program();
	result.quit = await quit(pane, programPid, peer.quitKeys);
	result.peakPssMb = session.pss.stop() / 1024;
	result.clearScreens.quit = countClearScreens(pane.bytesFrom(sessionTo));

	// The same method against plain bash in the same pane: the floor of the echo figure.
	try {
		await pane.waitFor('plain bash', () => pane.screen().includes(floorPrompt.trim()), {timeoutMs: 10_000});
		await sleep(300);
		const floor = await echoLatency(pane);
		result.echoFloorMs = floor.medianMs;
	} catch {
		result.notes.push('plain bash did not start after the peer quit: no echo floor');
	}

	pane.close();

	// Resume the saved session in a new window.
	const resumeName = `${peer.name}-${calls}-resume`;
	const resumed = tmux.open(resumeName, [...peer.command, ...peer.resumeArgs({model, baseUrl})], {environment, cwd, then: 'true'});
	const resumeStarted = resumed.go();
	const resumeProgram = programOf(resumed, peer.command.at(-1));
	const resumePss = samplePeakPss(resumed.shellPid());
	opened.push({pss: resumePss, pane: resumed});
	const shown = await waitForResume(resumed, marker, peer.ready, 60_000 + calls * 50);
	if (shown.markerAt !== undefined) {
		result.resumeMs = shown.markerAt - resumeStarted;
	} else if (shown.readyAt === undefined) {
		result.notes.push('resume: neither the last answer nor the prompt appeared');
	} else {
		// A resume that shows no history is timed to its prompt; "history shown" then says how much it showed.
		result.resumeMs = shown.readyAt - resumeStarted;
		result.notes.push('resume: the last answer is not on the terminal; timed to the prompt');
	}

	await resumed.settle(500, 5000);
	result.resumeBytes = resumed.byteCount();
	result.clearScreens.resume = countClearScreens(resumed.bytesFrom(0));
	result.resumeHistoryShown = historyShown(resumed.history(), calls);
	result.resumeQuit = await quit(resumed, resumeProgram(), peer.quitKeys);
	result.resumePeakPssMb = resumePss.stop() / 1024;
	resumed.close();
	return result;
}
