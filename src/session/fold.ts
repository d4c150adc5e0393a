/**
@module The fold: one incremental reducer from session events to cards, used by live sessions and
replay alike (presentation-events.md §3.8). Applying an event costs O(1) amortised: cards are kept
in transcript order with an index by key, and each change replaces one card object.

The fold is deterministic: it reads no clock, file or environment. Cards are immutable; the fold's
own bookkeeping is internal.
*/
import type {Card, CardStatus} from '../presentation/card.js';
import {cardResult, interruptCard, orphanCard, pendingCard, settleCard, withApproval, withChildren, withProgress} from '../presentation/compose-card.js';
import type {PresenterFailure, PresenterLookup} from '../presentation/presenters.js';
import {assertNever} from '../presentation/assert-never.js';
import type {SessionEvent, TodoItem} from './events.js';
import {CardPairing} from './entry-pairing.js';

/** Something the fold could not use, named so a reader can report it. */
export type FoldNote = {readonly seq: number; readonly type: string; readonly reason: string};

/** What one `apply` changed. */
export type FoldChange = {
	/** Top-level cards that were created or replaced, in transcript order. */
	readonly cards: readonly Card[];
	readonly todosChanged: boolean;
};

export type SessionFoldOptions = {
	/** Presenter failures (the card falls back to generic). */
	readonly onPresenterFailure?: (failure: PresenterFailure) => void;
	/** Notes about events the fold could not use. */
	readonly onNote?: (note: FoldNote) => void;
	/** Characters of live output kept per running card. */
	readonly progressLimit?: number;
};

/** Default tail of live output kept per running card. */
export const PROGRESS_LIMIT_CHARS = 64 * 1024;

const noChange: FoldChange = Object.freeze({cards: [], todosChanged: false});
const statuses: readonly CardStatus[] = ['running', 'ok', 'error', 'cancelled', 'interrupted'];

type Fields = Record<string, unknown>;
const isRecord = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The incremental fold of one session. */
export class SessionFold {
	readonly #presenters: PresenterLookup;
	readonly #options: SessionFoldOptions;
	/** Which card each event belongs to: the rules the lazy log index shares. */
	readonly #pairing = new CardPairing();
	/** Top-level cards in transcript order, numbered as the pairing numbers them. */
	readonly #cards: Card[] = [];
	#todos: readonly TodoItem[] = [];
	#title: string | undefined;

	constructor(presenters: PresenterLookup, options: SessionFoldOptions = {}) {
		this.#presenters = presenters;
		this.#options = options;
	}

	/** Top-level cards in transcript order. The array is live: copy it to keep a snapshot. */
	get cards(): readonly Card[] {
		return this.#cards;
	}

	/** The standing todo list (the latest `todo/write`; a new turn clears it). */
	get todos(): readonly TodoItem[] {
		return this.#todos;
	}

	/** The session title, from the latest `session/title` event. */
	get title(): string | undefined {
		return this.#title;
	}

	/** Card counts by status. */
	get counts(): Readonly<Record<CardStatus, number>> {
		return this.#pairing.counts;
	}

	/**
	Drop the card at `index` from memory once a consumer has written it for good (streamed replay).
	Its slot keeps a small placeholder with the same identity fields, so later events still pair.
	*/
	release(index: number): void {
		const card = this.#cards[index];
		if (card === undefined || card.status === 'running') {
			return;
		}

		this.#cards[index] = {...card, argsRaw: '', args: undefined, callView: {card: 'generic', title: card.callView.title}, result: card.result === null ? null : {content: [], isError: card.result.isError}, resultView: null, children: []};
	}

	/** `release` by the card's key (the seq of its anchor event). */
	releaseSeq(seq: number): void {
		const index = this.#pairing.cardOfSeq(seq);
		if (index !== undefined) {
			this.release(index);
		}
	}

	/** The most recent top-level card with this call id. */
	card(callId: string): Card | undefined {
		const index = this.#pairing.latestCard(callId);
		return index === undefined ? undefined : this.#cards[index];
	}

