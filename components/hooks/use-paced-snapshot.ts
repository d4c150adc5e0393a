import {useCallback, useMemo, useRef, useSyncExternalStore} from 'react';
import {isUrgentChange, pacedListener} from '../frame-pacing.js';
import type {LiveSnapshot, SessionModel} from '../session-model.js';

/** The snapshot the screen draws, and how far the screen has come. */
export type PacedScreen = {
	readonly snapshot: LiveSnapshot;
	/** How many snapshots have been handed to the screen; a frame drawn now shows the last of them. */
	readonly handedOver: () => number;
	/** Whether the model holds a change not handed over yet. */
	readonly behind: () => boolean;
	/** Hand the model's snapshot over at the next paced frame (the scrollback waits for it). */
	readonly requestFrame: () => void;
};

/**
The session's snapshot as the screen draws it: a change reaches React paced to a frame, an urgent
one (frame-pacing.ts) at once. A render for another reason (a key) draws the snapshot last handed
over, so a frame never shows a change before its turn nor loses one.
*/
export function usePacedSnapshot(model: SessionModel): PacedScreen {
	const drawn = useRef<LiveSnapshot | undefined>(undefined);
	drawn.current ??= model.getSnapshot();
	const handedOver = useRef(0);
	const paced = useRef<ReturnType<typeof pacedListener> | undefined>(undefined);
	const subscribe = useCallback((listener: () => void) => {
		const listenerPaced = pacedListener(() => {
			drawn.current = model.getSnapshot();
			handedOver.current += 1;
			listener();
		});
		paced.current = listenerPaced;
		const unsubscribe = model.subscribe(() => {
			listenerPaced.notify(isUrgentChange(drawn.current!, model.getSnapshot()));
		});
		// A change between the first render and this subscription.
		if (model.getSnapshot() !== drawn.current) {
			listenerPaced.notify(true);
		}

		return () => {
			listenerPaced.dispose();
			if (paced.current === listenerPaced) {
				paced.current = undefined;
			}

			unsubscribe();
		};
	}, [model]);
	const getSnapshot = useCallback(() => drawn.current!, []);
	const snapshot = useSyncExternalStore(subscribe, getSnapshot);
	const progress = useMemo(() => ({
		handedOver: () => handedOver.current,
		behind: () => model.getSnapshot() !== drawn.current,
		requestFrame() {
			paced.current?.notify(false);
		},
	}), [model]);
	return {snapshot, ...progress};
}
