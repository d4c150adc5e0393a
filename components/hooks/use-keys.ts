import {useEffect, useLayoutEffect, useReducer, useRef} from 'react';
import {useStdin} from 'ink';
import {KeyStream} from '../input/key-stream.js';
import type {KeyPress} from '../input/keys.js';
import {pushAll} from '../../src/layout/text/push-all.js';

/** How long an open paste waits for more of itself before it is taken as ended. */
const PASTE_QUIET_MS = 50;

/**
Keys a screen had queued but not yet taken when it went (the pager closed by a `q` with more typed
behind it), per stdin: the person's typeahead, handed to the screen that takes keys in its place.
*/
const leftovers = new WeakMap<object, KeyPress[]>();

/** How a screen takes its keys. */
export type KeysOptions = {
	readonly isActive?: boolean;
	/**
	Hand typed text over one character at a time, each after the screen has rendered what the key
	before it did (the pager: its keys are single characters and its handler reads rendered state).
	Default: a chunk's keys at once, text runs whole (the prompt, whose line lives in a ref).
	*/
	readonly oneAtATime?: boolean;
};

/**
Key presses for a screen, parsed by cardterm's own parser (components/input/keys.ts) instead of
Ink's `useInput`, whose keypress parser throws on sequences such as SGR `ESC [ 0 m` (ink 6.8: a
`TypeError` in use-input.js that kills the app). Ink still owns stdin and raw mode; this hook listens
to the chunks Ink's reader emits and hands each key over in order.
*/
export function useKeys(handler: (press: KeyPress) => void, options: KeysOptions = {}): void {
	const {setRawMode, internal_eventEmitter: events} = useStdin();
	const active = options.isActive !== false;
	const oneAtATime = options.oneAtATime === true;
	const latest = useRef(handler);
	latest.current = handler;
	const queue = useRef<KeyPress[]>([]);
	// Bumped after each queued key, so one more commit follows it even when the key changed nothing.
	const [turn, nextTurn] = useReducer((value: number) => value + 1, 0);

	useEffect(() => {
		if (!active) {
			return;
		}

		setRawMode(true);
		return () => {
			setRawMode(false);
		};
	}, [active, setRawMode]);

	useEffect(() => {
		if (!active) {
			return;
		}

		const stream = new KeyStream();
		let pasteTimer: NodeJS.Timeout | undefined;
		const hand = (presses: readonly KeyPress[]): void => {
			if (!oneAtATime) {
				for (const press of presses) {
					latest.current(press);
				}

				return;
			}

			const idle = queue.current.length === 0;
			// Keys typed fast can be any number of characters: queued one by one, never spread.
			pushAll(queue.current, presses.flatMap(press => singleCharacters(press)));
			if (idle) {
				nextTurn();
			}
		};

		const onInput = (data: unknown): void => {
			clearTimeout(pasteTimer);
			hand(stream.feed(String(data)));
			if (stream.pasting) {
				// A paste whose end marker never comes (a broken terminal, stray bytes) ends after a quiet
				// moment, so input is never swallowed for good. The hop through setImmediate lets input
				// already waiting (an event loop that was busy) be read first.
				pasteTimer = setTimeout(() => {
					setImmediate(() => {
						if (stream.pasting) {
							const press = stream.endPaste();
							hand(press === undefined ? [] : [press]);
						}
					});
				}, PASTE_QUIET_MS);
			}
		};

		events.on('input', onInput);
		const handed = leftovers.get(events);
		if (handed !== undefined) {
			leftovers.delete(events);
			hand(handed);
		}

		return () => {
			clearTimeout(pasteTimer);
			if (queue.current.length > 0) {
				leftovers.set(events, [...(leftovers.get(events) ?? []), ...queue.current]);
				// Only for a screen that takes over in this same commit; never for one opened later.
				setImmediate(() => leftovers.delete(events));
			}

			queue.current = [];
			events.removeListener('input', onInput);
		};
	}, [active, events, oneAtATime]);

	// After the commit of each turn, the next queued key, with the handler of the state that commit
	// rendered; in a task of its own, so a long paste is a run of renders, never a nested update.
	useLayoutEffect(() => {
		if (queue.current.length === 0) {
			return;
		}

		const step = setImmediate(() => {
			const press = queue.current.shift();
			if (press !== undefined) {
				latest.current(press);
			}

			if (queue.current.length > 0) {
				nextTurn();
			}
		});
		return () => {
			clearImmediate(step);
		};
	}, [turn]);
}

/** A run of typed text as one key per character; any other key (a paste too) as it is. */
function singleCharacters(press: KeyPress): KeyPress[] {
	return Object.keys(press.key).length === 0 && press.input.length > 1 ? Array.from(press.input, input => ({input, key: {}})) : [press];
}
