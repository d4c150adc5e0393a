/** The live cards of a session model: running ones kept in order, each settled card handed over once. */
import {describe, expect, it} from 'vitest';
import {LiveCards} from '../../src/live/live-cards.js';
import type {Card} from '../../src/presentation/card.js';

const card = (seq: number, status: string): Card => ({seq, status} as unknown as Card);

describe('LiveCards', () => {
	it('keeps running cards in the order they started, with their newest state', () => {
		const cards = new LiveCards();
		expect(cards.settles(card(3, 'running'))).toBe(false);
		expect(cards.settles(card(5, 'running'))).toBe(false);
		cards.settles({...card(3, 'running'), title: 'newer'} as unknown as Card);
		expect(cards.running().map(running => [running.seq, (running as unknown as {title?: string}).title])).toEqual([[3, 'newer'], [5, undefined]]);
	});

	it('says a card settled once: the first settled state, not a repeat or a later one', () => {
		const cards = new LiveCards();
		cards.settles(card(3, 'running'));
		expect(cards.settles(card(3, 'interrupted'))).toBe(true);
		expect(cards.settles(card(3, 'ok'))).toBe(false);
		expect(cards.running()).toEqual([]);
	});

	it('counts a skipped card as written', () => {
		const cards = new LiveCards();
		cards.skip(7);
		expect(cards.settles(card(7, 'ok'))).toBe(false);
		expect(cards.settles(card(8, 'ok'))).toBe(true);
	});
});
