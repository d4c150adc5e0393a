/**
@module The fold: one incremental reducer from session events to transcript entries (tool cards,
messages, turns, notices, todo lists), used by live sessions and replay alike
(contract.md §E3.8). Which entry an event belongs to is decided by `EntryPairing`, the
same rules the lazy log index uses. Applying an event costs O(1) amortised: entries are kept in
transcript order, and each change replaces one entry object.

The fold is deterministic: it reads no clock, file or environment. Entries are immutable; the
fold's own bookkeeping is internal.
*/
import type {Card, CardApproval} from '../../presentation/card.js';
import type {OutcomeCounts} from '../../presentation/card-outcome.js';
import {cardResult, interruptCard, orphanCard, pendingCard, settleCard, withApproval, withChildren, withProgress} from '../../presentation/compose-card.js';
import type {PresenterFailure, PresenterLookup} from '../../presentation/presenters.js';
import {assertNever} from '../../presentation/assert-never.js';
import type {AssistantEntry, CardEntry, TranscriptEntry} from '../../presentation/entry.js';
import type {ApprovalDecidedEvent, SessionEvent, TodoItem} from '../events/events.js';
import {appendStreamText, emptyStreamText, type StreamText} from './chunk-facts.js';
import {composeClosedStream, composeEntry, composeStreamEntry} from './compose-entry.js';
import {EntryPairing, type Pairing} from './entry-pairing.js';
import type {ContextTimeline} from './context-timeline.js';
import type {TurnProgress} from './turn-progress.js';

/** Something the fold could not use, named so a reader can report it. */
export type FoldNote = {readonly seq: number; readonly type: string; readonly reason: string};

/** What one `apply` changed. */
export type FoldChange = {
	/** Entries that were created or replaced, in transcript order, with their numbers. */
	readonly entries: readonly TranscriptEntry[];
	readonly todosChanged: boolean;
	/** The open tail (`SessionFold.tail`) changed. */
	readonly tailChanged?: boolean;
};

export type SessionFoldOptions = {
	/** Presenter failures (the card falls back to generic). */
	readonly onPresenterFailure?: (failure: PresenterFailure) => void;
	/** Notes about events the fold could not use. */
	readonly onNote?: (note: FoldNote) => void;
	/** Characters of live output kept per running card. */
	readonly progressLimit?: number;
	/**
	Whether an entry a consumer has written for good (`written`) may leave memory now: the session's
	log gives it back (a live session's pager reads it from there). Absent: entries stay.
	*/
	readonly releaseWritten?: () => boolean;
	/** Keep the context timeline (`context-timeline.ts`): what the pager's "what the model knew" reads. */
	readonly context?: boolean;
};

/** Default tail of live output kept per running card. */
const PROGRESS_LIMIT_CHARS = 64 * 1024;

const noChange: FoldChange = Object.freeze({entries: [], todosChanged: false});

/** The incremental fold of one session. */
export class SessionFold {
	readonly #presenters: PresenterLookup;
	readonly #options: SessionFoldOptions;
	/** Which entry each event belongs to: the rules the lazy log index shares. */
	readonly #pairing: EntryPairing;
	/** Entries in transcript order, numbered as the pairing numbers them. */
	readonly #entries: TranscriptEntry[] = [];
	#todos: readonly TodoItem[] = [];
	#title: string | undefined;
	/** Text and reasoning streamed so far, by stream key. */
	readonly #texts = new Map<string, StreamText>();
	#tail: readonly AssistantEntry[] = [];
	#tailVersion = 0;

	constructor(presenters: PresenterLookup, options: SessionFoldOptions = {}) {
		this.#presenters = presenters;
		this.#options = options;
		this.#pairing = new EntryPairing({context: options.context === true});
	}

	/** Entries in transcript order. The array is live: copy it to keep a snapshot. */
	get entries(): readonly TranscriptEntry[] {
		return this.#entries;
	}

	/**
	The open tail: a streaming step's partial text and reasoning and its `preparing <tool>…` rows, one
	entry per open step, after every entry. Not numbered: its step's message (or its end) replaces it.
	*/
	get tail(): readonly AssistantEntry[] {
		return this.#tail;
	}

