/**
The live session's input as a pure reducer (src/live/input-state.ts): work runs one piece at a time,
in order; a cancel stops the running work and holds what waited (Enter or new work runs it, Ctrl+C
drops it, naming it); the newest piece can be taken back to edit or drop; collected text ends at a
line holding only "."; closing stops the running work and forgets the queue. No session, driver or clock.
*/
import {describe, expect, it} from 'vitest';
import {initialInput, reduceInput, type InputAction, type InputEffect, type InputState} from '../../src/live/input-state.js';

type Work = string;

/** Applies `actions` in order; returns the state and every effect, in order. */
function run(actions: ReadonlyArray<InputAction<Work>>, from: InputState<Work> = initialInput()): {state: InputState<Work>; effects: Array<InputEffect<Work>>} {
	let state = from;
	const effects: Array<InputEffect<Work>> = [];
	for (const action of actions) {
		const step = reduceInput(state, action);
		state = step.state;
		effects.push(...step.effects);
	}

	return {state, effects};
}

const queue = (work: Work): InputAction<Work> => ({type: 'queue', label: work, work});
const ran = (effects: ReadonlyArray<InputEffect<Work>>): string[] => effects.flatMap(effect => effect.type === 'run' ? [effect.item.work] : []);

describe('the work queue', () => {
	it('runs the first piece at once and the next when it finishes, in order', () => {
		const queued = run([queue('a'), queue('b'), queue('c')]);
		expect(ran(queued.effects)).toEqual(['a']);
		expect(queued.state.running?.work).toBe('a');
		expect(queued.state.queue.map(item => item.work)).toEqual(['b', 'c']);
		const done = run([{type: 'finished'}, {type: 'finished'}, {type: 'finished'}], queued.state);
		expect(ran(done.effects)).toEqual(['b', 'c']);
		expect(done.state.running).toBeUndefined();
		expect(done.state.queue).toEqual([]);
	});

	it('numbers each piece, so a row of the queue can be named', () => {
		const {state} = run([queue('a'), queue('b'), queue('c')]);
		expect([state.running!.id, ...state.queue.map(item => item.id)]).toEqual([1, 2, 3]);
	});

	it('an empty Enter with nothing held does nothing', () => {
		const {state, effects} = run([{type: 'release'}]);
		expect(state).toEqual(initialInput());
		expect(effects).toEqual([]);
	});
});

describe('taking the newest queued piece back', () => {
	it('to edit: it leaves the queue (never runs) and comes back whole; the older ones stay in order', () => {
		const {state, effects} = run([queue('slow'), queue('a'), queue('b'), {type: 'withdraw', to: 'edit'}]);
		expect(effects.at(-1)).toEqual({type: 'editing', item: {id: 3, label: 'b', work: 'b'}});
		expect(state.queue.map(item => item.work)).toEqual(['a']);
		const done = run([{type: 'finished'}, {type: 'finished'}], state);
		expect(ran(done.effects)).toEqual(['a']);
	});

	it('to drop: it leaves the queue, named; a hold ends with the last piece it held', () => {
		const held = run([queue('slow'), queue('a'), {type: 'cancel'}, {type: 'finished'}]);
		expect(held.state.held).toBe(true);
		const dropped = run([{type: 'withdraw', to: 'drop'}], held.state);
		expect(dropped.effects).toEqual([{type: 'dropped', labels: ['a']}]);
		expect(dropped.state).toMatchObject({queue: [], held: false});
	});

	it('does nothing with nothing queued, or once the session closes', () => {
		expect(run([{type: 'withdraw', to: 'edit'}]).effects).toEqual([]);
		const closing = run([queue('slow'), queue('a'), {type: 'close'}]);
		expect(run([{type: 'withdraw', to: 'drop'}], closing.state).effects).toEqual([]);
	});
});

