import type {Card, CardStatus} from '../src/presentation/card.js';
import type {DamagedLines} from '../src/session/kept-diagnostics.js';

/**
Where the pager gets cards: an in-memory list (a live session), or a lazy index over a log file that
may still be growing while it is built. `card(index)` is synchronous and cheap for visible cards.
*/
export type CardSource = {
	/** Cards known so far. */
	count(): number;
	card(index: number): Card | undefined;
	/** Whether the source is complete (false while a background index is still running). */
	complete(): boolean;
	/** Cards by status, kept by the source as it grows (never counted per frame). */
	counts?(): Readonly<Record<CardStatus, number>>;
	/** Fraction indexed, 0..1, when known. */
	progress?(): number | undefined;
	/** Called when count, completeness or progress change. */
	subscribe?(listener: () => void): () => void;
	/**
	Increments when card numbers change meaning (a tail window replaced by the full index); `moved`
	maps a card number of generation `from` to its number now (undefined when it is gone).
	*/
	generation?(): number;
	moved?(index: number, from: number): number | undefined;
	/** Damaged lines of the log skipped so far (the pager names them on `!`). */
	damage?(): DamagedLines;
	/**
	What the status line calls the source now, instead of the pager's `title` (watch: the session
	and what its path holds — `following`, `log deleted · waiting`, `log replaced · reopened`).
	*/
	label?(): string | undefined;
};

/** A source over cards already in memory; their counts are taken once. */
export function arrayCardSource(cards: readonly Card[]): CardSource {
	let counts: Record<CardStatus, number> | undefined;
	return {
		count: () => cards.length,
		card: index => cards[index],
		complete: () => true,
		counts() {
			if (counts === undefined) {
				counts = {running: 0, ok: 0, error: 0, cancelled: 0, interrupted: 0};
				for (const card of cards) {
					// A command that exited non-zero is a failure to the user, whatever the call's status.
					counts[card.status === 'ok' && card.failedExit ? 'error' : card.status]++;
				}
			}

			return counts;
		},
	};
}
