import {describe, expect, it, vi} from 'vitest';
import {asEntries, cardsOf} from '../../src/presentation/entry.js';

vi.hoisted(() => {
	process.env.FORCE_COLOR = '1';
});

const React = (await import('react')).default;
const {render} = await import('ink');
const {InteractiveApp} = await import('../../components/InteractiveApp.js');
const {colorTheme} = await import('../../src/layout/text/theme.js');
const {arrayEntrySource} = await import('../../src/transcript/entry-source.js');
const {erasedFrameHeights, screenClears} = await import('./harness/byte-stream.js');
const {FakeStdin, FakeTty, keys} = await import('./harness/fake-terminal.js');
const {FROZEN_NOW, startInteractive} = await import('./harness/interactive-screen.js');
type Card = import('../../src/presentation/card.js').Card;
type SessionModel = import('../../components/session-model.js').SessionModel;
type ScrollbackEntry = import('../../components/session-model.js').ScrollbackEntry;

describe('the live transcript byte stream', () => {
	it('never clears the screen or the scrollback, and no frame reaches the terminal height, through a whole session', async () => {
		const rows = 12;
		const screen = await startInteractive('bytes', {columns: 60, rows});
		try {
			await screen.type('!seq 1 40', '● bash');
			await screen.type('!seq 1 40; sleep 30', '40');
			await screen.press(keys.ctrlC);
			await screen.tty.waitForText('⊘ 1 cancelled');
			await screen.type('/help', 'Commands');
			await screen.press(keys.ctrlO);
			screen.tty.resize(60, 11);
			await screen.tty.settle();
			await screen.press('G');
			await screen.press('q');
			screen.tty.resize(40, 10);
			await screen.tty.settle();
			await screen.type('!seq 1 30; sleep 30', '30');
			screen.tty.resize(30, 8);
			await screen.tty.settle();
			await screen.press(keys.ctrlC);
			// At 30 columns the status line keeps where the session is, not the tally: the card says it.
			await screen.tty.waitForText('⊘ bash seq 1 30');
			// One more frame so the last one is measured by its erase.
			await screen.press('x');
			const bytes = screen.tty.bytes;
			expect(screenClears(bytes)).toEqual([]);
			const heights = erasedFrameHeights(bytes);
			expect(heights.length).toBeGreaterThan(10);
			// Frames are measured at the size they were drawn for; the smallest terminal was 8 rows.
			expect(heights.filter(height => height >= rows)).toEqual([]);
		} finally {
			await screen.close();
		}
	});

	it('writes the same bytes for an elapsed-time tick with 10 or 1 000 settled cards above', async () => {
		const {settled, running} = await sampleCards();
		const at10 = await tickBytes(settled, running, 10);
		const at1000 = await tickBytes(settled, running, 1000);
		expect(at10.bytes).toBeLessThan(2048);
		// Only the tally's digits differ ("● 10 ok" against "● 1000 ok").
		expect(at1000.bytes - at10.bytes).toBeLessThanOrEqual(2);
		expect(at1000.text.replace('1000', '10')).toEqual(at10.text);
	});
});

/** A settled card and a running card from a real session. */
async function sampleCards(): Promise<{settled: Card; running: Card}> {
	const screen = await startInteractive('tick-sample', {columns: 80, rows: 24});
	try {
		await screen.type('!echo settled', '● bash');
		await screen.type('!printf "live\\n"; sleep 30', 'live');
		const settled = cardsOf(screen.controller.entries())[0]!;
		const running = screen.controller.getSnapshot().running[0]!;
		await screen.press(keys.ctrlC);
		await screen.tty.waitForText('cancelled');
		return {settled, running};
	} finally {
		await screen.close();
	}
}

/** Bytes of the one frame an elapsed-time tick draws, with `count` settled cards written before it. */
async function tickBytes(settled: Card, running: Card, count: number): Promise<{bytes: number; text: string}> {
	let time = FROZEN_NOW;
	const listeners = new Set<() => void>();
	const snapshot = {
		running: [running],
		counts: {pending: 0, running: 1, ok: count, failed: 0, error: 0, denied: 0, cancelled: 0, interrupted: 0},
		jobsRunning: 0,
		queue: [],
		closing: false,
	};
	const model: SessionModel = {
		cwd: '/work/project',
		sessionId: 'tick',
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		getSnapshot: () => snapshot,
		onScrollback(listener: (entry: ScrollbackEntry) => void) {
			for (let index = 0; index < count; index++) {
				listener({kind: 'entry', entry: {entry: 'card', card: settled}});
			}

			return () => undefined;
		},
		pagerSource: async () => arrayEntrySource(asEntries(Array.from({length: count}, () => settled))),
		submit() {},
		cancel: () => false,
		answerApproval() {},
		complete: async () => [],
		history: [],
		close: async () => undefined,
	};
	const tty = new FakeTty(80, 24);
	const stdin = new FakeStdin();
	const instance = render(React.createElement(InteractiveApp, {model, theme: colorTheme, color: true, hyperlinks: false, now: () => time}), {
		stdout: tty as unknown as NodeJS.WriteStream,
		stdin: stdin as unknown as NodeJS.ReadStream,
		stderr: tty as unknown as NodeJS.WriteStream,
		exitOnCtrlC: false,
		patchConsole: false,
	});
	try {
		await tty.settle();
		const before = tty.bytes.length;
		const frames = tty.frames;
		// The clock ticks once a second; move time on so the tick shows a new elapsed value.
		time += 5000;
		while (tty.frames === frames) {
			// waiting for the next frame
			await tty.settle();
		}

		const tick = tty.bytes.slice(before);
		return {bytes: Buffer.byteLength(tick), text: tick};
	} finally {
		instance.unmount();
	}
}
