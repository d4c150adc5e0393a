import {useCallback, useRef, useSyncExternalStore} from 'react';
import {isUrgentChange, pacedListener} from '../frame-pacing.js';
import type {LiveSnapshot, SessionModel} from '../session-model.js';

/**
The session's snapshot as the screen draws it: a change reaches React paced to a frame, an urgent
one (frame-pacing.ts) at once. A render for another reason (a key) draws the snapshot last handed
over, so a frame never shows a change before its turn nor loses one.
*/
export function usePacedSnapshot(model: SessionModel): LiveSnapshot {
	const drawn = useRef<LiveSnapshot | undefined>(undefined);
	drawn.current ??= model.getSnapshot();
	const subscribe = useCallback((listener: () => void) => {
		const paced = pacedListener(() => {
			drawn.current = model.getSnapshot();
			listener();
		});
		const unsubscribe = model.subscribe(() => {
			paced.notify(isUrgentChange(drawn.current!, model.getSnapshot()));
		});
		// A change between the first render and this subscription.
		if (model.getSnapshot() !== drawn.current) {
			paced.notify(true);
		}

		return () => {
			paced.dispose();
			unsubscribe();
		};
	}, [model]);
	const getSnapshot = useCallback(() => drawn.current!, []);
	return useSyncExternalStore(subscribe, getSnapshot);
}