	/** Apply one event; returns what changed. */
	apply(event: SessionEvent): FoldChange {
		const pairing = this.#pairing.route(event);
		switch (pairing.op) {
			case 'none': {
				return this.#session(event);
			}

			case 'note': {
				return this.#note(event, pairing.reason);
			}

			case 'call': {
				const {call} = pairing;
				const card = pendingCard({...call, seq: event.seq, time: event.time}, this.#presenters(call.name), this.#options.onPresenterFailure);
				this.#cards[pairing.card] = card;
				return changed(card);
			}

			case 'result': {
				const {result} = pairing;
				const current = pairing.created ? orphanCard(result.callId, event.seq, pairing.announced, pairing.announced === undefined ? undefined : this.#presenters(pairing.announced.name)) : this.#cards[pairing.card]!;
				const settled = settleCard(current, cardResult(result.content, result.isError, result.error, result.meta, result.hasMeta), event.time, this.#presenters(current.name), {
					orphan: pairing.orphan,
					onFailure: this.#options.onPresenterFailure,
				});
				this.#cards[pairing.card] = settled;
				return changed(settled);
			}

			case 'child-start': {
				const {child} = pairing;
				const pending = pendingCard({callId: child.subCallId, name: child.name, argsRaw: child.argsRaw, seq: event.seq, time: event.time}, this.#presenters(child.name), this.#options.onPresenterFailure);
				if (pairing.created) {
					this.#note(event, `parent call ${child.parentCallId} is not in the log; sub-call shown on its own`);
					this.#cards[pairing.card] = pending;
					return changed(pending);
				}

				const parent = this.#cards[pairing.card]!;
				return this.#replace(pairing.card, withChildren(parent, [...parent.children, pending]));
			}

			case 'child-settle': {
				const {child} = pairing;
				const holder = this.#cards[pairing.card]!;
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
				const cards = pairing.cards.map(index => {
					const interrupted = interruptCard(this.#cards[index]!);
					this.#cards[index] = interrupted;
					return interrupted;
				});
				return {cards, todosChanged: false};
			}

			case 'approval-asked': {
				const {approval} = pairing;
				const reason = approval.reason === undefined ? {} : {reason: approval.reason};
				return this.#replace(pairing.card, withApproval(this.#cards[pairing.card]!, {state: 'asked', id: approval.id, ...reason}));
			}

			case 'approval-decided': {
				const card = this.#cards[pairing.card]!;
				const reason = card.approval?.reason === undefined ? {} : {reason: card.approval.reason};
				return this.#replace(pairing.card, withApproval(card, {state: 'decided', id: pairing.approval.id, outcome: pairing.approval.outcome, ...reason}));
			}

			case 'progress': {
				return this.#replace(pairing.card, withProgress(this.#cards[pairing.card]!, pairing.text, this.#options.progressLimit ?? PROGRESS_LIMIT_CHARS));
			}

			default: {
				return assertNever(pairing, 'SessionFold.apply');
			}
		}
	}

	/** Events about the session rather than a card: the todo list and the title. */
	#session(event: SessionEvent): FoldChange {
		const data: unknown = event.data;
		switch (event.type) {
			case 'turn/start': {
				if (this.#todos.length === 0) {
					return noChange;
				}

				this.#todos = [];
				return {cards: [], todosChanged: true};
			}

			case 'todo/write': {
				if (!isRecord(data) || !Array.isArray(data.todos)) {
					return this.#note(event, 'todo/write without a todos array');
				}

				this.#todos = data.todos.filter((todo): todo is TodoItem => isRecord(todo) && typeof todo.content === 'string' && typeof todo.status === 'string');
				return {cards: [], todosChanged: true};
			}

			case 'session/title': {
				if (isRecord(data) && typeof data.title === 'string') {
					this.#title = data.title;
				}

				return noChange;
			}

			default: {
				return noChange;
			}
		}
	}

	#replace(index: number, card: Card): FoldChange {
		this.#cards[index] = card;
		return changed(card);
	}

	#note(event: {readonly seq: number; readonly type: string}, reason: string): FoldChange {
		this.#options.onNote?.({seq: event.seq, type: event.type, reason});
		return noChange;
	}
}

const changed = (card: Card): FoldChange => ({cards: [card], todosChanged: false});

/** Fold a whole event sequence. */
export function foldEvents(events: Iterable<SessionEvent>, presenters: PresenterLookup, options?: SessionFoldOptions): SessionFold {
	const fold = new SessionFold(presenters, options);
	for (const event of events) {
		fold.apply(event);
	}

	return fold;
}

export {statuses as cardStatuses};
