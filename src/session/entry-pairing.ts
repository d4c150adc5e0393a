/**
@module The pairing rules: which transcript entry each event belongs to. The in-memory fold
(`fold.ts`) and the lazy log index both route every event through one `EntryPairing`, so a rule —
a result pairing with the newest unanswered call of its id, a step closing its running calls, a
late result settling an interrupted card, an orphan result becoming a card of its own, which events
are messages, turns, notices and todo lists — exists once. The pairing parses each event's fields
once (`call-facts.ts`, `entry-facts.ts`), numbers entries in transcript order, and tracks each
card's outcome (by the one rule, `card-outcome.ts`); it builds nothing: what an entry looks like is the consumer's business.

A step's streamed output (`assistant/chunk`: text, reasoning, tool calls being prepared) is not an
entry while it streams: it is the transcript's open tail (`streams`), after every entry. Its
`assistant/message` is the entry that replaces it (same place at the end, a later revision); a step
that closes without one keeps its visible text as an interrupted entry; a `preparing` row goes when
its `tool/call` arrives, and the rest when the step ends or the model is retried (§3.4).
*/
import type {CardStatus} from '../presentation/card.js';
import {type ApprovalStanding, type CardOutcome, type OutcomeCounts, approvalStanding, cardOutcome, cardOutcomes, emptyOutcomeCounts, outcomeStatus} from '../presentation/card-outcome.js';
import {addTo} from './add-to-set-map.js';
import {
	type ApprovalAskedFacts, type ApprovalDecidedFacts, type CallFacts, type ChildSettleFacts, type ChildStartFacts, type ResultFacts,
	announcedCalls, approvalAskedFacts, approvalDecidedFacts, callFacts, childSettleFacts, childStartFacts, progressFacts, resultFacts,
} from './call-facts.js';
import {chunkFacts, type TextDelta} from './chunk-facts.js';
import {addUsage, assistantFacts, contentText, isNoticeType, noticeFacts, pluginNotice, retryFacts, todoItems, turnOutcome, userMessageSource} from './entry-facts.js';
import {DATA_CLOCK_MS, type RetryWait, type TurnProgress} from './turn-progress.js';
import type {Usage} from '../presentation/entry.js';
import type {SessionEvent} from './events.js';
import {isKnownEventType} from './event-vocabulary.js';

/** Entry kinds other than cards, as the pairing creates them. */
export type MessageKind = 'user' | 'assistant' | 'turn' | 'notice' | 'todo';

/**
A tool call an `assistant/message` named before its `tool/call` (it titles an orphan result), with
the consumer's token for that message (the log index keeps the line's position).
*/
export type Announcement<T> = {readonly name: string; readonly argsRaw: string; readonly token: T | undefined};

/** What one event does to the cards. `card` numbers cards in transcript order from 0. */
export type Pairing<T = undefined> =
	| {readonly op: 'none'}
	/** The event was meant for a card but cannot be used; `reason` says why. */
	| {readonly op: 'note'; readonly reason: string}
	| {readonly op: 'call'; readonly card: number; readonly call: CallFacts}
	/**
	A result settles `card`. `created`: the card is new (an orphan result, titled by `announced` when
	an assistant message named the call); `orphan` when nothing names it (its call view is unknown).
	*/
	| {readonly op: 'result'; readonly card: number; readonly created: boolean; readonly orphan: boolean; readonly announced?: Announcement<T>; readonly result: ResultFacts}
	/** A Code Mode sub-call starts: under `card`, or as a card of its own (`created`) when its parent is not in the log. */
	| {readonly op: 'child-start'; readonly card: number; readonly created: boolean; readonly child: ChildStartFacts}
	/** A sub-call settles: under `card`, or `card` itself when it is a parentless sub-call (`topLevel`). */
	| {readonly op: 'child-settle'; readonly card: number; readonly topLevel: boolean; readonly child: ChildSettleFacts}
	/** A step or turn closed with these cards still running (ascending). */
	| {readonly op: 'interrupt'; readonly cards: readonly number[]}
	| {readonly op: 'approval-asked'; readonly card: number; readonly approval: ApprovalAskedFacts}
	| {readonly op: 'approval-decided'; readonly card: number; readonly approval: ApprovalDecidedFacts}
	| {readonly op: 'progress'; readonly card: number; readonly text: string}
	/**
	A new entry of another kind, from this event. A `turn` entry also depends on earlier events of its
	turn (its start, the usage of its steps): `turn` carries what they said, `lines` their tokens.
	*/
	| {
		readonly op: 'entry'; readonly entry: number; readonly kind: MessageKind; readonly turn?: TurnFacts<T>; readonly interrupted?: readonly number[];
		/** An assistant entry that replaces a stream: its revision follows the stream's, and `stream` says which and how. */
		readonly revision?: number;
		readonly stream?: StreamEnd<T>;
	}
	/** A chunk changed the open stream `key`; `delta` is text or reasoning to append. */
	| {readonly op: 'stream'; readonly key: string; readonly delta?: TextDelta};

