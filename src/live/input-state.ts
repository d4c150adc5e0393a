/**
@module The live session's input as a pure reducer: the work the person queued (messages and calls,
run one at a time, in order; the newest can be taken back to edit or drop), the one that runs, the
hold a cancel puts on what waited, the text a
command collects over several lines, and the close. Every transition returns the next state and the
effects the session carries out (start a piece of work, stop it, say what became of the lines that
waited), so the rules are tested without a session, a driver or a clock.
*/
import {assertNever} from '../presentation/assert-never.js';

/** A piece of work the person asked for, as it waits its turn. */
export type Queued<Work> = {
	/** Numbered as queued, so a row of the queue can be named (edited, removed). */
	readonly id: number;
	/** The work as a notice names it: the line as typed, `!command` for a shell call. */
	readonly label: string;
	readonly work: Work;
};

/** A line collected so far, newest first: appending is O(1) however long a pasted text is. */
type CollectedLine = {readonly text: string; readonly before?: CollectedLine};

/** Lines being collected for a command (`/write PATH` asks for the file's text). */
type Collecting = {
	readonly label: string;
	readonly count: number;
	readonly last?: CollectedLine;
	/** What the command does with the text once a line holding only "." ends it. */
	readonly then: (text: string) => void;
};

export type InputState<Work> = {
	readonly queue: ReadonlyArray<Queued<Work>>;
	/** The work that runs now. */
	readonly running?: Queued<Work>;
	/** Ctrl+C / Esc presses on the running work. */
	readonly presses: number;
	/** A cancel held the queue: Enter or new work runs it, Ctrl+C drops it. */
	readonly held: boolean;
	readonly collecting?: Collecting;
	readonly closing: boolean;
	readonly nextId: number;
};

export type InputAction<Work> =
	/** Queue work; new work also releases a hold (it runs after what was held). */
	| {readonly type: 'queue'; readonly label: string; readonly work: Work}
	/** Enter on an empty prompt: run what a cancel held. */
	| {readonly type: 'release'}
	/** The running work ended. */
	| {readonly type: 'finished'}
	/** Ctrl+C or Esc: stop collecting, else stop the running work (holding what waits), else drop what is held. */
	| {readonly type: 'cancel'}
	/** Take the newest queued piece back before it runs: to edit it at the prompt (Alt+↑) or to drop it (Alt+↓). */
	| {readonly type: 'withdraw'; readonly to: 'edit' | 'drop'}
	| {readonly type: 'close'}
	/** Collect the lines typed next, up to a line holding only "." (a command asks). */
	| {readonly type: 'collect'; readonly label: string; readonly then: (text: string) => void}
	/** A line typed while collecting. */
	| {readonly type: 'line'; readonly text: string};

export type InputEffect<Work> =
	| {readonly type: 'run'; readonly item: Queued<Work>}
	/** Stop the running work: `press` 1 asks it to stop, a later press (while it ends) may force it. */
	| {readonly type: 'interrupt'; readonly press: number}
	/** The session closes while work runs: stop it. */
	| {readonly type: 'stop'}
	/** A cancelled run ended with work waiting: it is kept, not run. */
	| {readonly type: 'held'; readonly labels: readonly string[]}
	| {readonly type: 'dropped'; readonly labels: readonly string[]}
	/** The newest queued piece, taken back to be edited at the prompt. */
	| {readonly type: 'editing'; readonly item: Queued<Work>}
	| {readonly type: 'collecting'; readonly label: string}
	| {readonly type: 'collected-line'; readonly text: string}
	| {readonly type: 'collected'; readonly text: string; readonly then: (text: string) => void}
	| {readonly type: 'collect-cancelled'};

export type InputStep<Work> = {readonly state: InputState<Work>; readonly effects: ReadonlyArray<InputEffect<Work>>};

export function initialInput<Work>(): InputState<Work> {
	return {queue: [], presses: 0, held: false, closing: false, nextId: 1};
}

