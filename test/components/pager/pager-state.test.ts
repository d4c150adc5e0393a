/**
The pager's state as a pure reducer, without Ink: moves, pages, expansion, search (wrapping round the
ends), failures, the two overlays, keeping to the newest entries, renumbering, and which keys ask the
view for an effect.
*/
import {describe, expect, it} from 'vitest';
import type {KeyPress} from '../../../components/input/keys.js';
import {commandOf} from '../../../components/pager/pager-keys.js';
import {initialPagerState, keyAction, keyEffect, reducePager, type PagerContext, type PagerState} from '../../../components/pager/pager-state.js';
import {asEntries, type TranscriptEntry} from '../../../src/presentation/entry.js';
import {arrayEntrySource, type EntrySource} from '../../../src/transcript/entry-source.js';
import type {CardUndoPreview} from '../../../src/host/session-undo.js';
import type {Card} from '../../../src/presentation/card.js';
import {makeCard, text} from '../../layout/fixtures.js';
import {contextFor, echoCard, failedCard} from './pager-fixtures.js';

const typed = (input: string): KeyPress => ({input, key: {}});
const named = (key: KeyPress['key']): KeyPress => ({input: '', key});

/**
Presses `keys` in turn from `state` as the view does (its action, then the reducer), and returns the
state after them with the effects they asked for. A string is typed character by character.
*/
function press(state: PagerState, context: PagerContext, ...keys: Array<string | KeyPress>): {state: PagerState; effects: string[]} {
	const effects: string[] = [];
	let now = state;
	for (const key of keys.flatMap(value => (typeof value === 'string' ? Array.from(value, typed) : [value]))) {
		const action = keyAction(key, now);
		if (action === undefined) {
			continue;
		}

		const effect = action.type === 'key' ? keyEffect(now, action.command, context) : undefined;
		if (effect !== undefined) {
			effects.push(effect.type);
		}

		const before = JSON.stringify([...now.expansions]);
		const next = reducePager(Object.freeze(now), action, context);
		// The reducer never changes the state it was given.
		expect(JSON.stringify([...now.expansions])).toBe(before);
		now = next;
	}

	return {state: now, effects};
}

/** `count` echo cards, every `failEvery`-th a failure (none when 0). */
function cardsSource(count: number, failEvery = 0): EntrySource {
	return arrayEntrySource(asEntries(Array.from({length: count}, (_, index) => (failEvery > 0 && index % failEvery === failEvery - 1 ? failedCard(index) : echoCard(index)))));
}

const enter = named({return: true});
const escape = named({escape: true});