/**
How a stream became an entry: its step's `assistant/message` (the entry is the message), or the step
closed without one (`close`: the entry is the streamed text, interrupted; `lines` are its deltas' tokens).
*/
export type StreamEnd<T> = {readonly key: string; readonly from: 'message'} | {readonly key: string; readonly from: 'close'; readonly turn: number; readonly step: number; readonly lines: readonly T[]};

/** A step's output while it streams: the transcript's open tail. */
export type OpenStream<T> = {
	readonly key: string;
	readonly turn: number;
	readonly step: number;
	/** Seq and time of its first chunk. */
	readonly seq: number;
	readonly time: number;
	/** Text and reasoning still stream (until the step's `assistant/message`). */
	readonly textOpen: boolean;
	/** Some streamed text or reasoning is not blank. */
	readonly visible: boolean;
	/** Names of the tool calls being prepared, oldest first (`undefined`: no delta named it yet). */
	readonly preparing: ReadonlyArray<string | undefined>;
	/** Tokens of its text and reasoning chunk events, in order (the log index rebuilds the text from them). */
	readonly lines: readonly T[];
	/** Changes so far: the tail entry's revision. */
	readonly revision: number;
};

type MutableStream<T> = {
	key: string; turn: number; step: number; seq: number; time: number; textOpen: boolean; visible: boolean;
	calls: Map<string, string | undefined>; lines: T[]; revision: number;
};

/** What a turn's earlier events said, for its end entry. */
export type TurnFacts<T> = {readonly startTime?: number; readonly usage?: Usage; readonly lines: readonly T[]};

/**
A turn still open: when it started and what its steps cost, with the tokens of those events; and,
for its progress while it runs, when its newest model attempt started, its first token's latency
and a retry being waited for.
*/
type OpenTurn<T> = {startTime?: number; usage?: Usage; lines: T[]; modelSteps: number; retried?: boolean; attemptStart?: number; firstTokenMs?: number; retry?: RetryWait; lastDataAt?: number};

const none: Pairing<never> = Object.freeze({op: 'none'});
/** Streams kept open at most, and tool calls being prepared per stream: bounds against hostile logs (a step streams one at a time, with a few calls). */
export const MAX_OPEN_STREAMS = 8;
export const MAX_PREPARING_CALLS = 64;
const noteOf = (reason: string): Pairing<never> => ({op: 'note', reason});
/** `#approval` codes: 0 is none. */
const approvalCodes: ReadonlyArray<ApprovalStanding | undefined> = [undefined, 'asked', 'allowed', 'refused'];
/** `#kinds` codes: 0 is a card. */
const kindCodes: ReadonlyArray<'card' | MessageKind> = ['card', 'user', 'assistant', 'turn', 'notice', 'todo'];
const RUNNING = cardOutcomes.indexOf('running');
const INTERRUPTED = cardOutcomes.indexOf('interrupted');

/** The event types that can change a card's outcome (`sessions` reads only these lines to count cards). */
export const cardEventTypes: ReadonlySet<string> = new Set([
	'tool/call', 'tool/result', 'tool/code-dispatch-start', 'tool/code-dispatch', 'step/end', 'turn/end', 'approval/asked', 'approval/decided',
]);

type Fields = Record<string, unknown>;
const isRecord = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isInt = (value: unknown): value is number => Number.isSafeInteger(value);

