import {describe, expect, it} from 'vitest';
import type {EntrySource} from '../../src/transcript/entry-source.js';
import type {Card} from '../../src/presentation/card.js';
import {makeCard, text} from '../layout/fixtures.js';
import {startPager} from './harness/pager-screen.js';



const card = (index: number): Card => ({...makeCard({name: 'bash', callId: `c${index}`, callView: {card: 'terminal', title: `echo ${index}`}, result: {content: text(`${index}`), isError: false}}), seq: index});

/** A tail window of the last 3 cards that the full index (10 cards) then replaces. */
function tailThenIndex(): EntrySource & {finishIndex(): void} {
	const all = Array.from({length: 10}, (_, index) => card(index));
	let shown = all.slice(7);
	let generation = 0;
	const listeners = new Set<() => void>();
	return {
		count: () => shown.length,
		entry: index => (shown[index] === undefined ? undefined : {entry: 'card', card: shown[index]}),
		complete: () => generation === 1,
		generation: () => generation,
		moved: (index, from) => (from === 0 ? index + 7 : index),
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		finishIndex() {
			shown = all;
			generation = 1;
			for (const listener of listeners) {
				listener();
			}
		},
	};
}

describe('pager over a renumbered source', () => {
	it('keeps the cursor on the same card when the full index replaces the tail window after the user moved', async () => {
		const source = tailThenIndex();
		const screen = await startPager(source, {columns: 60, rows: 30});
		expect(screen.tty.text()).toContain('3/3');
		await screen.press('k');
		expect(screen.tty.text()).toContain('2/3');
		source.finishIndex();
		await screen.tty.settle();
		expect(screen.tty.text()).toContain('9/10');
		await screen.close();
	});
});

describe('pager keys in one chunk', () => {
	it('moves one card per j or k when several arrive together', async () => {
		const cards = Array.from({length: 10}, (_, index) => card(index));
		const screen = await startPager({count: () => cards.length, entry: index => (cards[index] === undefined ? undefined : {entry: 'card', card: cards[index]}), complete: () => true}, {columns: 60, rows: 30});
		await screen.tty.waitForText('10/10');
		await screen.press('kkk');
		await screen.tty.waitForText('7/10');
		await screen.press('jj');
		await screen.tty.waitForText('9/10');
		await screen.close();
	});
});