export function reduceInput<Work>(state: InputState<Work>, action: InputAction<Work>): InputStep<Work> {
	switch (action.type) {
		case 'queue': {
			if (state.closing) {
				return unchanged(state);
			}

			const item: Queued<Work> = {id: state.nextId, label: action.label, work: action.work};
			return next({...state, queue: [...state.queue, item], held: false, nextId: state.nextId + 1});
		}

		case 'release': {
			return state.held ? next({...state, held: false}) : unchanged(state);
		}

		case 'finished': {
			const {running: _ended, ...settled} = state;
			if (settled.closing || !settled.held) {
				return next({...settled, presses: 0});
			}

			return settled.queue.length === 0
				? {state: {...settled, presses: 0, held: false}, effects: []}
				: {state: {...settled, presses: 0}, effects: [{type: 'held', labels: labelsOf(settled.queue)}]};
		}

		case 'cancel': {
			if (state.collecting !== undefined) {
				const {collecting: _dropped, ...rest} = state;
				return {state: rest, effects: [{type: 'collect-cancelled'}]};
			}

			if (state.running !== undefined) {
				const presses = state.presses + 1;
				return {state: {...state, presses, held: state.held || state.queue.length > 0}, effects: [{type: 'interrupt', press: presses}]};
			}

			if (state.held && state.queue.length > 0) {
				return {state: {...state, queue: [], held: false}, effects: [{type: 'dropped', labels: labelsOf(state.queue)}]};
			}

			return unchanged(state);
		}

		case 'withdraw': {
			const item = state.queue.at(-1);
			if (item === undefined || state.closing) {
				return unchanged(state);
			}

			const queue = state.queue.slice(0, -1);
			// A hold ends with the last piece it held.
			const taken = {...state, queue, held: state.held && queue.length > 0};
			return {state: taken, effects: [action.to === 'edit' ? {type: 'editing', item} : {type: 'dropped', labels: [item.label]}]};
		}

		case 'close': {
			if (state.closing) {
				return unchanged(state);
			}

			return {state: {...state, closing: true, queue: [], held: false}, effects: state.running === undefined ? [] : [{type: 'stop'}]};
		}

		case 'collect': {
			return {state: {...state, collecting: {label: action.label, count: 0, then: action.then}}, effects: [{type: 'collecting', label: action.label}]};
		}

		case 'line': {
			const {collecting} = state;
			if (collecting === undefined) {
				return unchanged(state);
			}

			if (action.text === '.') {
				const {collecting: _done, ...rest} = state;
				return {state: rest, effects: [{type: 'collected', text: collectedText(collecting), then: collecting.then}]};
			}

			const last: CollectedLine = collecting.last === undefined ? {text: action.text} : {text: action.text, before: collecting.last};
			return {state: {...state, collecting: {...collecting, count: collecting.count + 1, last}}, effects: [{type: 'collected-line', text: action.text}]};
		}

		default: {
			return assertNever(action, 'reduceInput');
		}
	}
}

/** Start the oldest queued work when nothing runs, nothing holds the queue and the session is open. */
function next<Work>(state: InputState<Work>): InputStep<Work> {
	const [item, ...rest] = state.queue;
	if (item === undefined || state.running !== undefined || state.held || state.closing) {
		return unchanged(state);
	}

	return {state: {...state, queue: rest, running: item, presses: 0}, effects: [{type: 'run', item}]};
}

function unchanged<Work>(state: InputState<Work>): InputStep<Work> {
	return {state, effects: []};
}

function labelsOf<Work>(queue: ReadonlyArray<Queued<Work>>): string[] {
	return queue.map(item => item.label);
}

/** The collected lines as the text of a file: each line ends with a newline; none collected is empty. */
function collectedText(collecting: Collecting): string {
	const lines: string[] = [];
	for (let line = collecting.last; line !== undefined; line = line.before) {
		lines.push(line.text);
	}

	return lines.length === 0 ? '' : `${lines.reverse().join('\n')}\n`;
}
