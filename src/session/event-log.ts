/**
@module The live event stream of a session: assigns contiguous seqs and times, and fans each event
out to its listeners (the fold, the log writer) synchronously, in seq order.
*/
import type {SessionEvent} from './events.js';

/** An event before the log numbers it. */
export type EventDraft = {
	readonly type: string;
	readonly data: unknown;
	readonly ignorable?: true;
	readonly surfaceOp?: SessionEvent['surfaceOp'];
	readonly sourceEventSeqs?: readonly number[];
};

export type EventListener = (event: SessionEvent) => void;

export class EventLog {
	readonly #listeners = new Set<EventListener>();
	readonly #now: () => number;
	#seq: number;

	readonly #onListenerError: (error: unknown) => void;

	constructor(options: {readonly firstSeq?: number; readonly now?: () => number; readonly onListenerError?: (error: unknown) => void} = {}) {
		this.#seq = options.firstSeq ?? 0;
		this.#now = options.now ?? Date.now;
		this.#onListenerError = options.onListenerError ?? (() => {});
	}

	/** The seq the next event will get. */
	get nextSeq(): number {
		return this.#seq;
	}

	/** Subscribe; returns the unsubscribe function. */
	listen(listener: EventListener): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	/** Number, timestamp and deliver one event. A throwing listener does not stop the others. */
	emit(draft: EventDraft): SessionEvent {
		const event = {
			type: draft.type,
			seq: this.#seq++,
			time: this.#now(),
			data: draft.data,
			...(draft.ignorable ? {ignorable: true} : {}),
			...(draft.sourceEventSeqs === undefined ? {} : {sourceEventSeqs: draft.sourceEventSeqs}),
			...(draft.surfaceOp === undefined ? {} : {surfaceOp: draft.surfaceOp}),
		} as SessionEvent;
		for (const listener of this.#listeners) {
			try {
				listener(event);
			} catch (error) {
				// A failing listener (a full disk under the writer, say) must not stop the session or the others.
				this.#onListenerError(error);
			}
		}

		return event;
	}
}
