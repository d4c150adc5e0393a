// First token → frame (issue 14: drawn within one frame, ≤ 16 ms, of its arrival).
//   node --expose-gc bench/lib/first-token-bench.mjs [TURNS]
// A real interactive session with a model (openInteractiveSession) drawn by InteractiveApp on a
// fake 120×40 TTY. The model is a scripted ModelClient: each turn it waits a time to first token
// (cycling 0, 5, 15, 30 and 60 ms after the request, as a local or a remote server answers), hands
// over one text delta and times it until the frame that shows the delta's text is written; then
// the rest of the answer and the finish. Prints one JSON object: {firstToken: {TTFT: [ms…]}}.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import React from 'react';
import {render} from 'ink';
import {InteractiveApp} from '../../dist/components/InteractiveApp.js';
import {LIVE_MAX_FPS} from '../../dist/components/frame-pacing.js';
import {openInteractiveSession} from '../../dist/src/cli/interactive/open-interactive-session.js';
import {colorTheme} from '../../dist/src/layout/text/theme.js';
import {FakeStdin, FakeStdout, sleep} from './fake-tty.mjs';

const turns = Number(process.argv[2] ?? 50);
const delays = [0, 5, 15, 30, 60];
const work = mkdtempSync(join(tmpdir(), 'cardterm-first-token-'));
const stdout = new FakeStdout({columns: 120, rows: 40});
const stdin = new FakeStdin();
/** Set per turn: the text the delta carries and where its hand-over time goes. */
let current;
const model = {
	provider: 'bench',
	model: 'scripted',
	async * stream() {
		const turn = current;
		await sleep(turn.delay);
		yield {type: 'text-start', id: 't'};
		turn.arrived = performance.now();
		yield {type: 'text-delta', id: 't', text: turn.token};
		await turn.frame;
		yield {type: 'text-delta', id: 't', text: ' and the rest of the answer.'};
		yield {type: 'text-end', id: 't'};
		yield {type: 'finish', reason: 'stop', usage: {inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, reasoningTokens: 0}};
	},
};

const waiters = new Set();
stdout.onFrame = (frameText, at) => {
	for (const waiter of waiters) {
		if (frameText.includes(waiter.text)) {
			waiters.delete(waiter);
			waiter.resolve(at);
		}
	}
};

/** Resolves with the time the first frame holding `text` ended (the text is new: no earlier frame has it). */
function waitForText(text) {
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`no frame showed ${text} within 3 s`)), 3000);
		waiters.add({text, resolve(at) {
			clearTimeout(timer);
			resolve(at);
		}});
	});
}

const {controller} = await openInteractiveSession({root: join(work, 'sessions'), cwd: work, id: 'first-token', agent: {model, from: 'bench'}});
const instance = render(React.createElement(InteractiveApp, {model: controller, theme: colorTheme, color: true, hyperlinks: false}), {stdout, stdin, stderr: stdout, exitOnCtrlC: false, patchConsole: false, maxFps: LIVE_MAX_FPS});
await sleep(300);
const firstToken = Object.fromEntries(delays.map((delay) => [delay, []]));
for (let index = 0; index < turns + delays.length; index++) {
	const delay = delays[index % delays.length];
	const token = `tok${index}x`;
	// The frame that shows the token is the first one holding its text.
	current = {delay, token, frame: waitForText(token)};
	const done = waitForText(`${token} and the rest of the answer.`);
	controller.submit(`question ${index}`);
	const shown = await current.frame;
	await done;
	if (index >= delays.length) {
		firstToken[delay].push(shown - current.arrived);
	}

	// The turn's end settles; the next starts from a quiet screen.
	await sleep(100);
}

await controller.close();
instance.unmount();
rmSync(work, {recursive: true, force: true});
process.stdout.write(`${JSON.stringify({firstToken})}\n`);
process.exit(0);