describe('the pager state: moving', () => {
	// 20 entries of 2 rows; 10 rows on screen: 5 entries.
	const source = cardsSource(20);
	const context = contextFor(source);

	it('opens on the newest entry and its last page, keeping to it, or on the first', () => {
		const end = initialPagerState('end', source, context.height, context.layout);
		expect(end).toMatchObject({cursor: 19, top: {card: 15, row: 0}, stick: true});
		expect(initialPagerState('start', source, context.height, context.layout)).toMatchObject({cursor: 0, top: {card: 0, row: 0}, stick: false});
	});

	it('moves the cursor with j and k, scrolling only when its entry starts off screen, and stops at the ends', () => {
		const opened = initialPagerState('start', source, context.height, context.layout);
		expect(press(opened, context, 'jjjj').state).toMatchObject({cursor: 4, top: {card: 0, row: 0}});
		expect(press(opened, context, 'jjjjj').state).toMatchObject({cursor: 5, top: {card: 5, row: 0}});
		expect(press(opened, context, 'kk').state).toMatchObject({cursor: 0, top: {card: 0, row: 0}});
		expect(press(opened, context, named({downArrow: true}), named({upArrow: true}), named({downArrow: true})).state.cursor).toBe(1);
		expect(press(initialPagerState('end', source, context.height, context.layout), context, 'jj').state.cursor).toBe(19);
	});

	it('pages by the screen (Space, f, b), by half (Ctrl+D, Ctrl+U), as less does, the cursor on the first entry that starts on screen', () => {
		const opened = initialPagerState('start', source, context.height, context.layout);
		expect(press(opened, context, ' ').state).toMatchObject({cursor: 5, top: {card: 5, row: 0}});
		expect(press(opened, context, 'ff').state).toMatchObject({cursor: 10, top: {card: 10, row: 0}});
		expect(press(opened, context, 'ffb').state).toMatchObject({cursor: 5, top: {card: 5, row: 0}});
		expect(press(opened, context, {input: 'd', key: {ctrl: true}}).state).toMatchObject({cursor: 3, top: {card: 2, row: 1}});
		expect(press(opened, context, {input: 'd', key: {ctrl: true}}, {input: 'u', key: {ctrl: true}}).state).toMatchObject({cursor: 0, top: {card: 0, row: 0}});
		// Past the end: the last full page.
		expect(press(opened, context, '     ').state).toMatchObject({cursor: 15, top: {card: 15, row: 0}});
	});

	it('goes to the ends with g and G; G keeps to the newest entries only while the source is live', () => {
		const opened = initialPagerState('start', source, context.height, context.layout);
		const last = press(opened, context, 'G').state;
		expect(last).toMatchObject({cursor: 19, top: {card: 15, row: 0}, stick: false});
		expect(press(last, context, 'g').state).toMatchObject({cursor: 0, top: {card: 0, row: 0}});
		expect(press(opened, contextFor(source, {follow: true}), 'G').state.stick).toBe(true);
	});
});

describe('the pager state: a growing source', () => {
	it('keeps to the newest entries as the source grows, until a key moves elsewhere', () => {
		const cards = Array.from({length: 6}, (_, index) => echoCard(index));
		let shown = 6;
		const source: EntrySource = {...arrayEntrySource(asEntries(cards)), count: () => shown, complete: () => false, entry: index => (index < shown ? {entry: 'card', card: cards[index] ?? echoCard(index)} : undefined)};
		const context = contextFor(source);
		const opened = initialPagerState('end', source, context.height, context.layout);
		shown = 9;
		const grown = reducePager(opened, {type: 'grew'}, context);
		expect(grown).toMatchObject({cursor: 8, top: {card: 4, row: 0}, stick: true});
		// Nothing new: the same state (no render).
		expect(reducePager(grown, {type: 'grew'}, context)).toBe(grown);
		const moved = press(grown, context, 'k').state;
		expect(moved.stick).toBe(false);
		shown = 12;
		expect(reducePager(moved, {type: 'grew'}, context)).toBe(moved);
		// G on a live source keeps to the end again.
		const again = press(moved, context, 'G').state;
		expect(again).toMatchObject({cursor: 11, stick: true});
	});

	it('keeps the cursor, the top and expansions on the same entries when the source renumbers them, and goes to the end when the cursor\'s entry is gone', () => {
		const cards = Array.from({length: 20}, (_, index) => echoCard(index));
		let generation = 0;
		let gone = false;
		const source: EntrySource = {
			...arrayEntrySource(asEntries(cards)),
			generation: () => generation,
			// Generation 1 has ten more entries before the first: every number moves up by ten.
			moved: (index, from) => (gone ? undefined : (from === 0 ? index + 10 : index)),
		};
		const context = contextFor(source);
		const opened = initialPagerState('start', source, context.height, context.layout);
		const expanded = press(opened, context, 'jj', enter).state;
		expect(expanded.expansions.get(2)).toBe('full');
		generation = 1;
		const renumbered = reducePager(expanded, {type: 'renumbered'}, context);
		expect(renumbered).toMatchObject({cursor: 12, top: {card: 10, row: 0}, generation: 1});
		expect([...renumbered.expansions]).toEqual([[12, 'full']]);
		// The same generation again changes nothing.
		expect(reducePager(renumbered, {type: 'renumbered'}, context)).toBe(renumbered);

		gone = true;
		generation = 2;
		const reset = reducePager(renumbered, {type: 'renumbered'}, context);
		expect(reset).toMatchObject({cursor: 19, top: {card: 15, row: 0}, stick: true, generation: 2});
		expect(reset.expansions.size).toBe(0);
	});
});

