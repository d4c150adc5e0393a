/**
@module An entry source for the pager fed by a stream of events (a log being read, or a log another
process is still writing): the fold runs as events arrive and the pager hears about it at most every
`intervalMs`, so a fast reader does not redraw per event. A followed log that is replaced starts the
cards over (`reset`).
*/
import type {EntrySource} from './entry-source.js';
import type {OutcomeCounts} from '../presentation/card-outcome.js';
import type {SessionEvent} from '../session/events/events.js';
import type {SessionFold} from '../session/fold/fold.js';
import type {ContextTimeline} from '../session/fold/context-timeline.js';
import {KeptDiagnostics, type DamagedLines} from '../session/reader/kept-diagnostics.js';
import type {LogDiagnostic} from '../session/reader/log-errors.js';
import {ThrottledSignal} from './throttled-signal.js';

export class FoldedEntrySource implements EntrySource {
	#fold: SessionFold;
	readonly #signal: ThrottledSignal;
	readonly #damage = new KeptDiagnostics();
	#generation = 0;
	#label: string | undefined;
	#complete = false;
	#error: Error | undefined;

	constructor(fold: SessionFold, options: {readonly intervalMs?: number} = {}) {
		this.#fold = fold;
		this.#signal = new ThrottledSignal(options.intervalMs ?? 100);
	}

	/** Entries, then the open tail (a streaming step's text and `preparing` rows). */
	count(): number {
		return this.#fold.entries.length + this.#fold.tail.length;
	}

	entry(index: number) {
		const {entries} = this.#fold;
		return index < entries.length ? entries[index] : this.#fold.tail[index - entries.length];
	}

	complete(): boolean {
		return this.#complete;
	}

	progress(): number | undefined {
		// The stream's length is unknown: no fraction until it ends.
		return this.#complete ? 1 : undefined;
	}

	counts(): OutcomeCounts {
		return this.#fold.counts;
	}

	context(): ContextTimeline | undefined {
		return this.#fold.context;
	}

	damage(): DamagedLines {
		return this.#damage;
	}

	/** A damaged line the reader skipped. */
	report(diagnostic: LogDiagnostic): void {
		this.#damage.add(diagnostic);
		this.#signal.schedule();
	}

	label(): string | undefined {
		return this.#label;
	}

	setLabel(label: string): void {
		this.#label = label;
		this.#signal.fire();
	}

	/** Incremented by `reset`: the cards before it are gone. */
	generation(): number {
		return this.#generation;
	}

	moved(index: number, from: number): number | undefined {
		return from === this.#generation ? index : undefined;
	}

	/** Drops every card and damaged line and folds on into `fold` (the log was replaced or truncated). */
	reset(fold: SessionFold): void {
		this.#fold = fold;
		this.#damage.clear();
		this.#generation++;
		this.#signal.fire();
	}

	/** A reading error that ended the stream early. */
	get error(): Error | undefined {
		return this.#error;
	}

	subscribe(listener: () => void): () => void {
		return this.#signal.subscribe(listener);
	}

	/** Fold every event of `events` (a stream with no known end: stdin, or a log being followed). */
	async consume(events: AsyncIterable<SessionEvent>): Promise<void> {
		try {
			for await (const event of events) {
				this.#fold.apply(event);
				this.#signal.schedule();
			}
		} catch (error) {
			this.#error = error instanceof Error ? error : new Error(String(error));
		} finally {
			this.#complete = true;
			this.#signal.fire();
		}
	}
}