/**
The pairing state of one session. Memory per entry is a few numbers (and a card's call id); per
open call, step, turn, approval and sub-call an entry that goes when it closes.
*/
export class EntryPairing<T = undefined> {
	#count = 0;
	#capacity = 1024;
	/** Seq of the event that created card i (its key; strictly increasing). */
	#seqs = new Float64Array(this.#capacity);
	/** Outcome code of card i (index into `cardOutcomes`). */
	#outcome = new Uint8Array(this.#capacity);
	/** Where card i's approval stands (index into `approvalCodes`). */
	#approval = new Uint8Array(this.#capacity);
	/** 1 once card i has a result (an interrupted card without one can still be settled late). */
	#settled = new Uint8Array(this.#capacity);
	/** 1 when entry i was created by its own anchor event (not an orphan result or a parentless sub-call). */
	#anchored = new Uint8Array(this.#capacity);
	/** Kind code of entry i (index into `kindCodes`). */
	#kinds = new Uint8Array(this.#capacity);
	/** Running card i's turn and step, to untrack it (NaN: not tracked / no step). */
	#turns = new Float64Array(this.#capacity);
	#steps = new Float64Array(this.#capacity);
	readonly #callIds: string[] = [];
	/** callId → its unanswered cards, oldest first (a result pairs with the newest). */
	readonly #open = new Map<string, number[]>();
	/** callId → the latest card with it. */
	readonly #latest = new Map<string, number>();
	readonly #runningByStep = new Map<string, Set<number>>();
	readonly #runningByTurn = new Map<number, Set<number>>();
	readonly #announced = new Map<string, Announcement<T>>();
	/** approval id → card. */
	readonly #approvals = new Map<string, number>();
	/** subCallId → the card holding it (its parent, or itself when the parent is missing). */
	readonly #children = new Map<string, number>();
	readonly #topLevelChildren = new Set<string>();
	readonly #counts: Record<CardOutcome, number> = emptyOutcomeCounts();
	readonly #turnsOpen = new Map<number, OpenTurn<T>>();
	/** Open streams by `turn:step`, oldest first. */
	readonly #streams = new Map<string, MutableStream<T>>();
	#streamsVersion = 0;
	#views: {readonly version: number; readonly all: ReadonlyArray<OpenStream<T>>; readonly shown: ReadonlyArray<OpenStream<T>>} | undefined;
	/** Bumped when the newest open turn's progress changes; its view is rebuilt once per change. */
	#progressVersion = 0;
	#progress: {readonly version: number; readonly view: TurnProgress | undefined} | undefined;

	/** Entries so far. */
	get count(): number {
		return this.#count;
	}

	/** Card counts by outcome. */
	get counts(): OutcomeCounts {
		return {...this.#counts};
	}

	/** The open streams (the transcript's tail after every entry), oldest first. Rebuilt once per change. */
	get streams(): ReadonlyArray<OpenStream<T>> {
		return this.#streamViews().all;
	}

	/** The open streams with something to show (visible text, or a call being prepared): the tail entries. */
	get shownStreams(): ReadonlyArray<OpenStream<T>> {
		return this.#streamViews().shown;
	}

	/** The newest turn still open, as its events so far tell (`turn-progress.ts`); undefined when none is. */
	get turnProgress(): TurnProgress | undefined {
		if (this.#progress?.version !== this.#progressVersion) {
			let newest: [number, OpenTurn<T>] | undefined;
			for (const entry of this.#turnsOpen) {
				newest = entry;
			}

			const turn = newest?.[1];
			const view: TurnProgress | undefined = newest === undefined || turn?.startTime === undefined ? undefined : {
				turn: newest[0],
				startTime: turn.startTime,
				...(turn.usage === undefined ? {} : {usage: turn.usage}),
				...(turn.firstTokenMs === undefined ? {} : {firstTokenMs: turn.firstTokenMs}),
				...(turn.retry === undefined ? {} : {retry: turn.retry}),
				...(turn.lastDataAt === undefined ? {} : {lastDataAt: turn.lastDataAt}),
			};
			this.#progress = {version: this.#progressVersion, view};
		}

		return this.#progress.view;
	}

	/** Whether the text of stream `key` still streams. */
	textOpen(key: string): boolean {
		return this.#streams.get(key)?.textOpen === true;
	}

	#streamViews(): {readonly all: ReadonlyArray<OpenStream<T>>; readonly shown: ReadonlyArray<OpenStream<T>>} {
		if (this.#views?.version !== this.#streamsVersion) {
			const all: Array<OpenStream<T>> = [];
			const shown: Array<OpenStream<T>> = [];
			for (const stream of this.#streams.values()) {
				const view: OpenStream<T> = {
					key: stream.key, turn: stream.turn, step: stream.step, seq: stream.seq, time: stream.time, textOpen: stream.textOpen,
					visible: stream.visible, preparing: [...stream.calls.values()], lines: stream.lines, revision: stream.revision,
				};
				all.push(view);
				if ((view.textOpen && view.visible) || view.preparing.length > 0) {
					shown.push(view);
				}
			}

			this.#views = {version: this.#streamsVersion, all, shown};
		}

		return this.#views;
	}

	/** Increments whenever `streams` changes. */
	get streamsVersion(): number {
		return this.#streamsVersion;
	}