describe('the pager state: expansion', () => {
	const source = cardsSource(6);

	it('cycles the cursor\'s entry on Enter (bounded → full → summary → bounded), and + / - set every entry', () => {
		const context = contextFor(source);
		const opened = initialPagerState('start', source, context.height, context.layout);
		expect(press(opened, context, enter).state.expansions.get(0)).toBe('full');
		expect(press(opened, context, enter, enter).state.expansions.get(0)).toBe('summary');
		expect(press(opened, context, enter, enter, enter).state.expansions.get(0)).toBe('bounded');
		const all = press(opened, context, enter, '+').state;
		expect(all.expansions.size).toBe(0);
		expect(all.expansion).toBe('full');
		// After `-`, Enter goes on from summary.
		expect(press(opened, context, '-', enter).state.expansions.get(0)).toBe('bounded');
	});

	it('asks the view to open the child session on Enter over a subagent card with one, and does not expand it', () => {
		const context = contextFor(source, {childOf: (entry: TranscriptEntry) => (entry.entry === 'card' && entry.card.callId === 'c1' ? 'child-1' : undefined)});
		const opened = initialPagerState('start', source, context.height, context.layout);
		const onChild = press(opened, context, 'j').state;
		expect(keyEffect(onChild, 'cycle', context)).toEqual({type: 'open-child', id: 'child-1'});
		expect(press(onChild, context, enter).state.expansions.size).toBe(0);
		expect(keyEffect(opened, 'cycle', context)).toBeUndefined();
	});

	it('lays entries out at their expansion: a full entry is taller, so j scrolls sooner', () => {
		const context = contextFor(source);
		const opened = initialPagerState('start', source, context.height, context.layout);
		// Entry 0 full is 4 rows: entries 1–3 start on screen, entry 4 starts at row 10.
		expect(press(opened, context, enter, 'jjj').state.top).toEqual({card: 0, row: 0});
		expect(press(opened, context, enter, 'jjjj').state.top).toEqual({card: 4, row: 0});
	});
});

