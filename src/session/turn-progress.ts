/**
@module A turn still running, as its events so far tell (for the status line while the model
works): when it started, its steps' usage summed by the turn boundary's own rule (`addUsage`), the
latency to the first token of the newest model attempt, and a retry being waited for. The pairing
keeps it with the turn's other open facts; views read it, nothing writes it but events.
*/
import type {Usage} from '../presentation/entry.js';

/** An `llm/retry` whose next attempt has not started yet (it starts at `startsAt`). */
export type RetryWait = {
	readonly attempt?: number;
	readonly maxAttempts?: number;
	readonly reason?: string;
	/** When the next attempt starts: the retry's time plus its delay. */
	readonly startsAt: number;
};

export type TurnProgress = {
	readonly turn: number;
	/** Time of its `turn/start`. */
	readonly startTime: number;
	/** Summed over its model steps so far; undefined until a step reported usage. */
	readonly usage?: Usage;
	/** From the newest attempt's start (its step's start, or the end of a retry's wait) to its first streamed token, once one came. */
	readonly firstTokenMs?: number;
	/** Set from an `llm/retry` until its attempt streams, another retry comes, or the step or turn ends. */
	readonly retry?: RetryWait;
};
