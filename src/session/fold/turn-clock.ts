/**
@module The turn clock: what each open turn's events said so far — when it started, what its model
steps cost, whether the model was retried, when its newest model attempt started, the latency to
that attempt's first token, a retry being waited for. Its turn's end entry reads the first four
(`TurnFacts`), the status line the rest (`TurnProgress`). One of the pairing's three machines
(`entry-pairing.ts`); it knows nothing of cards or streams.

`T` is the consumer's token for an event (the lazy log index keeps a line's position): a turn keeps
the tokens of the events its end entry is rebuilt from.
*/
import type {Usage} from '../../presentation/entry.js';
import {addUsage} from './entry-facts.js';
import {DATA_CLOCK_MS, type RetryWait, type TurnProgress} from './turn-progress.js';

/** What a turn's earlier events said, for its end entry; `lines` are those events' tokens. */
export type TurnFacts<T> = {readonly startTime?: number; readonly usage?: Usage; readonly lines: readonly T[]};

/** A turn that closed: its facts, and whether the model was asked in it (the person's message, a step, or a retried request). */
export type ClosedTurn<T> = TurnFacts<T> & {readonly askedModel: boolean};

type OpenTurn<T> = {
	startTime: number;
	usage?: Usage;
	lines: T[];
	modelSteps: number;
	retried: boolean;
	/** The person's message is in the turn: it was a prompt (to a model or an ACP agent), not a command. */
	prompted: boolean;
	attemptStart: number;
	firstTokenMs?: number;
	retry?: RetryWait;
	/** While a model attempt is open: when the model last sent something (`TurnProgress.lastDataAt`). */
	lastDataAt?: number;
};

/** What an `llm/retry` says (`retryFacts`). */
export type RetryFacts = {readonly attempt?: number; readonly maxAttempts?: number; readonly delayMs?: number; readonly reason?: string};

export class TurnClock<T> {
	/** Open turns by number, oldest first. */
	readonly #turns = new Map<number, OpenTurn<T>>();
	/** Bumped when the newest open turn's progress may have changed; its view is rebuilt once per change. */
	#version = 0;
	#progress: {readonly version: number; readonly view: TurnProgress | undefined} | undefined;

	/** The newest turn still open, as its events so far tell; undefined when none is. The same object until it changes. */
	get progress(): TurnProgress | undefined {
		if (this.#progress?.version !== this.#version) {
			let newest: [number, OpenTurn<T>] | undefined;
			for (const entry of this.#turns) {
				newest = entry;
			}

			const view: TurnProgress | undefined = newest === undefined ? undefined : {
				turn: newest[0],
				startTime: newest[1].startTime,
				...(newest[1].usage === undefined ? {} : {usage: newest[1].usage}),
				...(newest[1].firstTokenMs === undefined ? {} : {firstTokenMs: newest[1].firstTokenMs}),
				...(newest[1].retry === undefined ? {} : {retry: newest[1].retry}),
				...(newest[1].lastDataAt === undefined ? {} : {lastDataAt: newest[1].lastDataAt}),
			};
			this.#progress = {version: this.#version, view};
		}

		return this.#progress.view;
	}

	/** `turn/start`: the turn and its first model attempt start now. */
	start(turn: number, time: number, token: T | undefined): void {
		this.#turns.set(turn, {startTime: time, lines: token === undefined ? [] : [token], modelSteps: 0, retried: false, prompted: false, attemptStart: time});
		this.#version++;
	}

	/** `step/start`: a new model attempt; its latency is not known yet, and no retry is waited for. */
	stepStarted(turn: number, time: number): void {
		const open = this.#turns.get(turn);
		if (open !== undefined) {
			open.attemptStart = time;
			open.lastDataAt = time;
			open.firstTokenMs = undefined;
			open.retry = undefined;
			this.#version++;
		}
	}

	/**
	`llm/retry`: the next attempt starts after the delay. The model was asked even if it never
	answered, so the turn's end says how it ended (its token is kept when no step did).
	*/
	retried(turn: number, time: number, facts: RetryFacts, token: T | undefined): void {
		const open = this.#turns.get(turn);
		if (open === undefined) {
			return;
		}

		const {delayMs, ...said} = facts;
		const startsAt = time + (delayMs ?? 0);
		open.retry = {...said, startsAt};
		if (open.modelSteps === 0 && !open.retried && token !== undefined) {
			open.lines.push(token);
		}

		open.retried = true;
		open.attemptStart = startsAt;
		open.lastDataAt = startsAt;
		open.firstTokenMs = undefined;
		this.#version++;
	}

	/** A person's message: the newest open turn is a prompt, so its end says how it ended (an ACP agent may answer nothing before a cancel). */
	personSpoke(): void {
		let newest: OpenTurn<T> | undefined;
		for (const open of this.#turns.values()) {
			newest = open;
		}

		if (newest !== undefined) {
			newest.prompted = true;
		}
	}

	/** A token streamed: the first of its attempt gives the attempt's latency, and ends a retry's wait. */
	firstToken(turn: number, time: number): void {
		const open = this.#turns.get(turn);
		if (open === undefined || open.firstTokenMs !== undefined) {
			return;
		}

		open.firstTokenMs = Math.max(0, time - open.attemptStart);
		open.retry = undefined;
		this.#version++;
	}

	/** The model sent something in `turn`: the silence counts from here (renewed once a second, not per chunk). */
	modelData(turn: number, time: number): void {
		const open = this.#turns.get(turn);
		if (open?.lastDataAt !== undefined && time - open.lastDataAt >= DATA_CLOCK_MS) {
			open.lastDataAt = time;
			this.#version++;
		}
	}

	/** An `assistant/message`: a model step, with what it cost. The end entry is rebuilt from the first step and every step with usage. */
	modelStep(turn: number, usage: Usage | undefined, token: T | undefined): void {
		const open = this.#turns.get(turn);
		if (open === undefined) {
			return;
		}

		open.modelSteps++;
		open.usage = addUsage(open.usage, usage);
		// The model has answered: what follows (its calls) is not a wait for it.
		if (usage !== undefined || open.lastDataAt !== undefined) {
			open.lastDataAt = undefined;
			this.#version++;
		}

		if (token !== undefined && (open.modelSteps === 1 || usage !== undefined)) {
			open.lines.push(token);
		}
	}

	/** `turn/end`: the turn closes; what it said, or `undefined` when it never started. */
	end(turn: number): ClosedTurn<T> | undefined {
		const open = this.#turns.get(turn);
		this.#turns.delete(turn);
		this.#version++;
		if (open === undefined) {
			return undefined;
		}

		return {startTime: open.startTime, ...(open.usage === undefined ? {} : {usage: open.usage}), lines: open.lines, askedModel: open.prompted || open.modelSteps > 0 || open.retried};
	}
}