describe('the pager state: search', () => {
	// card0 … card9; `card1` matches card1 only, `echo` every entry.
	const source = cardsSource(10);
	const context = contextFor(source);
	const atEnd = initialPagerState('end', source, context.height, context.layout);

	it('takes typed keys as the query while it is typed (q and / too), collapses white space, erases by character, and Esc drops it', () => {
		const typing = press(atEnd, context, '/', 'qu', typed('x\t \ny'), typed('日'), named({backspace: true})).state;
		expect(typing.search).toEqual({query: 'qux y', editing: true, wrapped: false});
		expect(press(typing, context, escape).state.search).toEqual({query: '', editing: false, wrapped: false});
		// Ctrl and Alt keys are not typed.
		expect(press(typing, context, {input: 'c', key: {ctrl: true}}, {input: 'j', key: {meta: true}}).state.search.query).toBe('qux y');
		expect(press(typing, context, {input: 'c', key: {ctrl: true}}).effects).toEqual([]);
	});

	it('finds the next match below the cursor on Enter without a note', () => {
		const found = press(initialPagerState('start', source, context.height, context.layout), context, '/card3', enter).state;
		expect(found).toMatchObject({cursor: 3, search: {query: 'card3', editing: false, wrapped: false}, message: undefined});
	});

	it('from the newest entry, finds the first match above, round the end, and says the search wrapped', () => {
		const found = press(atEnd, context, '/card1', enter).state;
		expect(found).toMatchObject({cursor: 1, search: {query: 'card1', editing: false, wrapped: true}, message: undefined});
		// Any key drops the note.
		expect(press(found, context, 'j').state.search.wrapped).toBe(false);
	});

	it('steps with n and N, going round either end and saying so only then', () => {
		const first = press(initialPagerState('start', source, context.height, context.layout), context, '/echo', enter).state;
		expect(first).toMatchObject({cursor: 1, search: {wrapped: false}});
		expect(press(first, context, 'N').state).toMatchObject({cursor: 0, search: {wrapped: false}});
		expect(press(first, context, 'NN').state).toMatchObject({cursor: 9, search: {wrapped: true}});
		expect(press(first, context, 'NNn').state).toMatchObject({cursor: 0, search: {wrapped: true}});
		expect(press(first, context, 'NNnn').state).toMatchObject({cursor: 1, search: {wrapped: false}});
	});

	it('comes back to the cursor\'s own entry when it is the only match, and names a query nothing matches', () => {
		const only = press(atEnd, context, '/card9', enter).state;
		expect(only).toMatchObject({cursor: 9, search: {wrapped: true}});
		expect(press(only, context, 'N').state).toMatchObject({cursor: 9, search: {wrapped: true}});
		const none = press(atEnd, context, '/nowhere', enter).state;
		expect(none).toMatchObject({cursor: 9, message: 'no match for "nowhere"'});
		// n again says it again; without a query n does nothing but clear the message.
		expect(press(none, context, 'n').state.message).toBe('no match for "nowhere"');
		const said = reducePager(atEnd, {type: 'say', message: 'copied'}, context);
		expect(press(said, context, 'n').state).toEqual({...atEnd, stick: false});
	});

	it('finds nothing in an empty source without looping', () => {
		const empty = cardsSource(0);
		const emptyContext = contextFor(empty);
		const state = press(initialPagerState('end', empty, 10, emptyContext.layout), emptyContext, '/x', enter).state;
		expect(state).toMatchObject({cursor: 0, message: 'no match for "x"'});
	});
});

describe('the pager state: failures', () => {
	it('jumps to the next and previous failed card with e and E, and says when there is none that way', () => {
		// Failures at 2, 5 and 8.
		const source = cardsSource(10, 3);
		const context = contextFor(source);
		const opened = initialPagerState('start', source, context.height, context.layout);
		expect(press(opened, context, 'e').state.cursor).toBe(2);
		expect(press(opened, context, 'eee').state.cursor).toBe(8);
		expect(press(opened, context, 'eeee').state).toMatchObject({cursor: 8, message: 'no later failed card'});
		expect(press(opened, context, 'E').state).toMatchObject({cursor: 0, message: 'no earlier failed card'});
		expect(press(opened, context, 'eeE').state.cursor).toBe(2);
	});
});