	/**
	Cards of the first `limit` calls the model made in the open turn that wait to start
	(`EntryPairing.queued`), and how many more wait: not entries, nothing keeps them.
	*/
	queued(limit: number): {readonly cards: readonly Card[]; readonly more: number} {
		const calls = this.#pairing.queued;
		const cards = calls.slice(0, limit).map(call => ({...pendingCard({...call, seq: -1, time: null}, this.#presenters(call.name), this.#options.onPresenterFailure), queued: true as const}));
		return {cards, more: calls.length - cards.length};
	}

	/** The standing todo list (the latest `todo/write`; a new turn clears it). */
	get todos(): readonly TodoItem[] {
		return this.#todos;
	}

	/** The session title, from the latest `session/title` event. */
	get title(): string | undefined {
		return this.#title;
	}

	/** The newest turn still running, as its events so far tell (the status line's usage and time); the same object until it changes. */
	get turnProgress(): TurnProgress | undefined {
		return this.#pairing.turnProgress;
	}

	/** Top-level card counts by outcome. */
	get counts(): OutcomeCounts {
		return this.#pairing.counts;
	}

	/** What the model's context held at each step (the pager's "what the model knew"). */
	get context(): ContextTimeline | undefined {
		return this.#pairing.context;
	}

	/**
	Drop the entry at `index` from memory once a consumer has written it for good (streamed replay).
	A card's slot keeps a small placeholder with the same identity fields, so later events still pair;
	other entries change no more and keep nothing.
	*/
	release(index: number): void {
		const entry = this.#entries[index];
		if (entry === undefined) {
			return;
		}

		if (entry.entry !== 'card') {
			this.#entries[index] = released;
			return;
		}

		const {card} = entry;
		if (card.status === 'running') {
			return;
		}

		this.#entries[index] = {entry: 'card', card: {...card, argsRaw: '', args: undefined, callView: {card: 'generic', title: card.callView.title}, result: card.result === null ? null : {content: [], isError: card.result.isError}, resultView: null, children: []}};
	}

	/**
	Drop the entry at `index` for good (streamed replay, which never reads a written entry again): a
	card keeps nothing, not even `release`'s placeholder, and later events about it change nothing
	(what they say could not be shown: the card was written). Running cards are kept, as by `release`.
	Holding a placeholder per card cost a replay of many small events ~5 % of its CPU (issue 12).
	*/
	forget(index: number): void {
		const entry = this.#entries[index];
		if (entry === undefined || (entry.entry === 'card' && entry.card.status === 'running')) {
			return;
		}

		this.#entries[index] = entry.entry === 'card' ? forgotten : released;
	}

	/**
	A consumer has written `entry` for good (a live screen's scrollback): it leaves memory when
	`releaseWritten` allows and it can change no more — a running card is still live, and an
	interrupted one may yet be settled by a late result.
	*/
	written(entry: TranscriptEntry): void {
		if (entry.entry === 'card' && (entry.card.status === 'running' || entry.card.status === 'interrupted')) {
			return;
		}

		if (this.#options.releaseWritten?.() === true) {
			this.releaseSeq(entry.entry === 'card' ? entry.card.seq : entry.seq);
		}
	}

	/** `release` by the entry's key (the seq of its anchor event). */
	releaseSeq(seq: number): void {
		const index = this.#pairing.entryOfSeq(seq);
		if (index !== undefined) {
			this.release(index);
		}
	}

	/** The most recent top-level card with this call id. */
	card(callId: string): Card | undefined {
		const index = this.#pairing.latestCard(callId);
		return index === undefined || this.#entries[index] === forgotten ? undefined : this.#card(index);
	}

	/** The number of the entry whose key is `seq`. */
	indexOfSeq(seq: number): number | undefined {
		return this.#pairing.entryOfSeq(seq);
	}

	/** Apply one event; returns what changed. */
	apply(event: SessionEvent): FoldChange {
		if (event.type === 'session/title' && event.data.title !== undefined) {
			// Whether or not the pairing shows it as a notice, it is the session's title from now on.
			this.#title = event.data.title;
		}

		const pairing = this.#pairing.route(event);
		const change = this.#apply(event, pairing);
		if (this.#pairing.streamsVersion === this.#tailVersion) {
			return change;
		}

		this.#tailVersion = this.#pairing.streamsVersion;
		this.#tail = this.#pairing.shownStreams.map(stream => composeStreamEntry(stream, this.#texts.get(stream.key) ?? emptyStreamText));
		for (const key of this.#texts.keys()) {
			if (!this.#pairing.textOpen(key)) {
				this.#texts.delete(key);
			}
		}

		return {...change, tailChanged: true};
	}

	#apply(event: SessionEvent, pairing: Pairing): FoldChange {
		if ('card' in pairing && this.#entries[pairing.card] === forgotten) {
			return noChange;
		}

		switch (pairing.op) {
			case 'none': {
				return this.#session(event);
			}

			case 'note': {
				return this.#note(event, pairing.reason);
			}

			case 'call': {
				const {call} = pairing;
				return this.#replace(pairing.card, pendingCard({callId: call.callId, name: call.name, argsRaw: call.argsRaw, seq: event.seq, time: event.time, turn: call.turn, step: call.step}, this.#presenters(call.name), this.#options.onPresenterFailure));
			}

			case 'result': {
				const {result} = pairing;
				const current = pairing.created ? orphanCard(result.callId, event.seq, pairing.announced, pairing.announced === undefined ? undefined : this.#presenters(pairing.announced.name)) : this.#card(pairing.card);
				return this.#replace(pairing.card, settleCard(current, cardResult(result.content, result.isError, result.error, result.meta, result.hasMeta), event.time, this.#presenters(current.name), {
					orphan: pairing.orphan,
					onFailure: this.#options.onPresenterFailure,
				}));
			}

			case 'child-start': {
				const {child} = pairing;
				const pending = pendingCard({callId: child.subCallId, name: child.name, argsRaw: child.argsRaw, seq: event.seq, time: event.time}, this.#presenters(child.name), this.#options.onPresenterFailure);
				if (pairing.created) {
					this.#note(event, `parent call ${child.parentCallId} is not in the log; sub-call shown on its own`);
					return this.#replace(pairing.card, pending);
				}

				const parent = this.#card(pairing.card);
				return this.#replace(pairing.card, withChildren(parent, [...parent.children, pending]));
			}

			case 'child-settle': {
				const {child} = pairing;
				const holder = this.#card(pairing.card);
				const result = cardResult(child.content, child.isError);
				if (pairing.topLevel) {
					// A sub-call whose parent was missing is a top-level card of its own.
					return this.#replace(pairing.card, settleCard(holder, result, event.time, this.#presenters(holder.name), {onFailure: this.#options.onPresenterFailure}));
				}

				const children = holder.children.map(item => item.callId === child.subCallId && item.status === 'running'
					? settleCard(item, result, event.time, this.#presenters(item.name), {onFailure: this.#options.onPresenterFailure})
					: item);
				return this.#replace(pairing.card, withChildren(holder, children));
			}

			case 'interrupt': {
				return {entries: this.#interrupt(pairing.cards), todosChanged: false};
			}

			case 'stream': {
				if (pairing.delta !== undefined) {
					this.#texts.set(pairing.key, appendStreamText(this.#texts.get(pairing.key) ?? emptyStreamText, pairing.delta));
				}

				return noChange;
			}

			case 'entry': {
				const {stream} = pairing;
				const composed = stream?.from === 'close'
					? composeClosedStream(event, stream, this.#texts.get(stream.key) ?? emptyStreamText, pairing.revision ?? 0)
					: composeEntry(pairing.kind, event, pairing.turn);
				const entry = pairing.revision === undefined ? composed : {...composed, revision: pairing.revision};
				this.#entries[pairing.entry] = entry;
				if (pairing.kind === 'todo' && entry.entry === 'todo') {
					this.#todos = entry.items;
				}

				return {entries: [...this.#interrupt(pairing.interrupted ?? []), entry], todosChanged: pairing.kind === 'todo'};
			}

			case 'approval-asked': {
				const {approval} = pairing;
				const reason = approval.reason === undefined ? {} : {reason: approval.reason};
				return this.#approve(pairing.card, pairing.child, () => ({state: 'asked', id: approval.id, ...reason, askedTime: event.time}));
			}

			case 'approval-decided': {
				const {approval} = pairing;
				return this.#approve(pairing.card, pairing.child, card => decidedApproval(card.approval, approval, event.time));
			}

			case 'progress': {
				return this.#replace(pairing.card, withProgress(this.#card(pairing.card), pairing.text, this.#options.progressLimit ?? PROGRESS_LIMIT_CHARS));
			}

			default: {
				return assertNever(pairing, 'SessionFold.apply');
			}
		}
	}

	/** Events about the session rather than a card: the todo list and the title. */
	#session(event: SessionEvent): FoldChange {
		switch (event.type) {
			case 'turn/start': {
				if (this.#todos.length === 0) {
					return noChange;
				}

				this.#todos = [];
				return {entries: [], todosChanged: true};
			}

			case 'session/title': {
				// Its title was taken in `apply`.
				return noChange;
			}

			default: {
				return noChange;
			}
		}
	}

	#card(index: number): Card {
		return (this.#entries[index] as CardEntry).card;
	}

	/** Card `index`'s approval (or its sub-call `child`'s) becomes `approval(card)`. */
	#approve(index: number, child: string | undefined, approval: (card: Card) => CardApproval): FoldChange {
		const holder = this.#card(index);
		if (child === undefined) {
			return this.#replace(index, withApproval(holder, approval(holder)));
		}

		const children = holder.children.map(item => item.callId === child && item.status === 'running' ? withApproval(item, approval(item)) : item);
		return this.#replace(index, withChildren(holder, children));
	}

	#replace(index: number, card: Card): FoldChange {
		const entry: CardEntry = {entry: 'card', card};
		this.#entries[index] = entry;
		return {entries: [entry], todosChanged: false};
	}

	#interrupt(cards: readonly number[]): CardEntry[] {
		return cards.map(index => {
			const entry: CardEntry = {entry: 'card', card: interruptCard(this.#card(index))};
			this.#entries[index] = entry;
			return entry;
		});
	}

	#note(event: {readonly seq: number; readonly type: string}, reason: string): FoldChange {
		this.#options.onNote?.({seq: event.seq, type: event.type, reason});
		return noChange;
	}
}

/** What a released entry other than a card leaves behind. */
const released: TranscriptEntry = Object.freeze({entry: 'notice', seq: -1, time: 0, source: '', summary: '', revision: 0});
/** What a forgotten card leaves behind: the same object for every one. */
const forgotten: CardEntry = Object.freeze({
	entry: 'card',
	card: Object.freeze({callId: '', name: '', argsRaw: '', args: undefined, seq: -1, callTime: null, resultTime: null, status: 'ok', outcome: 'ok', callView: Object.freeze({card: 'generic', title: ''}), resultView: null, result: null, children: Object.freeze([]), revision: 0}),
});

/** Fold a whole event sequence. */
export function foldEvents(events: Iterable<SessionEvent>, presenters: PresenterLookup, options?: SessionFoldOptions): SessionFold {
	const fold = new SessionFold(presenters, options);
	for (const event of events) {
		fold.apply(event);
	}

	return fold;
}

/** The answered approval: the question's reason and time kept, the answer's outcome, time, standing and feedback added. */
function decidedApproval(asked: CardApproval | undefined, decided: ApprovalDecidedEvent['data'], time: number): CardApproval {
	return {
		state: 'decided',
		id: decided.id,
		outcome: decided.outcome,
		...(asked?.reason === undefined ? {} : {reason: asked.reason}),
		...(asked?.askedTime === undefined ? {} : {askedTime: asked.askedTime}),
		decidedTime: time,
		...(decided.standing === true ? {standing: true} : {}),
		...(decided.feedback === undefined ? {} : {feedback: decided.feedback}),
	};
}
