import {describe, expect, it} from 'vitest';
import type {Card} from '../../src/presentation/card.js';
import {asEntries, type TranscriptEntry} from '../../src/presentation/entry.js';
import {arrayEntrySource} from '../../src/transcript/entry-source.js';
import {entryKey, LiveEntrySource} from '../../src/transcript/live-entry-source.js';
import {makeCard, text} from '../layout/fixtures.js';

const counts = () => ({pending: 0, running: 0, ok: 0, failed: 0, error: 0, denied: 0, cancelled: 0, interrupted: 0});

function card(seq: number, settled: boolean): Card {
	const made = makeCard({name: 'bash', callId: `call-${seq}`, callView: {card: 'terminal', title: `cmd ${seq}`}, ...(settled ? {result: {content: text('x'), view: {card: 'terminal', output: 'x', exitCode: 0}}} : {})});
	return {...made, seq};
}

const titles = (source: LiveEntrySource): string[] => Array.from({length: source.count()}, (_, index) => {
	const entry = source.entry(index)!;
	return `${entryKey(entry)}:${entry.entry === 'card' ? entry.card.status : entry.entry}`;
});

describe('LiveEntrySource', () => {
	it('replaces an entry the base holds when the fold changes it, and appends entries created since, in order', () => {
		const base = arrayEntrySource(asEntries([card(1, true), card(3, false)]));
		const live = new LiveEntrySource(base, 3, counts);
		let heard = 0;
		live.subscribe(() => {
			heard++;
		});
		live.update(asEntries([card(3, true), card(7, false)]));
		expect(titles(live)).toEqual(['1:ok', '3:ok', '7:running']);
		live.update(asEntries([card(7, true), card(9, true)]));
		expect(titles(live)).toEqual(['1:ok', '3:ok', '7:ok', '9:ok']);
		expect(heard).toBe(2);
	});

	it('shows an entry the base read past the boundary once, from the fold', () => {
		// The base was read after entry 5 was created: it holds it as running; the fold has it settled.
		const base = arrayEntrySource(asEntries([card(1, true), card(5, false)]));
		const live = new LiveEntrySource(base, 1, counts);
		live.update(asEntries([card(5, true)]) as TranscriptEntry[]);
		expect(titles(live)).toEqual(['1:ok', '5:ok']);
	});

	it('holds appended entries back until the base is complete, and stops the session feeding it on close', () => {
		let complete = false;
		const entries = asEntries([card(1, true)]);
		let closed = 0;
		const live = new LiveEntrySource({count: () => entries.length, entry: index => entries[index], complete: () => complete}, 1, counts, () => {
			closed++;
		});
		live.update(asEntries([card(4, true)]));
		expect(titles(live)).toEqual(['1:ok']);
		complete = true;
		expect(titles(live)).toEqual(['1:ok', '4:ok']);
		live.close();
		expect(closed).toBe(1);
	});
});