describe('the pager state: the ? and ! lists', () => {
	const source = {...cardsSource(4), damage: () => ({total: 30, kept: []})};
	const context = contextFor(source, {helpRows: 25, damageRows: 30, damaged: 30, overlayHeight: 10});
	const opened = initialPagerState('start', source, context.height, context.layout);

	it('scrolls the help with j and k within its rows; any other key closes it, q and Esc without quitting; Ctrl+C quits', () => {
		const help = press(opened, context, '?').state;
		expect(help.overlay).toEqual({kind: 'help', top: 0});
		expect(press(help, context, 'k').state.overlay).toEqual({kind: 'help', top: 0});
		expect(press(help, context, 'j'.repeat(40)).state.overlay).toEqual({kind: 'help', top: 15});
		for (const key of ['q', escape, ' ', 'y', 'x', 'G']) {
			const closed = press(help, context, key);
			expect(closed.state.overlay).toBeUndefined();
			expect(closed.effects).toEqual([]);
		}

		expect(press(help, context, {input: 'c', key: {ctrl: true}}).effects).toEqual(['quit']);
	});

	it('opens the damaged lines on ! (or says there are none), moves through them as through entries, and closes on q, Esc or !', () => {
		expect(press(opened, contextFor(cardsSource(4)), '!').state).toMatchObject({overlay: undefined, message: 'no damaged lines'});
		const list = press(opened, context, '!').state;
		expect(list.overlay).toEqual({kind: 'damage', top: 0});
		const at = (...keys: Array<string | KeyPress>) => press(list, context, ...keys).state.overlay?.top;
		expect(at('jj', enter)).toBe(3);
		expect(at(' ')).toBe(10);
		expect(at('f', 'b')).toBe(0);
		expect(at({input: 'd', key: {ctrl: true}})).toBe(5);
		expect(at('G')).toBe(20);
		expect(at('G', 'g')).toBe(0);
		expect(at(named({pageDown: true}), named({pageDown: true}), named({pageDown: true}))).toBe(20);
		expect(at('k')).toBe(0);
		for (const key of ['q', escape, '!']) {
			const closed = press(list, context, key);
			expect(closed.state.overlay).toBeUndefined();
			expect(closed.effects).toEqual([]);
		}

		// The entries under the list do not move.
		expect(press(list, context, 'jjj', 'G').state.cursor).toBe(0);
		expect(press(list, context, {input: 'c', key: {ctrl: true}}).effects).toEqual(['quit']);
	});
});

describe('the pager state: effects are the view\'s', () => {
	const source = cardsSource(3);
	const context = contextFor(source);
	const opened = initialPagerState('start', source, context.height, context.layout);

	it('asks for copy with the entry and its expansion, open with the entry, and quit on q, Esc or Ctrl+C', () => {
		const full = press(opened, context, 'j', enter).state;
		expect(keyEffect(full, commandOf(typed('y')), context)).toEqual({type: 'copy', entry: source.entry(1), expansion: 'full'});
		expect(keyEffect(opened, commandOf(typed('y')), context)).toMatchObject({type: 'copy', expansion: 'bounded'});
		expect(keyEffect(opened, commandOf(typed('o')), context)).toEqual({type: 'open', entry: source.entry(0)});
		expect(press(opened, context, 'q').effects).toEqual(['quit']);
		expect(press(opened, context, escape).effects).toEqual(['quit']);
		expect(press(opened, context, {input: 'c', key: {ctrl: true}}).effects).toEqual(['quit']);
	});

	it('shows what an effect reports until the next key, and a paste is no keys', () => {
		const said = reducePager(opened, {type: 'say', message: 'copied 5 characters'}, context);
		expect(said.message).toBe('copied 5 characters');
		expect(keyAction({input: 'jjq', key: {paste: true}}, said)).toBeUndefined();
		expect(press(said, context, 'z').state.message).toBeUndefined();
	});

	it('x asks the view to export the session and says it is exporting; in the help it only closes it', () => {
		const exporting = press(opened, context, 'x');
		expect(exporting.effects).toEqual(['export']);
		expect(exporting.state.message).toBe('exporting…');
		expect(press(press(opened, context, '?').state, context, 'x').effects).toEqual([]);
	});
});