	/** The kind of entry `entry`. */
	kindOf(entry: number): 'card' | MessageKind | undefined {
		return entry >= 0 && entry < this.#count ? kindCodes[this.#kinds[entry]!] : undefined;
	}

	/** The anchor seq (key) of entry `card`. */
	seqOf(card: number): number | undefined {
		return card >= 0 && card < this.#count ? this.#seqs[card] : undefined;
	}

	/** The entry whose anchor seq is `seq` (binary search: seqs increase). */
	entryOfSeq(seq: number): number | undefined {
		let low = 0;
		let high = this.#count - 1;
		while (low <= high) {
			const middle = (low + high) >>> 1;
			const value = this.#seqs[middle]!;
			if (value === seq) {
				return middle;
			}

			if (value < seq) {
				low = middle + 1;
			} else {
				high = middle - 1;
			}
		}

		return undefined;
	}

	/** The outcome of entry `card` when it is a card. */
	outcomeOf(card: number): CardOutcome | undefined {
		return card >= 0 && card < this.#count && this.#kinds[card] === 0 ? cardOutcomes[this.#outcome[card]!] : undefined;
	}

	/** The status of entry `card` when it is a card. */
	statusOf(card: number): CardStatus | undefined {
		const outcome = this.outcomeOf(card);
		return outcome === undefined ? undefined : outcomeStatus(outcome);
	}

	/** Whether entry `entry` was created by its own anchor event (a `tool/call`, a message, …), not by a result or sub-call whose call is missing. */
	anchored(entry: number): boolean {
		return this.#anchored[entry] === 1;
	}

	callIdOf(card: number): string | undefined {
		return this.#callIds[card];
	}

	/** The most recent card with this call id, answered or not. */
	latestCard(callId: string): number | undefined {
		return this.#latest.get(callId);
	}

