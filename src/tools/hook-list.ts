/**
@module An ordered list of hook listeners and the waterfall runner the registry's hooks share.
*/

/** Where `on(hook, listener, options)` inserts a listener. */
export type HookListenerOptions = {
	/** Insert before every existing listener, so this one becomes the outermost (or first) one. */
	readonly prepend?: boolean;
};

/**
Listeners in call order. A waterfall snapshots the list when it starts, so a listener added or
removed mid-run affects only later runs; `live()` is for guards, which may be live-iterated.
*/
export class HookList<Listener> {
	readonly #entries: Array<{readonly listener: Listener}> = [];

	/** Add `listener`; the disposer removes exactly this registration (the same function may be added twice). */
	add(listener: Listener, options?: HookListenerOptions): () => void {
		const entry = {listener};
		if (options?.prepend === true) {
			this.#entries.unshift(entry);
		} else {
			this.#entries.push(entry);
		}

		return () => {
			const index = this.#entries.indexOf(entry);
			if (index !== -1) {
				this.#entries.splice(index, 1);
			}
		};
	}

	/** A copy of the current listeners, outermost first. */
	snapshot(): Listener[] {
		return this.#entries.map(entry => entry.listener);
	}

	/** The listener at `index` in the live list (`undefined` past the end). */
	at(index: number): Listener | undefined {
		return this.#entries[index]?.listener;
	}

	/** How many listeners the live list holds. */
	get size(): number {
		return this.#entries.length;
	}
}

/** How a waterfall treats a listener that calls `next()` again. */
export type WaterfallOptions<Result> = {
	/**
	Whether a listener may call `next()` again after its previous call settled with `result` (a
	rejected `next()` always may). Absent: `next()` runs at most once per listener and call.
	*/
	readonly mayRetry?: (result: Result) => boolean;
};

/**
Run a waterfall: the first listener is outermost; each one's `next()` runs the next listener and
the last `next()` runs `fallback`. Not calling `next()` short-circuits. A listener that calls
`next()` a second time gets a rejection naming the hook, so a body can never run twice — unless
`mayRetry` lets it: then a `next()` that failed may be called again (the inner listeners and the
fallback run again), never while it is still running nor after it succeeded.
*/
export async function runWaterfall<Listener, Result>(
	hook: string,
	listeners: readonly Listener[],
	invoke: (listener: Listener, next: () => Promise<Result>) => Result | Promise<Result>,
	fallback: () => Promise<Result>,
	options: WaterfallOptions<Result> = {},
): Promise<Result> {
	const {mayRetry} = options;
	const step = async (index: number): Promise<Result> => {
		if (index === listeners.length) {
			return fallback();
		}

		const who = `${hook} listener ${index + 1}`;
		let state: 'unused' | 'running' | 'failed' | 'done' = 'unused';
		const next = async (): Promise<Result> => {
			if (mayRetry === undefined && state !== 'unused') {
				throw new Error(`${who} called next() more than once`);
			}

			if (state === 'running') {
				throw new Error(`${who} called next() again while its previous next() is still running`);
			}

			if (state === 'done') {
				throw new Error(`${who} called next() again after it succeeded`);
			}

			state = 'running';
			let result: Result;
			try {
				result = await step(index + 1);
			} catch (error) {
				state = 'failed';
				throw error;
			}

			state = mayRetryAfter(mayRetry, result) ? 'failed' : 'done';
			return result;
		};

		return invoke(listeners[index]!, next);
	};

	return step(0);
}

function mayRetryAfter<Result>(mayRetry: ((result: Result) => boolean) | undefined, result: Result): boolean {
	try {
		return mayRetry?.(result) === true;
	} catch {
		// A result whose failure cannot even be read is not one to retry.
		return false;
	}
}
