// The pager (components/Pager.tsx) driven headless in a child process with a fake 120×40 TTY.
//   node bench/lib/pager-bench.mjs first-frame LOG   — as `cardterm replay LOG` on a terminal
//   node bench/lib/pager-bench.mjs steps N1,N2,… [REPEATS] — key-step costs over N cards, sizes interleaved
// Prints one JSON object per line on stdout.
import React from 'react';
import {asEntries, cardsOf} from '../../dist/src/presentation/entry.js';
import {render} from 'ink';
import stripAnsi from 'strip-ansi';
import {Pager} from '../../dist/components/Pager.js';
import {arrayEntrySource} from '../../dist/src/transcript/entry-source.js';
import {openIndexedEntrySource} from '../../dist/src/transcript/indexed-entry-source.js';
import {referencePresenters} from '../../dist/src/acp/reference-presenters.js';
import {colorTheme} from '../../dist/src/layout/text/theme.js';
import {cycleCards, foldCards} from './cards.mjs';
import {FakeStdin, FakeStdout, sleep} from './fake-tty.mjs';

const importedAt = performance.now();
const [mode, argument, repeatsText = '12'] = process.argv.slice(2);
const repeats = Number(repeatsText);
const cardRows = 40 - 2;
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** A frame whose card area is filled: every card row of the viewport drawn, none blank. */
function isFullFrame(text) {
	const rows = stripAnsi(text).split('\n');
	const drawn = rows.filter((row) => row.trim() !== '').length;
	return drawn >= cardRows;
}

if (mode === 'first-frame') {
	const stdout = new FakeStdout({columns: 120, rows: 40});
	const stdin = new FakeStdin();
	// Same construction as src/cli/pager/pager-command.tsx (openPagerOnLog) for a saved plain log: the
	// lazy card index, tail window first, with the fake terminal.
	const cards = await openIndexedEntrySource(argument, {presenters: (header) => referencePresenters(header.cwd ?? process.cwd())});
	let first;
	stdout.onFrame = (text, at) => {
		if (first === undefined && isFullFrame(text)) {
			first = {at, epoch: Date.now()};
		}
	};

	const instance = render(React.createElement(Pager, {source: cards, theme: colorTheme, title: 'bench', onExit() {}}), {stdout, stdin, stderr: stdout, exitOnCtrlC: false, patchConsole: false});
	await cards.ready;
	const indexedAt = performance.now();
	const indexedEpoch = Date.now();
	await sleep(150);
	instance.unmount();
	print({mode, importedAt, firstFrameAt: first?.at ?? null, firstFrameEpoch: first?.epoch ?? null, indexedAt, indexedEpoch, cards: cards.count(), maxRssMb: process.resourceUsage().maxRSS / 1024});
	process.exit(0);
}

if (mode === 'steps') {
	// One Pager per size, each on its own fake terminal, in one process; the sizes take turns key by
	// key so every size sees the same JIT state and the same machine load.
	const counts = argument.split(',').map(Number);
	const real = cardsOf(foldCards({count: Math.min(Math.max(...counts), 10_000)}).entries).filter((card) => card.status !== 'running');
	const pagers = counts.map((count) => {
		const terminal = {count, stdout: new FakeStdout({columns: 120, rows: 40}), stdin: new FakeStdin()};
		terminal.instance = render(React.createElement(Pager, {source: arrayEntrySource(asEntries(cycleCards(real, count))), theme: colorTheme, title: 'bench', start: 'start', onExit() {}}), {stdout: terminal.stdout, stdin: terminal.stdin, stderr: terminal.stdout, exitOnCtrlC: false, patchConsole: false});
		return terminal;
	});
	await sleep(300);
	const spacing = 45;
	/** Time from the key to the frame it causes; `undefined` when no frame came. */
	const step = async (terminal, key) => {
		const next = terminal.stdout.nextFrame(2000);
		const started = performance.now();
		terminal.stdin.press(key);
		const written = await next;
		await sleep(spacing);
		return written === undefined ? undefined : {ms: written.at - started, bytes: written.bytes};
	};

	const run = async (kind, keys) => {
		const samples = new Map(counts.map((count) => [count, []]));
		for (let index = 0; index < repeats; index++) {
			for (const key of keys) {
				for (const terminal of pagers) {
					const result = await step(terminal, key);
					// The first round warms up and is discarded.
					if (result !== undefined && index >= 1) {
						samples.get(terminal.count).push(result.ms);
					}
				}
			}
		}

		for (const [count, values] of samples) {
			print({mode, count, kind, samples: values});
		}
	};

	const all = async (keys) => {
		for (const key of keys) {
			for (const terminal of pagers) {
				await step(terminal, key);
			}
		}
	};

	// Move into the middle so every key has somewhere to go.
	await all(['G']);
	await run('jump', ['g', 'G']);
	await run('line', ['j', 'k']);
	await run('page', ['\u001b[6~', '\u001b[5~']);
	// A query with several matches at every size: n and N always move (a lone match, found round the
	// end, gives no new frame to time).
	await all([...'/git', '\r']);
	await run('search-next', ['n', 'N']);
	await run('next-failure', ['e', 'E']);
	for (const terminal of pagers) {
		terminal.instance.unmount();
	}

	process.exit(0);
}

console.error(`pager-bench: unknown mode ${mode}`);
process.exit(2);