	/** Decides what `event` does to the cards and updates the pairing state; `token` stands for the event in an announcement. */
	route(event: SessionEvent, token?: T): Pairing<T> {
		const data: unknown = event.data;
		switch (event.type) {
			case 'tool/call': {
				const pairing = this.#call(event.seq, data);
				if (pairing.op === 'call') {
					this.#prepared(pairing.call.callId, pairing.call.turn, pairing.call.step);
				}

				return pairing;
			}

			case 'assistant/chunk': {
				return this.#chunk(event, data, token);
			}

			case 'llm/retry': {
				// A retried attempt streams again from the start: what the failed one streamed is void.
				this.#dropStreams(stream => !isRecord(data) || !isInt(data.turn) || stream.turn === data.turn);
				const turn = isRecord(data) && isInt(data.turn) ? this.#turnsOpen.get(data.turn) : undefined;
				if (turn !== undefined) {
					const {delayMs, ...said} = retryFacts(data);
					const startsAt = event.time + (delayMs ?? 0);
					turn.retry = {...said, startsAt};
					// The model was asked even if it never answered: the turn's end says how it ended.
					if (turn.modelSteps === 0 && turn.retried !== true && token !== undefined) {
						turn.lines.push(token);
					}

					turn.retried = true;
					turn.attemptStart = startsAt;
					turn.lastDataAt = startsAt;
					turn.firstTokenMs = undefined;
					this.#progressVersion++;
				}

				return this.#notice(event);
			}

			case 'step/start': {
				const turn = isRecord(data) && isInt(data.turn) ? this.#turnsOpen.get(data.turn) : undefined;
				if (turn !== undefined) {
					turn.attemptStart = event.time;
					turn.lastDataAt = event.time;
					turn.firstTokenMs = undefined;
					turn.retry = undefined;
					this.#progressVersion++;
				}

				return this.#notice(event);
			}

			case 'tool/result': {
				// A replacement result is a context rewrite by compaction, not an execution.
				return isRecord(event.surfaceOp) ? none : this.#result(event.seq, data);
			}

			case 'tool/code-dispatch-start': {
				return this.#childStart(event.seq, data);
			}

			case 'tool/code-dispatch': {
				return this.#childSettle(data);
			}

			case 'step/end': {
				return isRecord(data) && isInt(data.turn) && isInt(data.step) ? this.#stepEnd(event.seq, data.turn, data.step) : noteOf('step/end without integer turn and step');
			}

			case 'turn/start': {
				if (isRecord(data) && isInt(data.turn)) {
					this.#turnsOpen.set(data.turn, {startTime: event.time, lines: token === undefined ? [] : [token], modelSteps: 0, attemptStart: event.time});
					this.#progressVersion++;
				}

				return none;
			}

			case 'turn/end': {
				if (!isRecord(data) || !isInt(data.turn)) {
					return noteOf('turn/end without an integer turn');
				}

				// A turn that ends without its step's end (no crash repair): what still streams is dropped.
				const turnNumber = data.turn;
				this.#dropStreams(stream => stream.turn === turnNumber);
				this.#progressVersion++;
				return this.#turnEnd(event.seq, turnNumber, data.reason);
			}

			case 'user/message':
			case 'steering/message': {
				if (isRecord(event.surfaceOp)) {
					return none;
				}

				const from = userMessageSource(data);
				if (from.kind === 'notice') {
					return pluginNotice(from.source, data) === undefined ? none : this.#entry(event.seq, 'notice');
				}

				return contentText(isRecord(data) ? data.content : undefined).trim() === '' ? none : this.#entry(event.seq, 'user');
			}

			case 'todo/write': {
				return todoItems(data) === undefined ? noteOf('todo/write without a todos array') : this.#entry(event.seq, 'todo');
			}

			case 'approval/asked': {
				const approval = approvalAskedFacts(data);
				if (typeof approval === 'string') {
					return noteOf(approval);
				}

				const card = approval.callId === undefined ? undefined : this.#latestKey(approval.callId);
				if (card === undefined) {
					return none;
				}

				this.#approvals.set(approval.id, card);
				this.#judgeApproval(card, 'asked');
				return {op: 'approval-asked', card, approval};
			}

			case 'approval/decided': {
				const approval = approvalDecidedFacts(data);
				if (typeof approval === 'string') {
					return noteOf(approval);
				}

				const card = this.#approvals.get(approval.id);
				if (card === undefined) {
					return none;
				}

				this.#approvals.delete(approval.id);
				this.#judgeApproval(card, approvalStanding(approval.outcome));
				return {op: 'approval-decided', card, approval};
			}

			case 'cardterm/tool-progress': {
				const progress = progressFacts(data);
				const card = progress === undefined ? undefined : this.#openKey(progress.callId);
				return card === undefined ? none : {op: 'progress', card, text: progress!.text};
			}

			case 'assistant/message': {
				if (isRecord(event.surfaceOp)) {
					return none;
				}

				for (const call of announcedCalls(data)) {
					if (!this.#open.has(call.id)) {
						this.#announced.set(call.id, {name: call.name, argsRaw: call.argsRaw, token});
					}
				}

				const facts = assistantFacts(data);
				const turn = isRecord(data) && isInt(data.turn) ? this.#turnsOpen.get(data.turn) : undefined;
				if (turn !== undefined) {
					turn.modelSteps++;
					turn.usage = addUsage(turn.usage, facts.usage);
					// The model has answered: what follows (its calls) is not a wait for it.
					if (facts.usage !== undefined || turn.lastDataAt !== undefined) {
						turn.lastDataAt = undefined;
						this.#progressVersion++;
					}

					// The turn's end is rebuilt from these: the first step (that there was one) and every step with usage.
					if (token !== undefined && (turn.modelSteps === 1 || facts.usage !== undefined)) {
						turn.lines.push(token);
					}
				}

				const stream = isRecord(data) && isInt(data.turn) && isInt(data.step) ? this.#streams.get(`${data.turn}:${data.step}`) : undefined;
				const revision = stream?.textOpen === true ? this.#closeText(stream) : undefined;
				if (facts.text.trim() === '' && facts.reasoning.trim() === '') {
					return none;
				}

				const entry = this.#entry(event.seq, 'assistant');
				return revision === undefined || entry.op !== 'entry' ? entry : {...entry, revision, stream: {key: stream!.key, from: 'message'}};
			}

			default: {
				return this.#notice(event);
			}
		}
	}

