/**
@module The pairing rules: which transcript entry each event belongs to. The in-memory fold
(`fold.ts`) and the lazy log index both route every event through one `EntryPairing`, so a rule —
a result pairing with the newest unanswered call of its id, a step closing its running calls, a
late result settling an interrupted card, an orphan result becoming a card of its own, which events
are messages, turns, notices and todo lists — exists once. The pairing numbers entries in
transcript order and tracks each card's outcome (by the one rule, `card-outcome.ts`); it builds
nothing: what an entry looks like is the consumer's business.

It is four machines, each in its file: this one (entries and cards), the open streams
(`open-streams.ts`: a step's output while it streams, the transcript's tail after every entry), the
turn clock (`turn-clock.ts`: what each open turn said so far) and the context timeline
(`context-timeline.ts`: what the model's context held at each step). `route` tells each what an event
means to it. Events come typed (`events.ts`): the reader checked their payloads.
*/
import type {CardStatus} from '../../presentation/card.js';
import {type ApprovalStanding, type CardOutcome, type OutcomeCounts, approvalStanding, cardOutcome, cardOutcomes, emptyOutcomeCounts, outcomeStatus} from '../../presentation/card-outcome.js';
import {addTo} from './add-to-set-map.js';
import {type CallFacts, type ChildSettleFacts, type ChildStartFacts, type ResultFacts, announcedCalls, callFacts, childSettleFacts, childStartFacts, resultFacts} from './call-facts.js';
import {chunkFacts, type TextDelta} from './chunk-facts.js';
import {assistantFacts, contentText, isNoticeType, noticeFacts, pluginNotice, retryFacts, turnOutcome, userMessageSource} from './entry-facts.js';
import type {ApprovalAskedEvent, ApprovalDecidedEvent, AssistantChunkEvent, AssistantMessageEvent, SessionEvent, StepEndEvent, ToolCallEvent, TurnEndEvent} from '../events/events.js';
import {isKnownEventType} from '../events/event-vocabulary.js';
import {OpenStreams, type OpenStream} from './open-streams.js';
import {isContextRewrite} from '../events/surface-op.js';
import {ContextTimeline} from './context-timeline.js';
import {TurnClock, type TurnFacts} from './turn-clock.js';
import type {TurnProgress} from './turn-progress.js';

export type {OpenStream} from './open-streams.js';
export type {TurnFacts} from './turn-clock.js';

/** Entry kinds other than cards, as the pairing creates them. */
export type MessageKind = 'user' | 'assistant' | 'turn' | 'notice' | 'todo' | 'compaction';

/**
A tool call an `assistant/message` named before its `tool/call` (it titles an orphan result), with
the consumer's token for that message (the log index keeps the line's position).
*/
export type Announcement<T> = {readonly name: string; readonly argsRaw: string; readonly token: T | undefined; readonly turn?: number};

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
	/** An approval asked or answered for `card`'s call, or for its Code Mode sub-call `child` (the card's outcome is its own call's). */
	| {readonly op: 'approval-asked'; readonly card: number; readonly child?: string; readonly approval: ApprovalAskedEvent['data']}
	| {readonly op: 'approval-decided'; readonly card: number; readonly child?: string; readonly approval: ApprovalDecidedEvent['data']}
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
type StreamEnd<T> = {readonly key: string; readonly from: 'message'} | {readonly key: string; readonly from: 'close'; readonly turn: number; readonly step: number; readonly lines: readonly T[]};

const none: Pairing<never> = Object.freeze({op: 'none'});
const noteOf = (reason: string): Pairing<never> => ({op: 'note', reason});
/** `#approval` codes: 0 is none. */
const approvalCodes: ReadonlyArray<ApprovalStanding | undefined> = [undefined, 'asked', 'allowed', 'refused'];
/** `#kinds` codes: 0 is a card. */
const kindCodes: ReadonlyArray<'card' | MessageKind> = ['card', 'user', 'assistant', 'turn', 'notice', 'todo', 'compaction'];
const RUNNING = cardOutcomes.indexOf('running');
const INTERRUPTED = cardOutcomes.indexOf('interrupted');

