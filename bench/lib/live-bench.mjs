// The live app (components/InteractiveApp.tsx) driven headless with a fake 120×40 TTY.
//   node --expose-gc bench/lib/live-bench.mjs N1,N2
// One app per N, each on its own fake terminal. N settled cards go to its scrollback (as a live
// session commits them), then 3 running cards tick, the apps taking turns. Prints one JSON object:
// per-tick time and bytes per app, per-commit time, layout+render time of a fresh card, and RSS
// before and after the cards.
import React from 'react';
import {cardsOf} from '../../dist/src/presentation/entry.js';
import {render} from 'ink';
import {InteractiveApp} from '../../dist/components/InteractiveApp.js';
import {LIVE_MAX_FPS} from '../../dist/components/frame-pacing.js';
import {layoutCard} from '../../dist/src/layout/cards/layout-card.js';
import {renderLines} from '../../dist/src/layout/terminal/render-lines.js';
import {colorTheme} from '../../dist/src/layout/text/theme.js';
import {foldCards} from './cards.mjs';
import {FakeStdin, FakeStdout, sleep} from './fake-tty.mjs';

const NOW = 1_790_000_000_000;
const gc = globalThis.gc ?? (() => {});
const rssMb = () => process.memoryUsage().rss / 1_048_576;

/** A minimal SessionModel: the benchmark plays the session controller. */
function benchModel() {
	const listeners = new Set();
	let scrollback;
	let snapshot = {running: [], counts: {pending: 0, running: 0, ok: 0, failed: 0, error: 0, denied: 0, cancelled: 0, interrupted: 0}, jobsRunning: 0, queue: [], closing: false};
	let cards = [];
	return {
		cwd: '/home/u/proj',
		sessionId: 'bench',
		history: [],
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		getSnapshot: () => snapshot,
		onScrollback(listener) {
			scrollback = listener;
			return () => {
				scrollback = undefined;
			};
		},
		pagerSource: async () => ({count: () => cards.length, card: (index) => cards[index], complete: () => true}),
		submit() {},
		cancel: () => false,
		answerApproval() {},
		complete: async () => [],
		close: async () => {},
		// Benchmark controls.
		setCards(value) {
			cards = value;
		},
		commit(card) {
			scrollback?.({kind: 'entry', entry: {entry: 'card', card}});
		},
		setRunning(running) {
			snapshot = {...snapshot, running, counts: {...snapshot.counts, running: running.length}};
			for (const listener of listeners) {
				listener();
			}
		},
	};
}

const counts = process.argv[2].split(',').map(Number);
const apps = counts.map((count) => {
	const app = {count, model: benchModel(), stdout: new FakeStdout({columns: 120, rows: 40}), stdin: new FakeStdin(), commits: []};
	app.instance = render(React.createElement(InteractiveApp, {model: app.model, theme: colorTheme, color: true, hyperlinks: false, now: () => NOW}), {stdout: app.stdout, stdin: app.stdin, stderr: app.stdout, exitOnCtrlC: false, patchConsole: false, maxFps: LIVE_MAX_FPS});
	// An app that fails to render (a snapshot this bench builds out of date) exits: the bench stops
	// with its error instead of timing frames that never come.
	app.instance.waitUntilExit().catch((error) => {
		process.stderr.write(`live-bench: the app for N=${count} exited: ${error?.stack ?? error}\n`);
		process.exit(1);
	});
	return app;
});
const largest = apps.at(-1);
await sleep(200);
gc();
const rssBefore = rssMb();

// Settled cards, committed to each app's scrollback one by one (each is one synchronous write).
let settledCount = 0;
const fold = foldCards({count: largest.count, onSettled(card, folding) {
	for (const app of apps) {
		if (settledCount < app.count) {
			const started = performance.now();
			app.model.commit(card);
			app.commits.push(performance.now() - started);
		}
	}

	settledCount++;
	// As the interactive session does with a healthy log: a card written to the scrollback leaves
	// memory (Ctrl+O's pager reads it back from the log). The last 200 stay, for the samples below.
	if (settledCount <= largest.count - 200) {
		folding.releaseSeq(card.seq);
	}
}});

await sleep(100);
gc();
const rssAfter = rssMb();
const heapAfter = process.memoryUsage().heapUsed / 1_048_576;
const maxRss = process.resourceUsage().maxRSS / 1024;

// Layout + renderLines of a card never laid out before (what a commit costs before Ink's write).
const settle = [];
const sample = cardsOf(fold.entries).filter((card) => card.status !== 'running').slice(-200);
for (const [index, card] of sample.entries()) {
	const fresh = {...card, callId: `${card.callId}#settle${index}`};
	const started = performance.now();
	renderLines(layoutCard(fresh, {width: 120, theme: colorTheme, now: NOW, sessionCwd: '/home/u/proj'}), {color: true, hyperlinks: false, width: 120});
	settle.push(performance.now() - started);
}

// Three running bash cards whose live output grows by one line per tick.
const template = cardsOf(fold.entries).find((card) => card.name === 'bash' && card.callView.card === 'terminal') ?? cardsOf(fold.entries)[0];
const running = (tick) => [0, 1, 2].map((k) => ({
	...template,
	callId: `live-${k}`,
	status: 'running',
	result: null,
	resultView: null,
	resultTime: null,
	outcome: 'running',
	callTime: NOW - 5000,
	progress: {text: Array.from({length: 4 + (tick % 20)}, (_, line) => `live ${k} line ${line} tick ${tick}`).join('\n'), truncated: false},
	revision: tick + 1,
}));
for (const app of apps) {
	app.model.setRunning(running(0));
	app.ticks = [];
	app.tickBytes = [];
}

await sleep(200);
// The apps take turns tick by tick, so both see the same JIT state and machine load.
for (let tick = 1; tick <= 45; tick++) {
	for (const app of apps) {
		const next = app.stdout.nextFrame(2000);
		const started = performance.now();
		app.model.setRunning(running(tick));
		const written = await next;
		if (written !== undefined && tick > 5) {
			app.ticks.push(written.at - started);
			app.tickBytes.push(written.bytes);
		}

		await sleep(45);
	}
}

// A card settling while 3 run: the CPU from the commit to the frame that writes it (layout,
// renderLines, Ink's write with the live region redrawn). The scrollback waits for a paced frame, so
// wall time would count that wait; CPU time counts the work.
const cpuMs = () => {
	const {user, system} = process.cpuUsage();
	return (user + system) / 1000;
};
const liveCommits = [];
for (const [index, card] of sample.slice(0, 60).entries()) {
	const fresh = {...card, callId: `${card.callId}#live${index}`};
	const next = largest.stdout.nextFrame(2000);
	const started = cpuMs();
	largest.model.commit(fresh);
	const written = await next;
	if (written !== undefined && index > 5) {
		liveCommits.push(cpuMs() - started);
	}

	await sleep(40);
}

for (const app of apps) {
	app.instance.unmount();
}

const perApp = Object.fromEntries(apps.map((app) => [app.count, {ticks: app.ticks, tickBytes: app.tickBytes, commits: app.commits.slice(5), scrollbackBytes: app.stdout.bytes}]));
// Exit once the line is written: into a pipe, a long line is still being written when write returns.
process.stdout.write(`${JSON.stringify({counts, cards: cardsOf(fold.entries).length, rssBefore, rssAfter, heapAfter, maxRss, settle, liveCommits, apps: perApp})}\n`, () => {
	process.exit(0);
});