	/** Notices; an event of a type no vocabulary knows (passed as ignorable) shows only when it carries text. */
	#notice(event: SessionEvent): Pairing<T> {
		const shown = (isNoticeType(event.type) || !isKnownEventType(event.type)) && noticeFacts(event.type, event.data) !== undefined;
		return shown ? this.#entry(event.seq, 'notice') : none;
	}

	#chunk(event: SessionEvent, data: unknown, token: T | undefined): Pairing<T> {
		const facts = chunkFacts(data);
		if (typeof facts === 'string') {
			return noteOf(facts);
		}

		const {delta} = facts;
		if (delta === undefined) {
			return none;
		}

		this.#firstToken(facts.turn, event.time);
		this.#modelData(facts.turn, event.time);

		const key = `${facts.turn}:${facts.step}`;
		let stream = this.#streams.get(key);
		if (delta.kind === 'tool') {
			// A call already started (or an unknown one after its step closed) needs no preview.
			if (this.#open.has(delta.id) || (stream === undefined && this.#latest.has(delta.id))) {
				return none;
			}

			stream ??= this.#openStream(key, facts.turn, facts.step, event);
			const known = stream.calls.get(delta.id);
			if ((stream.calls.has(delta.id) && (known !== undefined || delta.name === undefined)) || (!stream.calls.has(delta.id) && stream.calls.size >= MAX_PREPARING_CALLS)) {
				return none;
			}

			stream.calls.set(delta.id, delta.name ?? known);
			this.#streamChanged(stream);
			return {op: 'stream', key};
		}

		if (stream !== undefined && !stream.textOpen) {
			// Deltas after the step's message change nothing (the message is the text).
			return none;
		}

		stream ??= this.#openStream(key, facts.turn, facts.step, event);
		if (token !== undefined) {
			stream.lines.push(token);
		}

		stream.visible ||= delta.text.trim() !== '';
		this.#streamChanged(stream);
		return {op: 'stream', key, delta};
	}

	#openStream(key: string, turn: number, step: number, event: SessionEvent): MutableStream<T> {
		// A session streams one step at a time; a log with more open is hostile or broken: the oldest go.
		for (const oldest of this.#streams.keys()) {
			if (this.#streams.size < MAX_OPEN_STREAMS) {
				break;
			}

			this.#streams.delete(oldest);
		}

		const stream: MutableStream<T> = {key, turn, step, seq: event.seq, time: event.time, textOpen: true, visible: false, calls: new Map(), lines: [], revision: -1};
		this.#streams.set(key, stream);
		return stream;
	}

	#streamChanged(stream: MutableStream<T>): void {
		stream.revision++;
		this.#streamsVersion++;
	}

	/** The step's message arrived: its text stops streaming. Returns the revision the message's entry takes. */
	#closeText(stream: MutableStream<T>): number {
		stream.textOpen = false;
		stream.visible = false;
		stream.lines = [];
		this.#streamChanged(stream);
		if (stream.calls.size === 0) {
			this.#streams.delete(stream.key);
		}

		return stream.revision;
	}

	/** A call started: its preview goes (and the stream, when nothing else of it is left). */
	#prepared(callId: string, turn: number | undefined, step: number | undefined): void {
		const streams = turn !== undefined && step !== undefined ? [this.#streams.get(`${turn}:${step}`)] : [...this.#streams.values()];
		for (const stream of streams) {
			if (stream?.calls.delete(callId) === true) {
				this.#streamChanged(stream);
				if (stream.calls.size === 0 && !stream.textOpen) {
					this.#streams.delete(stream.key);
				}
			}
		}
	}

	#dropStreams(which: (stream: MutableStream<T>) => boolean): void {
		for (const stream of [...this.#streams.values()]) {
			if (which(stream)) {
				this.#streams.delete(stream.key);
				this.#streamsVersion++;
			}
		}
	}

	/**
	A step's end: its running cards are interrupted; its previews go; text it streamed without a
	message becomes an interrupted entry that keeps what arrived.
	*/
	#stepEnd(seq: number, turn: number, step: number): Pairing<T> {
		const interrupted = this.#interrupt(this.#runningByStep.get(`${turn}:${step}`));
		const key = `${turn}:${step}`;
		const stream = this.#streams.get(key);
		if (stream === undefined) {
			return interrupted;
		}

		this.#streams.delete(key);
		this.#streamsVersion++;
		if (!stream.textOpen || !stream.visible) {
			return interrupted;
		}

		const entry = this.#insert(seq, '', kindCodes.indexOf('assistant'));
		this.#anchored[entry] = 1;
		const closed = {op: 'entry', entry, kind: 'assistant', revision: stream.revision + 1, stream: {key, from: 'close', turn, step, lines: stream.lines}} as const;
		return interrupted.op === 'interrupt' ? {...closed, interrupted: interrupted.cards} : closed;
	}

	#call(seq: number, data: unknown): Pairing<T> {
		const call = callFacts(data);
		if (typeof call === 'string') {
			return noteOf(call);
		}

		this.#announced.delete(call.callId);
		const card = this.#insert(seq, call.callId);
		this.#anchored[card] = 1;
		const open = this.#open.get(call.callId);
		if (open === undefined) {
			this.#open.set(call.callId, [card]);
		} else {
			open.push(card);
		}

		if (call.turn !== undefined) {
			this.#turns[card] = call.turn;
			this.#steps[card] = call.step ?? Number.NaN;
			addTo(this.#runningByTurn, call.turn, card);
			if (call.step !== undefined) {
				addTo(this.#runningByStep, `${call.turn}:${call.step}`, card);
			}
		}

		return {op: 'call', card, call};
	}

	#result(seq: number, data: unknown): Pairing<T> {
		const result = resultFacts(data);
		if (typeof result === 'string') {
			return noteOf(result);
		}

		const open = this.#open.get(result.callId);
		const key = open?.pop();
		if (open !== undefined && open.length === 0) {
			this.#open.delete(result.callId);
		}

		if (key !== undefined) {
			this.#untrack(key);
			this.#settle(key, result);
			return {op: 'result', card: key, created: false, orphan: false, result};
		}

		const latest = this.#latest.get(result.callId);
		if (latest !== undefined && this.#outcome[latest] === INTERRUPTED && this.#settled[latest] === 0) {
			// A late result settles the interrupted card.
			this.#settle(latest, result);
			return {op: 'result', card: latest, created: false, orphan: false, result};
		}

		// An orphan: a card of its own, titled by an announcing message when there was one.
		const announced = this.#announced.get(result.callId);
		this.#announced.delete(result.callId);
		const card = this.#insert(seq, result.callId);
		this.#settle(card, result);
		return {op: 'result', card, created: true, orphan: announced === undefined, ...(announced === undefined ? {} : {announced}), result};
	}

	#childStart(seq: number, data: unknown): Pairing<T> {
		const child = childStartFacts(data);
		if (typeof child === 'string') {
			return noteOf(child);
		}

		const parent = this.#latestKey(child.parentCallId);
		if (parent === undefined) {
			const card = this.#insert(seq, child.subCallId);
			this.#children.set(child.subCallId, card);
			this.#topLevelChildren.add(child.subCallId);
			return {op: 'child-start', card, created: true, child};
		}

		this.#children.set(child.subCallId, parent);
		return {op: 'child-start', card: parent, created: false, child};
	}

	#childSettle(data: unknown): Pairing<T> {
		const child = childSettleFacts(data);
		if (typeof child === 'string') {
			return noteOf(child);
		}

		const card = this.#children.get(child.subCallId);
		if (card === undefined) {
			return noteOf(`sub-call ${child.subCallId} settled without a start`);
		}

		this.#children.delete(child.subCallId);
		const topLevel = this.#topLevelChildren.delete(child.subCallId);
		if (topLevel) {
			this.#settled[card] = 1;
			this.#setOutcome(card, cardOutcome({result: {content: child.content, isError: child.isError}, closed: false}));
		}

		return {op: 'child-settle', card, topLevel, child};
	}

	#interrupt(running: Set<number> | undefined): Pairing<T> {
		if (running === undefined || running.size === 0) {
			return none;
		}

		const cards = [...running].sort((a, b) => a - b);
		for (const card of cards) {
			this.#untrack(card);
			const callId = this.#callIds[card]!;
			const open = this.#open.get(callId);
			if (open !== undefined) {
				open.splice(open.indexOf(card), 1);
				if (open.length === 0) {
					this.#open.delete(callId);
				}
			}

			this.#setOutcome(card, cardOutcome({result: null, closed: true}));
		}

		return {op: 'interrupt', cards};
	}

	/** A token streamed in `turnNumber`: the first of its attempt gives the attempt's latency, and ends a retry's wait. */
	#firstToken(turnNumber: number, time: number): void {
		const turn = this.#turnsOpen.get(turnNumber);
		if (turn === undefined || turn.firstTokenMs !== undefined || turn.attemptStart === undefined) {
			return;
		}

		turn.firstTokenMs = Math.max(0, time - turn.attemptStart);
		turn.retry = undefined;
		this.#progressVersion++;
	}

	/** The model sent something in `turnNumber`: the silence counts from here (renewed once a second, not per chunk). */
	#modelData(turnNumber: number, time: number): void {
		const turn = this.#turnsOpen.get(turnNumber);
		if (turn?.lastDataAt !== undefined && time - turn.lastDataAt >= DATA_CLOCK_MS) {
			turn.lastDataAt = time;
			this.#progressVersion++;
		}
	}

	#entry(seq: number, kind: MessageKind): Pairing<T> {
		const entry = this.#insert(seq, '', kindCodes.indexOf(kind));
		this.#anchored[entry] = 1;
		return {op: 'entry', entry, kind};
	}

	/**
	A turn's end: its running cards are interrupted, then the turn entry follows them — when the turn
	had a model step (or a retried model request) or ended in a failure. A turn around one command the person ran (no model) has
	nothing to say that its card does not.
	*/
	#turnEnd(seq: number, turnNumber: number, reason: unknown): Pairing<T> {
		const interrupted = this.#interrupt(this.#runningByTurn.get(turnNumber));
		const open = this.#turnsOpen.get(turnNumber);
		this.#turnsOpen.delete(turnNumber);
		if ((open?.modelSteps ?? 0) === 0 && open?.retried !== true && !turnOutcome(reason).failed) {
			return interrupted;
		}

		const entry = this.#insert(seq, '', kindCodes.indexOf('turn'));
		this.#anchored[entry] = 1;
		const turn: TurnFacts<T> = {...(open?.startTime === undefined ? {} : {startTime: open.startTime}), ...(open?.usage === undefined ? {} : {usage: open.usage}), lines: open?.lines ?? []};
		return interrupted.op === 'interrupt' ? {op: 'entry', entry, kind: 'turn', turn, interrupted: interrupted.cards} : {op: 'entry', entry, kind: 'turn', turn};
	}

	#insert(seq: number, callId: string, kind = 0): number {
		if (this.#count === this.#capacity) {
			this.#grow();
		}

		const card = this.#count++;
		this.#seqs[card] = seq;
		this.#turns[card] = Number.NaN;
		this.#kinds[card] = kind;
		this.#callIds.push(callId);
		if (kind === 0) {
			this.#outcome[card] = RUNNING;
			this.#approval[card] = 0;
			this.#latest.set(callId, card);
			this.#counts.running++;
		}

		return card;
	}

	#settle(card: number, result: ResultFacts): void {
		this.#settled[card] = 1;
		this.#setOutcome(card, cardOutcome({result, closed: false, ...this.#approvalFacts(card)}));
	}

	/** A card's approval changed: an unsettled card still running turns `pending` or back. */
	#judgeApproval(card: number, standing: ApprovalStanding): void {
		this.#approval[card] = approvalCodes.indexOf(standing);
		if (this.#settled[card] === 0 && this.#outcome[card] !== INTERRUPTED) {
			this.#setOutcome(card, cardOutcome({result: null, closed: false, approval: standing}));
		}
	}

	#approvalFacts(card: number): {readonly approval?: ApprovalStanding} {
		const approval = approvalCodes[this.#approval[card]!];
		return approval === undefined ? {} : {approval};
	}

	#setOutcome(card: number, outcome: CardOutcome): void {
		this.#counts[cardOutcomes[this.#outcome[card]!]!]--;
		this.#counts[outcome]++;
		this.#outcome[card] = cardOutcomes.indexOf(outcome);
	}

	#untrack(card: number): void {
		const turn = this.#turns[card]!;
		if (Number.isNaN(turn)) {
			return;
		}

		const step = this.#steps[card]!;
		this.#turns[card] = Number.NaN;
		removeFrom(this.#runningByTurn, turn, card);
		if (!Number.isNaN(step)) {
			removeFrom(this.#runningByStep, `${turn}:${step}`, card);
		}
	}

	/** The newest unanswered card with this id. */
	#openKey(callId: string): number | undefined {
		const open = this.#open.get(callId);
		return open?.[open.length - 1];
	}

	/** The newest unanswered card with this id, else the newest card with it. */
	#latestKey(callId: string): number | undefined {
		return this.#openKey(callId) ?? this.#latest.get(callId);
	}

	#grow(): void {
		this.#capacity *= 2;
		this.#seqs = grown(this.#seqs, new Float64Array(this.#capacity));
		this.#turns = grown(this.#turns, new Float64Array(this.#capacity));
		this.#steps = grown(this.#steps, new Float64Array(this.#capacity));
		this.#outcome = grown(this.#outcome, new Uint8Array(this.#capacity));
		this.#approval = grown(this.#approval, new Uint8Array(this.#capacity));
		this.#settled = grown(this.#settled, new Uint8Array(this.#capacity));
		this.#anchored = grown(this.#anchored, new Uint8Array(this.#capacity));
		this.#kinds = grown(this.#kinds, new Uint8Array(this.#capacity));
	}
}

/** Removes `value`, and the set once empty (an empty set and none mean the same: nothing running there). */
function removeFrom<K>(map: Map<K, Set<number>>, key: K, value: number): void {
	const set = map.get(key);
	if (set !== undefined && set.delete(value) && set.size === 0) {
		map.delete(key);
	}
}

function grown<T extends Float64Array | Uint8Array>(from: T, to: T): T {
	to.set(from);
	return to;
}
