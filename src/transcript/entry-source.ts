import {emptyOutcomeCounts, type CardOutcome, type OutcomeCounts} from '../presentation/card-outcome.js';
import type {TranscriptEntry} from '../presentation/entry.js';
import type {DamagedLines} from '../session/reader/kept-diagnostics.js';
import type {ContextTimeline} from '../session/fold/context-timeline.js';

/**
Where the pager gets transcript entries: an in-memory list (a live session), or a lazy index over a
log file that may still be growing while it is built. `entry(index)` is synchronous and cheap for
visible entries.
*/
export type EntrySource = {
	/** Entries known so far. */
	count(): number;
	entry(index: number): TranscriptEntry | undefined;
	/** Whether the source is complete (false while a background index is still running). */
	complete(): boolean;
	/** Top-level cards by outcome (`card-outcome.ts`), kept by the source as it grows (never counted per frame). */
	counts?(): OutcomeCounts;
	/** What the model's context held at each step (the pager's "what the model knew"), where the source reads the events. */
	context?(): ContextTimeline | undefined;
	/** Fraction indexed, 0..1, when known. */
	progress?(): number | undefined;
	/** Called when count, completeness or progress change. */
	subscribe?(listener: () => void): () => void;
	/**
	Increments when entry numbers change meaning (a tail window replaced by the full index); `moved`
	maps an entry number of generation `from` to its number now (undefined when it is gone).
	*/
	generation?(): number;
	moved?(index: number, from: number): number | undefined;
	/**
	Whether entry numbers are provisional: a log's tail window, which the full index will renumber.
	The pager then counts positions back from the newest entry instead of from the first.
	*/
	provisional?(): boolean;
	/** Damaged lines of the log skipped so far (the pager names them on `!`). */
	damage?(): DamagedLines;
	/**
	What the status line calls the source now, instead of the pager's `title` (watch: the session
	and what its path holds — `following`, `log deleted · waiting`, `log replaced · reopened`).
	*/
	label?(): string | undefined;
};

/** A source over entries already in memory; their card counts are taken once. */
export function arrayEntrySource(entries: readonly TranscriptEntry[]): EntrySource {
	let counts: Record<CardOutcome, number> | undefined;
	return {
		count: () => entries.length,
		entry: index => entries[index],
		complete: () => true,
		counts() {
			if (counts === undefined) {
				counts = emptyOutcomeCounts();
				for (const entry of entries) {
					if (entry.entry === 'card') {
						counts[entry.card.outcome]++;
					}
				}
			}

			return counts;
		},
	};
}
