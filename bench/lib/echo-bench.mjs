// Keystroke echo of the live session after N settled calls (issue 14: after 2 000 ≤ 1.2× after 20).
//   node --expose-gc bench/lib/echo-bench.mjs N1,N2 [KEYS]
// One real interactive session per N (openInteractiveSession: tools, log, controller) drawn by
// InteractiveApp on its own fake 120×40 TTY. Each runs N tool calls to the end (each a card in its
// scrollback, as a person's session commits them), then the sessions take turns: a key is pressed
// and timed until the frame that shows it is written; Backspace takes it away again (not timed).
// Prints one JSON object: {echo: {N: [ms…]}, settled: {N: cards}}.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import React from 'react';
import {render} from 'ink';
import {InteractiveApp} from '../../dist/components/InteractiveApp.js';
import {LIVE_MAX_FPS} from '../../dist/components/frame-pacing.js';
import {openInteractiveSession} from '../../dist/src/cli/interactive/open-interactive-session.js';
import {colorTheme} from '../../dist/src/layout/text/theme.js';
import {defineTool} from '../../dist/src/tools/define-tool.js';
import {FakeStdin, FakeStdout, sleep} from './fake-tty.mjs';

const counts = process.argv[2].split(',').map(Number);
const keys = Number(process.argv[3] ?? 40);
const gc = globalThis.gc ?? (() => {});
const work = mkdtempSync(join(tmpdir(), 'cardterm-echo-'));
// A call as cheap as a call can be: the session's own cost per card is what grows, not the tool's.
const echo = defineTool({
	name: 'echo_back',
	description: 'Echo.',
	parameters: {text: {type: 'string', required: true}},
	output: {schema: {type: 'string'}, render: (_args, value) => [{type: 'text', text: value}]},
	execute: async (args) => args.text,
});

const sessions = [];
for (const count of counts) {
	const cwd = join(work, `w${count}`);
	const {controller, session} = await openInteractiveSession({root: join(work, 'sessions'), cwd: work, id: `echo-${count}`, extraTools: [echo], agent: {none: 'no model (bench)'}});
	const stdout = new FakeStdout({columns: 120, rows: 40});
	const stdin = new FakeStdin();
	const instance = render(React.createElement(InteractiveApp, {model: controller, theme: colorTheme, color: true, hyperlinks: false}), {stdout, stdin, stderr: stdout, exitOnCtrlC: false, patchConsole: false, maxFps: LIVE_MAX_FPS});
	const signal = new AbortController().signal;
	for (let index = 0; index < count; index++) {
		await session.runtime.runCall('echo_back', {text: `line-${index}`}, {signal});
	}

	sessions.push({count, cwd, controller, stdout, stdin, instance, echo: []});
}

await sleep(300);
gc();
// A frame that shows `text` typed into the empty prompt.
const shows = (frame, text) => frame !== undefined && frame.text.includes(`> ${text}`);
for (let round = 0; round < keys + 5; round++) {
	for (const app of sessions) {
		const started = performance.now();
		const next = app.stdout.nextFrame(2000);
		app.stdin.press('z');
		const frame = await next;
		if (!shows(frame, 'z')) {
			throw new Error(`N=${app.count}: the frame after a key did not show it: ${JSON.stringify(frame?.text.slice(-200))}`);
		}

		if (round >= 5) {
			app.echo.push(frame.at - started);
		}

		// Away again, and past Ink's frame throttle, so each timed key starts from a quiet screen.
		const erased = app.stdout.nextFrame(2000);
		app.stdin.press('\u007F');
		await erased;
		await sleep(60);
	}
}

const result = {echo: {}, settled: {}};
for (const app of sessions) {
	result.echo[app.count] = app.echo;
	result.settled[app.count] = app.controller.getSnapshot().counts.ok;
	await app.controller.close();
	app.instance.unmount();
}

rmSync(work, {recursive: true, force: true});
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