/** The event types that can change a card's outcome (`sessions` reads only these lines to count cards). */
export const cardEventTypes: ReadonlySet<string> = new Set([
	'tool/call', 'tool/result', 'tool/code-dispatch-start', 'tool/code-dispatch', 'step/end', 'turn/end', 'approval/asked', 'approval/decided',
]);

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
	/** approval id → its card (and sub-call). */
	readonly #approvals = new Map<string, {readonly card: number; readonly child?: string}>();
	/** subCallId → the card holding it (its parent, or itself when the parent is missing). */
	readonly #children = new Map<string, number>();
	readonly #topLevelChildren = new Set<string>();
	readonly #counts: Record<CardOutcome, number> = emptyOutcomeCounts();
	readonly #streams = new OpenStreams<T>();
	readonly #clock = new TurnClock<T>();
	/** Kept where a view asks for it (the pager's sources, the live session): a replay printed does not pay for it. */
	readonly #context: ContextTimeline | undefined;

	constructor(options: {readonly context?: boolean} = {}) {
		this.#context = options.context === true ? new ContextTimeline() : undefined;
	}

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
		return this.#streams.all;
	}

	/** The open streams with something to show (visible text, or a call being prepared): the tail entries. */
	get shownStreams(): ReadonlyArray<OpenStream<T>> {
		return this.#streams.shown;
	}

	/** Increments whenever `streams` changes. */
	get streamsVersion(): number {
		return this.#streams.version;
	}

	/** Whether the text of stream `key` still streams. */
	textOpen(key: string): boolean {
		return this.#streams.textOpen(key);
	}

	/** The newest turn still open, as its events so far tell (`turn-progress.ts`); undefined when none is. */
	get turnProgress(): TurnProgress | undefined {
		return this.#clock.progress;
	}

	/**
	Calls the model made in the newest open turn that have not started yet, in the model's order: the
	agent runs a step's calls that may change things one at a time, so they wait for the ones before.
	*/
	get queued(): ReadonlyArray<{readonly callId: string; readonly name: string; readonly argsRaw: string}> {
		const turn = this.#clock.progress?.turn;
		if (turn === undefined || this.#announced.size === 0) {
			return [];
		}

		const queued = [];
		for (const [callId, call] of this.#announced) {
			if (call.turn === turn) {
				queued.push({callId, name: call.name, argsRaw: call.argsRaw});
			}
		}

		return queued;
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

	/** What the model's context held at each step (`context-timeline.ts`): every event routed here feeds it. */
	get context(): ContextTimeline | undefined {
		return this.#context;
	}

	/** Decides what `event` does to the entries and updates the pairing state; `token` stands for the event (in an announcement, a turn's or a stream's lines). */
	route(event: SessionEvent, token?: T): Pairing<T> {
		this.#context?.hear(event);
		switch (event.type) {
			case 'tool/call': {
				const pairing = this.#call(event);
				this.#streams.started(pairing.call.callId, pairing.call.turn, pairing.call.step);
				return pairing;
			}

			case 'assistant/chunk': {
				return this.#chunk(event, token);
			}

			case 'llm/retry': {
				// A retried attempt streams again from the start: what the failed one streamed is void.
				const {turn} = event.data;
				this.#streams.drop(turn);
				if (turn !== undefined) {
					this.#clock.retried(turn, event.time, retryFacts(event.data), token);
				}

				return this.#notice(event);
			}

			case 'step/start': {
				this.#clock.stepStarted(event.data.turn, event.time);
				return this.#notice(event);
			}

			case 'tool/result': {
				if (isContextRewrite(event)) {
					return none;
				}

				const result = resultFacts(event.data);
				return typeof result === 'string' ? noteOf(result) : this.#result(event.seq, result);
			}

			case 'tool/code-dispatch-start': {
				return this.#childStart(event.seq, childStartFacts(event.data));
			}

			case 'tool/code-dispatch': {
				const child = childSettleFacts(event.data);
				return typeof child === 'string' ? noteOf(child) : this.#childSettle(child);
			}

			case 'step/end': {
				return this.#stepEnd(event);
			}

			case 'turn/start': {
				this.#clock.start(event.data.turn, event.time, token);
				return none;
			}

			case 'turn/end': {
				return this.#turnEnd(event);
			}

			case 'user/message':
			case 'steering/message': {
				if (isContextRewrite(event)) {
					return none;
				}

				const from = userMessageSource(event.data);
				if (from.kind === 'notice') {
					return pluginNotice(from.source, event.data) === undefined ? none : this.#entry(event.seq, 'notice');
				}

				if (contentText(event.data.content).trim() === '') {
					return none;
				}

				this.#clock.personSpoke();
				return this.#entry(event.seq, 'user');
			}

			case 'todo/write': {
				return this.#entry(event.seq, 'todo');
			}

			// A compaction is one card: on its summary, or on cardterm's end that carries the facts (pruning only) or an end that failed.
			case 'compaction/summary': {
				return this.#entry(event.seq, 'compaction');
			}

			case 'compaction/end': {
				return event.data.tokensBefore === undefined && event.data.error === undefined ? none : this.#entry(event.seq, 'compaction');
			}

			case 'compaction/start':
			case 'compaction/prune': {
				return none;
			}

			case 'approval/asked': {
				return this.#approvalAsked(event);
			}

			case 'approval/decided': {
				return this.#approvalDecided(event);
			}

			case 'cardterm/tool-progress': {
				const {callId, text} = event.data;
				const card = callId === undefined || text === undefined ? undefined : this.#openKey(callId);
				return card === undefined ? none : {op: 'progress', card, text: text!};
			}

			case 'assistant/message': {
				return isContextRewrite(event) ? none : this.#assistantMessage(event, token);
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

	#chunk(event: AssistantChunkEvent, token: T | undefined): Pairing<T> {
		const facts = chunkFacts(event.data);
		if (typeof facts === 'string') {
			return noteOf(facts);
		}

		const {turn, step, delta} = facts;
		if (delta === undefined) {
			return none;
		}

		this.#clock.firstToken(turn, event.time);
		this.#clock.modelData(turn, event.time);
		if (delta.kind !== 'tool') {
			const key = this.#streams.text(turn, step, event, delta, token);
			return key === undefined ? none : {op: 'stream', key, delta};
		}

		// A call already started (or an unknown one after its step closed) needs no preview.
		if (this.#open.has(delta.id) || (!this.#streams.has(turn, step) && this.#latest.has(delta.id))) {
			return none;
		}

		const key = this.#streams.preparing(turn, step, event, delta);
		return key === undefined ? none : {op: 'stream', key};
	}

	#assistantMessage(event: AssistantMessageEvent, token: T | undefined): Pairing<T> {
		const {data} = event;
		for (const call of announcedCalls(data.message?.content)) {
			if (!this.#open.has(call.id)) {
				this.#announced.set(call.id, {name: call.name, argsRaw: call.argsRaw, token, ...(data.turn === undefined ? {} : {turn: data.turn})});
			}
		}

		const facts = assistantFacts(data);
		if (data.turn !== undefined) {
			this.#clock.modelStep(data.turn, facts.usage, token);
		}

		const streamed = data.turn === undefined || data.step === undefined ? undefined : this.#streams.closeText(data.turn, data.step);
		if (facts.text.trim() === '' && facts.reasoning.trim() === '') {
			return none;
		}

		const entry = this.#insertEntry(event.seq, 'assistant');
		return streamed === undefined ? {op: 'entry', entry, kind: 'assistant'} : {op: 'entry', entry, kind: 'assistant', revision: streamed.revision, stream: {key: streamed.key, from: 'message'}};
	}

	/**
	A step's end: its running cards are interrupted; its previews go; text it streamed without a
	message becomes an interrupted entry that keeps what arrived.
	*/
	#stepEnd(event: StepEndEvent): Pairing<T> {
		const {turn, step} = event.data;
		const interrupted = this.#interrupt(this.#runningByStep.get(`${turn}:${step}`));
		const closed = this.#streams.closeStep(turn, step);
		if (closed === undefined) {
			return interrupted;
		}

		const entry = this.#insertEntry(event.seq, 'assistant');
		const pairing = {op: 'entry', entry, kind: 'assistant', revision: closed.revision, stream: {key: closed.key, from: 'close', turn, step, lines: closed.lines}} as const;
		return interrupted.op === 'interrupt' ? {...pairing, interrupted: interrupted.cards} : pairing;
	}

	/**
	A turn's end: what still streams is dropped (a turn that ends without its step's end, no crash
	repair), its running cards are interrupted, then the turn entry follows them — when the model (or
	an ACP agent) was asked in the turn, the person spoke in it, or it ended in a failure. A turn around
	one command the person ran (no model) has nothing to say that its card does not; a turn the person
	prompted ends with its rule however it ended, even cancelled before the agent said anything.
	*/
	#turnEnd(event: TurnEndEvent): Pairing<T> {
		const {turn, reason} = event.data;
		this.#streams.drop(turn);
		const closed = this.#clock.end(turn);
		const interrupted = this.#interrupt(this.#runningByTurn.get(turn));
		if (closed?.askedModel !== true && !turnOutcome(reason).failed) {
			return interrupted;
		}

		const entry = this.#insertEntry(event.seq, 'turn');
		const facts: TurnFacts<T> = {...(closed?.startTime === undefined ? {} : {startTime: closed.startTime}), ...(closed?.usage === undefined ? {} : {usage: closed.usage}), lines: closed?.lines ?? []};
		return interrupted.op === 'interrupt' ? {op: 'entry', entry, kind: 'turn', turn: facts, interrupted: interrupted.cards} : {op: 'entry', entry, kind: 'turn', turn: facts};
	}

	#call(event: ToolCallEvent): Extract<Pairing<T>, {op: 'call'}> {
		const call = callFacts(event.data);
		this.#announced.delete(call.callId);
		const card = this.#insert(event.seq, call.callId);
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

	#result(seq: number, result: ResultFacts): Pairing<T> {
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

	#childStart(seq: number, child: ChildStartFacts): Pairing<T> {
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

	#childSettle(child: ChildSettleFacts): Pairing<T> {
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

	#approvalAsked(event: ApprovalAskedEvent): Pairing<T> {
		const approval = event.data;
		const {callId} = approval;
		if (callId === undefined) {
			return none;
		}

		const card = this.#latestKey(callId);
		if (card !== undefined) {
			this.#approvals.set(approval.id, {card});
			this.#judgeApproval(card, 'asked');
			return {op: 'approval-asked', card, approval};
		}

		// A Code Mode sub-call asks as a call does: its card is the child of the card holding it.
		const holder = this.#children.get(callId);
		if (holder === undefined) {
			return none;
		}

		const child = this.#topLevelChildren.has(callId) ? undefined : callId;
		this.#approvals.set(approval.id, child === undefined ? {card: holder} : {card: holder, child});
		if (child === undefined) {
			this.#judgeApproval(holder, 'asked');
		}

		return {op: 'approval-asked', card: holder, ...(child === undefined ? {} : {child}), approval};
	}

	#approvalDecided(event: ApprovalDecidedEvent): Pairing<T> {
		const approval = event.data;
		const asked = this.#approvals.get(approval.id);
		if (asked === undefined) {
			return none;
		}

		this.#approvals.delete(approval.id);
		const {card, child} = asked;
		if (child === undefined) {
			this.#judgeApproval(card, approvalStanding(approval.outcome));
		}

		return {op: 'approval-decided', card, ...(child === undefined ? {} : {child}), approval};
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

	#entry(seq: number, kind: MessageKind): Pairing<T> {
		return {op: 'entry', entry: this.#insertEntry(seq, kind), kind};
	}

	/** A new entry other than a card, anchored on its own event. */
	#insertEntry(seq: number, kind: MessageKind): number {
		const entry = this.#insert(seq, '', kindCodes.indexOf(kind));
		this.#anchored[entry] = 1;
		return entry;
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
