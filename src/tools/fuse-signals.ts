/**
@module The body's signal: aborts when either the caller's or the wrapper's signal aborts
(contract.md §T3.9, "Signal fusion").
*/

/** A fused signal and the function that detaches it from its sources once the body settles. */
export type FusedSignal = {readonly signal: AbortSignal; detach(): void};

/**
Fuse `caller` and `wrapper`. The same object twice is used directly. Otherwise a new signal aborts
with the reason of whichever source aborts first (or is already aborted, caller first); the
sources themselves are never aborted here.
*/
export function fuseSignals(caller: AbortSignal, wrapper: AbortSignal): FusedSignal {
	if (caller === wrapper) {
		return {signal: caller, detach() {}};
	}

	const controller = new AbortController();
	const sources = [caller, wrapper];
	const listeners: Array<() => void> = [];
	const detach = (): void => {
		for (const [index, source] of sources.entries()) {
			const listener = listeners[index];
			if (listener !== undefined) {
				source.removeEventListener('abort', listener);
			}
		}

		listeners.length = 0;
	};

	for (const source of sources) {
		if (source.aborted) {
			controller.abort(source.reason);
			return {signal: controller.signal, detach() {}};
		}
	}

	for (const source of sources) {
		const listener = (): void => {
			detach();
			controller.abort(source.reason);
		};

		listeners.push(listener);
		source.addEventListener('abort', listener, {once: true});
	}

	return {signal: controller.signal, detach};
}
