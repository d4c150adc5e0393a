/**
@module What a live session model (`SessionModel`) owes the app, apart from its snapshot: change
listeners, one scrollback listener that gets every entry in order — those emitted before the app
listened included — and the pager a command asks the screen to open.
*/
import type {ScrollbackEntry} from '../../components/session-model.js';

export class LiveChannel {
	readonly #listeners = new Set<() => void>();
	readonly #pending: ScrollbackEntry[] = [];
	#scrollback: ((entry: ScrollbackEntry) => void) | undefined;
	readonly #pagerListeners = new Set<() => void>();

	subscribe(listener: () => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	/** Tell every listener the snapshot changed. */
	notify(): void {
		for (const listener of this.#listeners) {
			listener();
		}
	}

	/** The one scrollback listener; entries emitted while there was none are handed over first. */
	onScrollback(listener: (entry: ScrollbackEntry) => void): () => void {
		this.#scrollback = listener;
		for (const entry of this.#pending.splice(0)) {
			listener(entry);
		}

		return () => {
			if (this.#scrollback === listener) {
				this.#scrollback = undefined;
			}
		};
	}

	emit(entry: ScrollbackEntry): void {
		if (this.#scrollback === undefined) {
			this.#pending.push(entry);
		} else {
			this.#scrollback(entry);
		}
	}

	/** The screen opens the pager when asked (`/pager`). */
	onOpenPager(listener: () => void): () => void {
		this.#pagerListeners.add(listener);
		return () => this.#pagerListeners.delete(listener);
	}

	openPager(): void {
		for (const listener of this.#pagerListeners) {
			listener();
		}
	}
}
