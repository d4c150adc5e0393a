/**
Input (issue 11, item 13): no byte string typed or pasted into the interactive session or the pager
crashes it. Ink 6.8's own `useInput` threw a TypeError on SGR sequences (`ESC [ 0 m`); the screens
parse keys with components/input/keys.ts instead. After any input a screen still answers keys.
Seeded and bounded in CI; `CARDTERM_FUZZ_CASES=N` runs more.
*/
import fc from 'fast-check';
import {asEntries} from '../../src/presentation/entry.js';
import React from 'react';
import {render} from 'ink';
import {describe, expect, it} from 'vitest';
import {arrayEntrySource} from '../../src/transcript/entry-source.js';
import {InteractiveApp} from '../../components/InteractiveApp.js';
import {Pager} from '../../components/Pager.js';
import type {LiveSnapshot, SessionModel} from '../../components/session-model.js';
import {colorTheme} from '../../src/layout/text/theme.js';
import {makeCard, text} from '../layout/fixtures.js';
import {fuzzCases, fuzzSeed, HOSTILE_FRAGMENTS} from '../reliability/hostile-text.js';
import {FakeStdin, FakeTty} from './harness/fake-terminal.js';
import {startInteractive} from './harness/interactive-screen.js';
import {startPager} from './harness/pager-screen.js';


/** The inputs the issue reports, a bracketed paste holding one among them. */
const REPORTED = ['\u001B[0m', '\u001B[31m', 'x\u001B[31mred', '\u001B[200~pasted \u001B[31mred\u001B[0m text\u001B[201~'];

const cards = Array.from({length: 5}, (_, index) => makeCard({name: 'read', callView: {card: 'generic', title: `card ${index}`}, result: {content: text(`body ${index}`)}}));

/** A session model that records submitted lines and runs nothing. */
function recordingModel(): SessionModel & {readonly submitted: string[]} {
	const snapshot: LiveSnapshot = {running: [], counts: {pending: 0, running: 0, ok: 0, failed: 0, error: 0, denied: 0, cancelled: 0, interrupted: 0}, jobsRunning: 0, queue: [], closing: false};
	const submitted: string[] = [];
	return {
		submitted,
		cwd: '/home/u/proj',
		sessionId: 'fuzz',
		subscribe: () => () => undefined,
		getSnapshot: () => snapshot,
		onScrollback: () => () => undefined,
		pagerSource: async () => arrayEntrySource(asEntries(cards)),
		submit(line) {
			submitted.push(line);
		},
		cancel: () => false,
		answerApproval: () => undefined,
		complete: async () => [],
		history: [],
		close: async () => undefined,
	};
}

/** Input as a terminal delivers it: bytes decoded as UTF-8 (invalid bytes become U+FFFD) or read as Latin-1 (C1 controls). */
/** Any CSI sequence: parameters, intermediates and a final byte of ECMA-48's ranges, 7- or 8-bit. */
const csi = fc.tuple(fc.constantFrom('\u001B[', '\u009B'), fc.string({unit: fc.constantFrom('0', '1', '3', '5', '6', '9', ';', ':', '?', '<', '>', '['), maxLength: 6}), fc.string({unit: fc.constantFrom(' ', '!', '$'), maxLength: 1}), fc.integer({min: 0x40, max: 0x7e}))
	.map(([introducer, parameters, intermediates, final]) => `${introducer}${parameters}${intermediates}${String.fromCharCode(final)}`);

const chunk = fc.oneof(
	fc.tuple(fc.uint8Array({maxLength: 48}), fc.boolean()).map(([bytes, utf8]) => Buffer.from(bytes).toString(utf8 ? 'utf8' : 'latin1')),
	fc.array(fc.oneof(csi, fc.string({maxLength: 3})), {minLength: 1, maxLength: 6}).map(parts => parts.join('')),
	fc.array(fc.constantFrom(...HOSTILE_FRAGMENTS, '\u001B[A', '\u001B[1;5C', '\u001B[3~', '\u001BOH', '\u001B[200~', '\u001B[201~', '\u001B[<0;3;4M', '\u001B[97;5u', 'j', 'k', '/'), {maxLength: 8}).map(parts => parts.join('')),
);

const chunks = fc.array(chunk, {minLength: 1, maxLength: 4});

/** Poll until `condition` holds (bounded generously: a stuck screen fails, a slow machine does not). */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
	const started = Date.now();
	while (!condition()) {
		if (Date.now() - started > timeoutMs) {
			throw new Error('the screen never got there');
		}

		// polling for a condition
		await new Promise(resolve => {
			setTimeout(resolve, 20);
		});
	}
}

function renderScreen(element: React.ReactElement): {tty: FakeTty; stdin: FakeStdin; exited: () => boolean; unmount: () => void} {
	const tty = new FakeTty(60, 16);
	const stdin = new FakeStdin();
	let exited = false;
	const instance = render(element, {stdout: tty as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, stderr: tty as unknown as NodeJS.WriteStream, exitOnCtrlC: false, patchConsole: false});
	void instance.waitUntilExit().then(() => {
		exited = true;
	});
	return {tty, stdin, exited: () => exited, unmount: () => instance.unmount()};
}

