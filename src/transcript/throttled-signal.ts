/**
Tells its listeners about changes at most once per `intervalMs` (`schedule`), or at once (`fire`):
a source that takes thousands of events a second must not redraw the pager per event.
*/
export class ThrottledSignal {
	readonly #listeners = new Set<() => void>();
	readonly #intervalMs: number;
	#timer: NodeJS.Timeout | undefined;

	constructor(intervalMs: number) {
		this.#intervalMs = intervalMs;
	}

	subscribe(listener: () => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	/** Fire within `intervalMs`, once however often this is called meanwhile. */
	schedule(): void {
		this.#timer ??= setTimeout(() => {
			this.#timer = undefined;
			this.fire();
		}, this.#intervalMs);
	}

	/** Fire now (and drop a pending scheduled fire). */
	fire(): void {
		this.cancel();
		for (const listener of this.#listeners) {
			listener();
		}
	}

	/** Drop a pending scheduled fire. */
	cancel(): void {
		clearTimeout(this.#timer);
		this.#timer = undefined;
	}
}