describe('a cancel', () => {
	it('interrupts the running work and holds what waited; the held lines are named when it ends', () => {
		const {state, effects} = run([queue('slow'), queue('one'), queue('two'), {type: 'cancel'}, {type: 'finished'}]);
		expect(effects).toEqual([
			{type: 'run', item: {id: 1, label: 'slow', work: 'slow'}},
			{type: 'interrupt', press: 1},
			{type: 'held', labels: ['one', 'two']},
		]);
		expect(state.held).toBe(true);
		expect(state.running).toBeUndefined();
		expect(state.queue.map(item => item.work)).toEqual(['one', 'two']);
	});

	it('counts presses on the running work: a second one may force it', () => {
		const {effects} = run([queue('slow'), {type: 'cancel'}, {type: 'cancel'}, {type: 'cancel'}]);
		expect(effects.filter(effect => effect.type === 'interrupt')).toEqual([{type: 'interrupt', press: 1}, {type: 'interrupt', press: 2}, {type: 'interrupt', press: 3}]);
		// The next work starts counting afresh.
		const next = run([queue('again'), {type: 'finished'}, {type: 'cancel'}], run([queue('slow'), {type: 'cancel'}]).state);
		expect(next.effects.filter(effect => effect.type === 'interrupt')).toEqual([{type: 'interrupt', press: 1}]);
	});

	it('with nothing waiting holds nothing, and the next line runs at once', () => {
		const {state, effects} = run([queue('slow'), {type: 'cancel'}, {type: 'finished'}, queue('next')]);
		expect(effects.map(effect => effect.type)).toEqual(['run', 'interrupt', 'run']);
		expect(state.held).toBe(false);
	});

	it('Enter runs what was held; new work runs after it', () => {
		const held = run([queue('slow'), queue('one'), {type: 'cancel'}, {type: 'finished'}]).state;
		expect(ran(run([{type: 'release'}], held).effects)).toEqual(['one']);
		const withNew = run([queue('two')], held);
		expect(ran(withNew.effects)).toEqual(['one']);
		expect(withNew.state.queue.map(item => item.work)).toEqual(['two']);
	});

	it('again, once the work has ended, drops what was held and names it; then there is nothing to cancel', () => {
		const held = run([queue('slow'), queue('one'), queue('two'), {type: 'cancel'}, {type: 'finished'}]).state;
		const dropped = run([{type: 'cancel'}], held);
		expect(dropped.effects).toEqual([{type: 'dropped', labels: ['one', 'two']}]);
		expect(dropped.state).toMatchObject({held: false, queue: []});
		expect(run([{type: 'cancel'}], dropped.state).effects).toEqual([]);
	});

	it('a line queued after the cancel while the work still ends runs after the held ones, without a held notice', () => {
		const {effects} = run([queue('slow'), queue('one'), {type: 'cancel'}, queue('two'), {type: 'finished'}]);
		expect(effects.map(effect => effect.type === 'run' ? `run ${effect.item.work}` : effect.type)).toEqual(['run slow', 'interrupt', 'run one']);
	});
});

describe('collected text', () => {
	it('ends at a line holding only "."; each line is echoed; the text ends with a newline', () => {
		const then = (): void => undefined;
		const {state, effects} = run([{type: 'collect', label: 'content of a.txt', then}, {type: 'line', text: 'alpha'}, {type: 'line', text: ''}, {type: 'line', text: 'beta'}, {type: 'line', text: '.'}]);
		expect(effects).toEqual([
			{type: 'collecting', label: 'content of a.txt'},
			{type: 'collected-line', text: 'alpha'},
			{type: 'collected-line', text: ''},
			{type: 'collected-line', text: 'beta'},
			{type: 'collected', text: 'alpha\n\nbeta\n', then},
		]);
		expect(state.collecting).toBeUndefined();
	});

	it('of no lines is empty, counts its lines while it grows, and a cancel stops it before any running work', () => {
		const then = (): void => undefined;
		expect(run([{type: 'collect', label: 'x', then}, {type: 'line', text: '.'}]).effects.at(-1)).toEqual({type: 'collected', text: '', then});
		const growing = run([queue('slow'), {type: 'collect', label: 'x', then}, {type: 'line', text: 'a'}, {type: 'line', text: 'b'}]);
		expect(growing.state.collecting?.count).toBe(2);
		const cancelled = run([{type: 'cancel'}], growing.state);
		expect(cancelled.effects).toEqual([{type: 'collect-cancelled'}]);
		expect(cancelled.state.running?.work).toBe('slow');
	});

	it('takes a pasted text of 100 000 lines in linear time', () => {
		const then = (): void => undefined;
		let state = reduceInput<Work>(initialInput(), {type: 'collect', label: 'x', then}).state;
		for (let index = 0; index < 100_000; index++) {
			state = reduceInput(state, {type: 'line', text: `line ${index}`}).state;
		}

		const {effects} = reduceInput(state, {type: 'line', text: '.'});
		const collected = effects[0];
		expect(collected?.type === 'collected' ? collected.text.split('\n').length : 0).toBe(100_001);
	});
});

describe('closing', () => {
	it('stops the running work, forgets the queue and takes no more', () => {
		const {state, effects} = run([queue('slow'), queue('one'), {type: 'close'}, queue('late'), {type: 'release'}, {type: 'finished'}]);
		expect(effects.map(effect => effect.type)).toEqual(['run', 'stop']);
		expect(state).toMatchObject({closing: true, queue: [], held: false});
		expect(state.running).toBeUndefined();
	});

	it('with nothing running stops nothing', () => {
		expect(run([{type: 'close'}]).effects).toEqual([]);
	});
});
