// Streaming chunks of an ACP agent reach the screen within one frame (issue 15).
//   npm run build && node bench/acp-chunk-latency.mjs [--chunks N] [--every MS]
// The live ACP app (the controller and components/InteractiveApp.tsx) runs in-process on a fake
// 120×40 TTY, with the scripted agent over stdio streaming N message chunks `tick<i>z` (no hyphen: a row may wrap there), one every MS
// ms. A chunk is "in" when cardterm reads its line from the agent (the frame trace's hook) and
// "out" at the end of the first frame whose text shows it. The floor is the same chunks handed to
// the mapping in-process (no agent, no pipe), in the same app and run; the target is absolute: p95
// within one frame of Ink's render throttle (32 ms). Prints one JSON figure.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import React from 'react';
import {render} from 'ink';
import {InteractiveApp} from '../dist/components/InteractiveApp.js';
import {acpLiveSession} from '../dist/src/live/acp-driver.js';
import {openAcpSession} from '../dist/src/host/open-acp-session.js';
import {colorTheme} from '../dist/src/layout/text/theme.js';
import {FakeStdin, FakeStdout} from './lib/fake-tty.mjs';
import {figure} from './lib/stats.mjs';

const {values} = parseArgs({options: {chunks: {type: 'string', default: '60'}, every: {type: 'string', default: '40'}}});
const chunks = Number(values.chunks);
/** Ink's render throttle: a change waits at most this long for its frame. */
const FRAME_MS = 32;
const agent = join(import.meta.dirname, '..', 'test', 'acp', 'fake-agent.mjs');
const work = mkdtempSync(join(tmpdir(), 'cardterm-bench-acp-latency-'));
writeFileSync(join(work, 'notes.md'), '# Notes\n');
// eslint-disable-next-line no-control-regex
const stripAnsi = text => text.replaceAll(/\u001B\[[0-9;?]*[A-Za-z]|\u001B\][^\u0007]*\u0007/g, '');

const arrived = new Map();
/** Ticks of the floor (handed to the mapping in-process). */
const native = new Set();
const shown = new Map();
const trace = {
	frame(direction, line) {
		const tick = direction === 'in' ? /"text":"tick(\d+)z "/.exec(line) : null;
		if (tick !== null) {
			arrived.set(Number(tick[1]), performance.now());
		}
	},
	async close() {},
};

const stdout = new FakeStdout({columns: 120, rows: 40});
stdout.onFrame = (text, at) => {
	const plain = stripAnsi(text);
	for (const [tick] of arrived) {
		if (!shown.has(tick) && plain.includes(`tick${tick}z`)) {
			shown.set(tick, at);
		}
	}
};

let controller;
const acp = await openAcpSession({command: process.execPath, args: [agent], cwd: work, id: 'latency', yolo: true, trace});
try {
	const {session, client} = acp;
	controller = acpLiveSession(acp, work);
	const instance = render(React.createElement(InteractiveApp, {model: controller, theme: colorTheme, color: true, hyperlinks: false}), {stdout, stdin: new FakeStdin(), stderr: stdout, exitOnCtrlC: false, patchConsole: false});
	const turnEnded = new Promise(resolve => {
		const stop = session.log.listen(event => {
			if (event.type === 'turn/end') {
				stop();
				resolve();
			}
		});
	});
	controller.submit(`stream ${chunks} ${values.every}`);
	await turnEnded;
	// The last chunk's frame may still be due.
	await stdout.nextFrame(500);
	// The floor, in the same app: the same chunks handed to the mapping in-process (no agent, no pipe).
	client.events.startTurn('native');
	for (let index = 1; index <= chunks; index++) {
		await new Promise(resolve => {
			setTimeout(resolve, Number(values.every));
		});
		const tick = chunks + index;
		arrived.set(tick, performance.now());
		native.add(tick);
		client.events.update({sessionUpdate: 'agent_message_chunk', content: {type: 'text', text: `tick${tick}z `}});
	}

	await stdout.nextFrame(500);
	client.events.endTurn({stopReason: 'end_turn'});
	instance.unmount();
	await controller.close();
} finally {
	await acp.close();
	rmSync(work, {recursive: true, force: true});
}

const latencies = [];
const floor = [];
let missing = 0;
for (const [tick, at] of arrived) {
	const out = shown.get(tick);
	if (out === undefined) {
		missing++;
	} else {
		(native.has(tick) ? floor : latencies).push(out - at);
	}
}

// The target is absolute: a chunk is on screen within one frame of Ink's throttle (p95).
const met = value => value.p95 !== null && value.p95 <= FRAME_MS && missing === 0;
process.stdout.write(`${JSON.stringify({...figure(`acp message chunk in → frame out (${chunks} chunks, one per ${values.every} ms; floor: the same chunks handed to the mapping in-process)`, latencies, {unit: 'ms', floor, target: `p95 ≤ one frame (${FRAME_MS} ms)`, met}), notShown: missing})}\n`);