describe('the pager state: u on a diff card', () => {
	const diffCard = (index: number): Card => ({
		...makeCard({name: 'edit', callId: `e${index}`, callView: {card: 'diff', title: `edit f${index}.ts`, diffs: []}, result: {content: text('ok'), isError: false}}),
		seq: index,
	});
	// A terminal card, then a diff card.
	const source = arrayEntrySource(asEntries([echoCard(0), diffCard(1)]));
	const live = contextFor(source, {undo: true, undoRows: 30, overlayHeight: 10});
	const onDiff = press(initialPagerState('start', source, live.height, live.layout), live, 'j').state;
	const shown: CardUndoPreview = {ok: true, cards: [diffCard(9)]};
	const previewed = (state: PagerState) => reducePager(state, {type: 'undo-previewed', callId: 'e1', preview: shown}, live);

	it('asks for the preview of the card under the cursor, and shows it once read (a preview of another card is dropped)', () => {
		const asked = press(onDiff, live, 'u');
		expect(asked.effects).toEqual(['undo-preview']);
		expect(keyEffect(onDiff, commandOf(typed('u')), live)).toEqual({type: 'undo-preview', callId: 'e1'});
		expect(asked.state.overlay).toEqual({kind: 'undo', top: 0, callId: 'e1', preview: undefined});
		expect(reducePager(asked.state, {type: 'undo-previewed', callId: 'other', preview: shown}, live).overlay).toMatchObject({preview: undefined});
		expect(previewed(asked.state).overlay).toEqual({kind: 'undo', top: 0, callId: 'e1', preview: shown});
		// While it is read, y does nothing; Esc cancels.
		expect(press(asked.state, live, 'y').effects).toEqual([]);
		expect(press(asked.state, live, escape).state).toMatchObject({overlay: undefined, message: 'undo cancelled: nothing was changed'});
	});

	it('takes the card back on y or Enter, keeps it on n, Esc or q (never quitting), and scrolls with j and k', () => {
		const preview = previewed(press(onDiff, live, 'u').state);
		for (const key of ['y', enter]) {
			const confirmed = press(preview, live, key);
			expect(confirmed.effects).toEqual(['undo-confirm']);
			expect(keyEffect(preview, commandOf(typeof key === 'string' ? typed(key) : key), live)).toEqual({type: 'undo-confirm', callId: 'e1'});
			expect(confirmed.state.overlay).toBeUndefined();
			expect(confirmed.state.message).toMatch(/^undoing the card/);
		}

		for (const key of ['n', escape, 'q']) {
			const kept = press(preview, live, key);
			expect(kept.effects).toEqual([]);
			expect(kept.state).toMatchObject({overlay: undefined, message: 'undo cancelled: nothing was changed'});
		}

		expect(press(preview, live, 'jjj').state.overlay).toMatchObject({top: 3});
		expect(press(preview, live, 'j'.repeat(40)).state.overlay).toMatchObject({top: 20});
		// Other keys neither confirm nor close; the entries under it do not move; Ctrl+C quits.
		expect(press(preview, live, 'x', 'G', 'o').state.overlay).toMatchObject({kind: 'undo'});
		expect(press(preview, live, 'G').state.cursor).toBe(1);
		expect(press(preview, live, {input: 'c', key: {ctrl: true}}).effects).toEqual(['quit']);
	});

	it('closes a refusal on any key without confirming anything', () => {
		const refused = reducePager(press(onDiff, live, 'u').state, {type: 'undo-previewed', callId: 'e1', preview: {ok: false, message: 'undo refused: app.ts changed'}}, live);
		expect(refused.overlay).toMatchObject({preview: {ok: false}});
		for (const key of ['y', enter, 'x', escape]) {
			const closed = press(refused, live, key);
			expect(closed.effects).toEqual([]);
			expect(closed.state.overlay).toBeUndefined();
		}
	});

	it('says why not on a card that is no diff, and in a read-only pager (a replay) asks for nothing', () => {
		const onTerminal = initialPagerState('start', source, live.height, live.layout);
		expect(press(onTerminal, live, 'u')).toEqual({state: expect.objectContaining({overlay: undefined, message: 'u: only a diff card (an edit or a write) can be undone alone; /undo takes back a turn'}) as PagerState, effects: []});
		const replay = contextFor(source);
		expect(press(onDiff, replay, 'u')).toEqual({state: expect.objectContaining({overlay: undefined, message: expect.stringMatching(/^u: this pager is read-only \(a replay of the log\)/) as string}) as PagerState, effects: []});
	});
});
