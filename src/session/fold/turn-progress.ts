/**
@module A turn still running, as its events so far tell (for the status line while the model
works): when it started, its steps' usage summed by the turn boundary's own rule (`addUsage`), the
latency to the first token of the newest model attempt, a retry being waited for, and when the
model last sent something. The pairing keeps it with the turn's other open facts; views read it,
nothing writes it but events — so a live screen and a replay of the log at any point agree.
*/
import type {Usage} from '../../presentation/entry.js';

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
	/**
	While a model attempt is open (its step started, or its retry's wait ended, and its message has
	not come): when the model last sent something — the attempt's start, or its newest chunk, to the
	second (`DATA_CLOCK_MS`). The status line counts the silence from it.
	*/
	readonly lastDataAt?: number;
};

/** The granularity of `lastDataAt`: a silence is shown in whole seconds, so a streaming answer need not renew it at every chunk. */
export const DATA_CLOCK_MS = 1000;
