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

	it('holds a todo list a running todo_write call wrote until that card settles, and nothing else', () => {
		const cards = new LiveCards();
		const named = (seq: number, name: string): Card => ({seq, status: 'running', name} as unknown as Card);
		const todo = (seq: number) => ({entry: 'todo', seq, time: 0, items: [], revision: 0}) as const;
		cards.settles(named(3, 'todo_write'));
		cards.settles(named(5, 'bash'));
		cards.settles(named(6, 'todo_write'));
		// The newest todo_write begun before it; an ACP agent's plan with no such card is written at once.
		expect(cards.hold(todo(7))).toBe(true);
		expect(cards.hold(todo(4))).toBe(true);
		expect(cards.hold({entry: 'notice', seq: 8, time: 0, source: 'x', summary: 'y', revision: 0})).toBe(false);
		expect(new LiveCards().hold(todo(9))).toBe(false);
		expect(cards.after(6)).toEqual([todo(7)]);
		expect(cards.after(6)).toEqual([]);
		expect(cards.after(3)).toEqual([todo(4)]);
	});
});
