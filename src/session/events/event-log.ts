/**
@module The live event stream of a session: assigns contiguous seqs and times, and fans each event
out to its listeners (the fold, the log writer) synchronously, in seq order.
*/
import type {AcpNoteEvent, EventEnvelope, KnownEvent, SessionEvent, SurfaceOp, ToolProgressEvent} from './events.js';

/**
An event before the log numbers it: one of the arms `events.ts` declares, so a producer cannot write
what the reader would refuse. Types an older reader may not know are written `ignorable`.
*/
export type EventDraft = KnownEvent extends infer Event ? (Event extends EventEnvelope<infer Type, infer Data> ? {
	readonly type: Type;
	readonly data: Data;
	readonly surfaceOp?: SurfaceOp;
	readonly sourceEventSeqs?: readonly number[];
} & (Event extends ToolProgressEvent | AcpNoteEvent ? {readonly ignorable: true} : {readonly ignorable?: true}) : never) : never;

export type EventListener = (event: SessionEvent) => void;

export class EventLog {
	readonly #listeners = new Set<EventListener>();
	readonly #now: () => number;
	#seq: number;

	readonly #onListenerError: (error: unknown) => void;

	readonly #record: ((draft: EventDraft & {readonly time: number}) => SessionEvent) | undefined;

	/**
	`record`, when given, is the numbering authority (a log writer's `append`): it returns the event
	exactly as the log records it, so live listeners see what a replay will read back.
	*/
	constructor(options: {
		readonly firstSeq?: number;
		readonly now?: () => number;
		readonly onListenerError?: (error: unknown) => void;
		readonly record?: (draft: EventDraft & {readonly time: number}) => SessionEvent;
	} = {}) {
		this.#seq = options.firstSeq ?? 0;
		this.#now = options.now ?? Date.now;
		this.#onListenerError = options.onListenerError ?? (() => {});
		this.#record = options.record;
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
		const event = this.#record === undefined ? this.#number(draft) : this.#record({...draft, time: this.#now()});
		this.#seq = event.seq + 1;
		for (const listener of this.#listeners) {
			try {
				listener(event);
			} catch (error) {
				// A failing listener must not stop the session or the other listeners.
				this.#onListenerError(error);
			}
		}

		return event;
	}

	#number(draft: EventDraft): SessionEvent {
		return {
			type: draft.type,
			seq: this.#seq,
			time: this.#now(),
			data: draft.data,
			...(draft.ignorable ? {ignorable: true} : {}),
			...(draft.sourceEventSeqs === undefined ? {} : {sourceEventSeqs: draft.sourceEventSeqs}),
			...(draft.surfaceOp === undefined ? {} : {surfaceOp: draft.surfaceOp}),
		} as SessionEvent;
	}
}
