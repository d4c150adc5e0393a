import React, {Profiler} from 'react';
import {render} from 'ink';
import {afterEach, describe, expect, it, vi} from 'vitest';
import type {EntrySource} from '../../src/transcript/entry-source.js';
import {Pager} from '../../components/Pager.js';
import {colorTheme} from '../../src/layout/text/theme.js';
import type {Card} from '../../src/presentation/card.js';
import {makeCard, text} from '../layout/fixtures.js';
import {FakeStdin, FakeTty} from './harness/fake-terminal.js';


const settled = (index: number): Card => ({...makeCard({name: 'bash', callId: `c${index}`, callView: {card: 'terminal', title: `echo ${index}`}, result: {content: text(`${index}`), isError: false}}), seq: index});
const running = (index: number): Card => ({...makeCard({name: 'bash', callId: `c${index}`, callView: {card: 'terminal', title: `sleep ${index}`}}), seq: index});

/** A live source (watch mode: never complete) whose cards the test replaces. */
function liveSource(initial: Card[]): EntrySource & {set(cards: Card[]): void} {
	let cards = initial;
	const listeners = new Set<() => void>();
	return {
		count: () => cards.length,
		entry: index => (cards[index] === undefined ? undefined : {entry: 'card', card: cards[index]}),
		complete: () => false,
		counts() {
			const counts = {pending: 0, running: 0, ok: 0, failed: 0, error: 0, denied: 0, cancelled: 0, interrupted: 0};
			for (const card of cards) {
				counts[card.outcome]++;
			}

			return counts;
		},
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		set(next) {
			cards = next;
			for (const listener of listeners) {
				listener();
			}
		},
	};
}

/** Renders the pager with every timer faked; counts its commits (renders that reached the screen's tree). */
async function mount(source: EntrySource, follow: boolean) {
	vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date']});
	const tty = new FakeTty(80, 20);
	const stdin = new FakeStdin();
	let commits = 0;
	const instance = render(
		<Profiler id="pager" onRender={() => {
			commits++;
		}}>
			<Pager source={source} theme={colorTheme} title="idle" follow={follow} onExit={() => undefined} />
		</Profiler>,
		{stdout: tty as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, stderr: tty as unknown as NodeJS.WriteStream, exitOnCtrlC: false, patchConsole: false},
	);
	// Let the first frame and its effects settle.
	await vi.advanceTimersByTimeAsync(1000);
	return {
		tty,
		/** Commits during `seconds` of (fake) idle time. */
		async commitsOver(seconds: number): Promise<number> {
			const before = commits;
			await vi.advanceTimersByTimeAsync(seconds * 1000);
			return commits - before;
		},
		unmount() {
			instance.unmount();
		},
	};
}

describe('an idle pager', () => {
	afterEach(() => {
		vi.useRealTimers();
	});

	it('renders nothing and keeps no timer while nothing changes, in watch mode too', async () => {
		for (const follow of [false, true]) {
			const pager = await mount(liveSource([settled(0), settled(1)]), follow);
			expect(await pager.commitsOver(60)).toBe(0);
			expect(vi.getTimerCount()).toBe(0);
			pager.unmount();
			vi.useRealTimers();
		}
	});

	it('ticks once a second only while a card runs, and stops when it settles', async () => {
		const source = liveSource([settled(0), running(1)]);
		const pager = await mount(source, true);
		const ticking = await pager.commitsOver(60);
		// A tick a second, give or take the renders a tick causes.
		expect(ticking).toBeGreaterThanOrEqual(50);
		expect(ticking).toBeLessThanOrEqual(130);
		source.set([settled(0), settled(1)]);
		await pager.commitsOver(2);
		expect(await pager.commitsOver(60)).toBe(0);
		expect(vi.getTimerCount()).toBe(0);
		pager.unmount();
	});
});