/** Polls `condition` until it holds or `timeoutMs` passes. */
async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
	const started = Date.now();
	while (!condition() && Date.now() - started < timeoutMs) {
		// polling for a condition
		await new Promise(resolve => {
			setTimeout(resolve, 20);
		});
	}
}

describe('the pager under hostile input', () => {
	it('takes the reported SGR sequences and pastes without crashing, and keeps answering keys', async () => {
		const screen = await startPager(arrayEntrySource(asEntries(cards)), {columns: 60, rows: 16});
		try {
			for (const input of REPORTED) {
				// keys in order
				await screen.press(input);
				// keys in order
				await screen.press('g');
				// A paste is taken one key per render: wait for its last key's effect, not for a quiet moment.
				// keys in order
				await screen.tty.waitForText('1/5 · ');
				// keys in order
				await screen.press('G');
				// keys in order
				await screen.tty.waitForText('5/5 · ');
			}
		} finally {
			await screen.close();
		}
	});

	it('handles several keys of one chunk in turn, each seeing what the ones before it did', async () => {
		const screen = await startPager(arrayEntrySource(asEntries(cards)), {columns: 60, rows: 16});
		try {
			await screen.press('g/body 2\r');
			await screen.tty.waitForText('3/5 · ');
			await screen.press('\u001B[B\u001B[Bk');
			await screen.tty.waitForText('4/5 · ');
		} finally {
			await screen.close();
		}
	});

	it('takes a hostile paste into the search as text: its escapes never reach the terminal, a 100 000-character query is cut to the width, and the search still wraps', async () => {
		const screen = await startPager(arrayEntrySource(asEntries(cards)), {columns: 60, rows: 16});
		try {
			const hostile = 'body\u001B]0;owned\u0007\u001B[2J\u202Eevil';
			await screen.press('/');
			const before = screen.tty.bytes.length;
			await screen.press(`\u001B[200~${hostile}${'x'.repeat(100_000)}\u001B[201~`);
			await screen.press('\r');
			await screen.tty.waitForText('no match for "body');
			const written = screen.tty.bytes.slice(before);
			for (const sequence of ['\u001B]0;', '\u0007', '\u001B[2J', '\u202E']) {
				expect(written.includes(sequence), JSON.stringify(sequence)).toBe(false);
			}

			expect(Math.max(...screen.tty.text().split('\n').map(row => row.trimEnd().length))).toBeLessThanOrEqual(60);
			// The pager still answers, and a plain query goes round the end from the newest card.
			await screen.press('/body 1\r');
			await screen.tty.waitForText('2/5 · match 1/1 · search wrapped');
		} finally {
			await screen.close();
		}
	});

	it('survives any byte strings and still quits on q', async () => {
		await fc.assert(fc.asyncProperty(chunks, async inputs => {
			let quit = false;
			const screen = renderScreen(<Pager source={arrayEntrySource(asEntries(cards))} theme={colorTheme} title="fuzz" now={() => 0} onExit={() => {
				quit = true;
			}} />);
			try {
				await screen.tty.settle();
				for (const input of inputs) {
					screen.stdin.send(input);
					// keys in order
					await screen.tty.settle();
				}

				if (!quit) {
					// Enter ends a search being typed (or expands a card); then q quits. Keys queued before
					// them are taken first, one per render: wait for the quit, not for a quiet moment.
					screen.stdin.send('\r');
					screen.stdin.send('q');
					await waitUntil(() => quit, 10_000);
				}

				expect(quit).toBe(true);
			} finally {
				screen.unmount();
			}
		}), {numRuns: fuzzCases(12), seed: fuzzSeed()});
	// Twelve screens of a few renders each: a hang detector generous enough for a loaded machine.
	}, 60_000);
});

describe('the interactive session under hostile input', () => {
	it('takes the reported SGR sequences and pastes without crashing, typing only their text', async () => {
		const screen = await startInteractive('hostile-keys', {columns: 60, rows: 16});
		try {
			for (const input of REPORTED) {
				// keys in order
				await screen.press(input);
			}

			expect(screen.tty.text()).toContain('> xredpasted red text');
			await screen.press('\u0015');
			await screen.type('/help', 'Ctrl+O');
		} finally {
			await screen.close();
		}
	});

	it('survives any byte strings and still submits a typed line', async () => {
		await fc.assert(fc.asyncProperty(chunks, async inputs => {
			const model = recordingModel();
			const screen = renderScreen(<InteractiveApp model={model} theme={colorTheme} color hyperlinks={false} now={() => 0} />);
			try {
				await screen.tty.settle();
				for (const input of inputs) {
					screen.stdin.send(input);
					// keys in order
					await screen.tty.settle();
				}

				if (screen.tty.text().includes('session fuzz')) {
					// The input opened the pager (Ctrl+O): leave it, and wait until the prompt is back.
					screen.stdin.send('\r');
					screen.stdin.send('q');
					await until(() => !screen.tty.text().includes('session fuzz'));
					await screen.tty.settle();
				}

				screen.stdin.send('zz\r');
				await screen.tty.settle();
				expect(screen.exited()).toBe(false);
				expect(model.submitted.at(-1)?.endsWith('zz')).toBe(true);
			} finally {
				screen.unmount();
			}
		}), {numRuns: fuzzCases(12), seed: fuzzSeed()});
	// Twelve screens of a few renders each: a hang detector generous enough for a loaded machine.
	}, 60_000);
});
