// The live app (components/InteractiveApp.tsx) driven headless with a fake 120×40 TTY.
//   node --expose-gc bench/lib/live-bench.mjs N
// N settled cards go to scrollback through the app (as a live session commits them), then 3 running
// cards tick. Prints one JSON object: per-tick time and bytes, per-commit time, layout+render time
// of a fresh card, and RSS before and after the N cards.
import React from 'react';
import {render} from 'ink';
import {InteractiveApp} from '../../dist/components/InteractiveApp.js';
import {layoutCard} from '../../dist/src/layout/layout-card.js';
import {renderLines} from '../../dist/src/layout/render-lines.js';
import {colorTheme} from '../../dist/src/layout/theme.js';
import {foldCards} from './cards.mjs';
import {FakeStdin, FakeStdout, sleep} from './fake-tty.mjs';

const count = Number(process.argv[2]);
const stdout = new FakeStdout({columns: 120, rows: 40});
const stdin = new FakeStdin();
const NOW = 1_790_000_000_000;
const gc = globalThis.gc ?? (() => {});
const rssMb = () => process.memoryUsage().rss / 1_048_576;

/** A minimal SessionModel: the benchmark plays the session controller. */
function benchModel() {
	const listeners = new Set();
	let scrollback;
	let snapshot = {running: [], counts: {running: 0, ok: 0, error: 0, cancelled: 0, interrupted: 0}, jobsRunning: 0, queued: 0, closing: false};
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
		cards: () => cards,
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
			scrollback?.({kind: 'card', card});
		},
		setRunning(running) {
			snapshot = {...snapshot, running, counts: {...snapshot.counts, running: running.length}};
			for (const listener of listeners) {
				listener();
			}
		},
	};
}

const model = benchModel();
const instance = render(React.createElement(InteractiveApp, {model, theme: colorTheme, color: true, hyperlinks: false, now: () => NOW}), {stdout, stdin, stderr: stdout, exitOnCtrlC: false, patchConsole: false});
await sleep(200);
gc();
const rssBefore = rssMb();

// N settled cards, committed to scrollback one by one (each is one synchronous write).
const commits = [];
let committed = 0;
const fold = foldCards({count, onSettled(card) {
	const started = performance.now();
	model.commit(card);
	commits.push(performance.now() - started);
	committed++;
}});
model.setCards(fold.cards);
await sleep(100);
gc();
const rssAfter = rssMb();
const maxRss = process.resourceUsage().maxRSS / 1024;

// Layout + renderLines of a card never laid out before (what a commit costs before Ink's write).
const settle = [];
const sample = fold.cards.filter((card) => card.status !== 'running').slice(-200);
for (const [index, card] of sample.entries()) {
	const fresh = {...card, callId: `${card.callId}#settle${index}`};
	const started = performance.now();
	renderLines(layoutCard(fresh, {width: 120, theme: colorTheme, now: NOW, sessionCwd: '/home/u/proj'}), {color: true, hyperlinks: false, width: 120});
	settle.push(performance.now() - started);
}

// Three running bash cards whose live output grows by one line per tick.
const template = fold.cards.find((card) => card.name === 'bash' && card.callView.card === 'terminal') ?? fold.cards[0];
const running = (tick) => [0, 1, 2].map((k) => ({
	...template,
	callId: `live-${k}`,
	status: 'running',
	result: null,
	resultView: null,
	resultTime: null,
	failedExit: false,
	callTime: NOW - 5000,
	progress: {text: Array.from({length: 4 + (tick % 20)}, (_, line) => `live ${k} line ${line} tick ${tick}`).join('\n'), truncated: false},
	revision: tick + 1,
}));
model.setRunning(running(0));
await sleep(200);
const ticks = [];
const tickBytes = [];
for (let tick = 1; tick <= 45; tick++) {
	const next = stdout.nextFrame(2000);
	const started = performance.now();
	model.setRunning(running(tick));
	const written = await next;
	if (written !== undefined && tick > 5) {
		ticks.push(written.at - started);
		tickBytes.push(written.bytes);
	}

	await sleep(50);
}

// A card settling while 3 run: the synchronous commit (layout, renderLines, Ink's write with the live region redrawn).
const liveCommits = [];
for (const [index, card] of sample.slice(0, 60).entries()) {
	const fresh = {...card, callId: `${card.callId}#live${index}`};
	const started = performance.now();
	model.commit(fresh);
	liveCommits.push(performance.now() - started);
	await sleep(5);
}

instance.unmount();
process.stdout.write(`${JSON.stringify({count, committed, cards: fold.cards.length, rssBefore, rssAfter, maxRss, ticks, tickBytes, commits: commits.slice(5), settle, liveCommits, scrollbackBytes: stdout.bytes})}\n`);
process.exit(0);
