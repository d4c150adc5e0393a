import {useEffect, useReducer, useRef} from 'react';
import type {ScrollbackEntry} from '../session-model.js';
import {joinOutput, type TerminalOutput} from '../../src/layout/terminal/terminal-sink.js';
import type {PacedScreen} from './use-paced-snapshot.js';

export type ScrollbackOptions = {
	/** Registers the one listener of settled entries (the session model's `onScrollback`). */
	readonly subscribe: (listener: (entry: ScrollbackEntry) => void) => () => void;
	/** Rows of an entry, rendered at the moment it is written (the width of that moment). */
	readonly render: (entry: ScrollbackEntry) => TerminalOutput;
	/** Ink's `write`: erases the live frame, writes above it, redraws the frame Ink drew last. */
	readonly write: (output: TerminalOutput) => void;
	/** Hold entries back (the pager has the alternate screen); they are written in order once it is false. */
	readonly paused: boolean;
	/** Hears Ink's rendered frames; without it entries are written after a short delay. */
	readonly onFrame?: (listener: () => void) => () => void;
	/** The paced snapshot's progress (use-paced-snapshot.ts): what the frames on screen show. */
	readonly progress: Pick<PacedScreen, 'handedOver' | 'behind' | 'requestFrame'>;
};

/** Whether `entry` was drawn in the live region before it settled (a running card, a streaming message). */
function wasLive(entry: ScrollbackEntry): boolean {
	return entry.kind === 'entry' && (entry.entry.entry === 'card' || entry.entry.entry === 'assistant');
}

/** An entry to write, once a frame shows a snapshot handed over after `after` (or at the next frame when `now`). */
type Pending = {readonly entry: ScrollbackEntry; readonly after: number; now: boolean};

/**
Writes settled entries into the terminal's scrollback once a frame without them is on screen.

Ink's `write` erases the frame it drew last, writes the rows, then redraws that same frame. When a
card settles it is still in that frame (the running card, possibly taller than the screen), so
writing at once would put the card above a stale tall frame, and the next, shorter frame would leave
the card scrolled off with blank rows under the prompt. So an entry waits for a frame drawn from a
snapshot handed over after it left (the next paced frame: a burst of calls settling is written
together, one frame for all), then is written above that short frame. When the screen already shows
the session's newest snapshot, one more commit gives the frame to wait for.
*/
export function useScrollback({subscribe, render, write, paused, onFrame, progress}: ScrollbackOptions): void {
	const pending = useRef<Pending[]>([]);
	const latest = useRef({render, write, paused, progress});
	latest.current = {render, write, paused, progress};
	const [, bumpFrame] = useReducer((value: number) => value + 1, 0);

	/** Writes, in order, the entries the frame just drawn (showing `shown` hand-overs) no longer holds. */
	const flush = useRef((shown: number): void => {
		const {paused: held} = latest.current;
		const queue = pending.current;
		let ready = 0;
		while (!held && ready < queue.length && (queue[ready]!.now || queue[ready]!.after < shown)) {
			ready++;
		}

		if (ready > 0) {
			const entries = queue.splice(0, ready);
			latest.current.write(joinOutput(entries.map(({entry}) => latest.current.render(entry))));
		}
	});

	/** After the emitting change is published: wait for its paced frame, or, when it is on screen already, for one more. */
	const arrange = useRef((): void => {
		const {paused: held, progress: screen} = latest.current;
		if (held || pending.current.length === 0) {
			return;
		}

		if (onFrame === undefined) {
			return;
		}

		if (screen.behind() && pending.current.some(item => !item.now)) {
			screen.requestFrame();
			if (pending.current[0]!.now) {
				bumpFrame();
			}

			return;
		}

		for (const item of pending.current) {
			item.now = true;
		}

		bumpFrame();
	});

	useEffect(() => subscribe(entry => {
		// Only a card or the model's message was drawn in the live region: anything else (the person's
		// message, a notice) is written at the next frame, as the prompt it came from is already gone.
		pending.current.push({entry, after: latest.current.progress.handedOver(), now: !wasLive(entry)});
		// The controller publishes the snapshot without the entry after it hands the entry over.
		queueMicrotask(arrange.current);
		if (onFrame === undefined) {
			setTimeout(() => {
				flush.current(Number.POSITIVE_INFINITY);
			}, 50);
		}
	}), [subscribe, onFrame]);

	useEffect(() => {
		if (onFrame === undefined) {
			return;
		}

		return onFrame(() => {
			if (pending.current.length === 0) {
				return;
			}

			// What this frame shows, read as Ink draws it (its onRender calls us before it writes).
			const shown = latest.current.progress.handedOver();
			queueMicrotask(() => {
				flush.current(shown);
			});
		});
	}, [onFrame]);

	// Unpaused (the pager closed): what waited is arranged like a new entry.
	useEffect(() => {
		if (!paused) {
			if (onFrame === undefined) {
				flush.current(Number.POSITIVE_INFINITY);
			} else {
				arrange.current();
			}
		}
	}, [paused, onFrame]);
}
