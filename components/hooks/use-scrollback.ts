import {useEffect, useLayoutEffect, useReducer, useRef} from 'react';
import type {ScrollbackEntry} from '../session-model.js';
import {joinOutput, type TerminalOutput} from '../../src/layout/terminal-sink.js';

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
};

/**
Writes settled entries into the terminal's scrollback once the frame without them is on screen.

Ink's `write` erases the frame it drew last, writes the rows, then redraws that same frame. When a
card settles it is still in that frame (the running card, possibly taller than the screen), so
writing at once would put the card above a stale tall frame, and the next, shorter frame would leave
the card scrolled off with blank rows under the prompt. So an entry waits for the commit that drops
it from the live region and for Ink to draw that frame, then is written above the short frame.
*/
export function useScrollback({subscribe, render, write, paused, onFrame}: ScrollbackOptions): void {
	const pending = useRef<ScrollbackEntry[]>([]);
	const latest = useRef({render, write});
	latest.current = {render, write};
	const [request, requestFlush] = useReducer((value: number) => value + 1, 0);
	const [, bumpFrame] = useReducer((value: number) => value + 1, 0);

	useEffect(() => subscribe(entry => {
		pending.current.push(entry);
		// The controller publishes the snapshot without the card after it hands the card over.
		queueMicrotask(requestFlush);
	}), [subscribe]);

	useLayoutEffect(() => {
		if (paused || pending.current.length === 0) {
			return;
		}

		let done = false;
		const flush = (): void => {
			if (done) {
				return;
			}

			done = true;
			const entries = pending.current.splice(0);
			if (entries.length > 0) {
				latest.current.write(joinOutput(entries.map(entry => latest.current.render(entry))));
			}
		};

		if (onFrame === undefined) {
			const timer = setTimeout(flush, 50);
			return () => {
				clearTimeout(timer);
			};
		}

		const unsubscribe = onFrame(() => {
			// After Ink has written the frame of this commit (its onRender calls us before it writes).
			queueMicrotask(flush);
		});
		// Ink may have drawn this commit's frame already (before layout effects run): one more commit
		// guarantees a frame drawn from the current tree.
		bumpFrame();
		return () => {
			unsubscribe();
		};
	}, [request, paused, onFrame]);
}
