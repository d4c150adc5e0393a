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
import {isContentBlocks} from '../presentation/view-guards.js';
import type {ContentBlock} from '../tools/content.js';
import type {SessionEvent, TodoItem} from './events.js';
import {addTo} from './add-to-set-map.js';

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
const isInt = (value: unknown): value is number => Number.isSafeInteger(value);

/** The incremental fold of one session. */
export class SessionFold {
	readonly #presenters: PresenterLookup;
	readonly #options: SessionFoldOptions;
	/** Top-level cards in transcript order. */
	readonly #cards: Card[] = [];
	/** Card key (anchor seq) → index in #cards. */
	readonly #index = new Map<number, number>();
	/** callId → keys of its unanswered top-level calls, oldest first (duplicate ids pair with the most recent). */
	readonly #open = new Map<string, number[]>();
	/** "turn:step" and "turn" → keys of running cards there. */
	readonly #runningByStep = new Map<string, Set<number>>();
	readonly #runningByTurn = new Map<number, Set<number>>();
	/** Tool calls announced by `assistant/message` blocks that have no `tool/call` yet (orphan recovery). */
	readonly #announced = new Map<string, {name: string; argsRaw: string}>();
	/** approval id → card key. */
	readonly #approvals = new Map<string, number>();
	/** subCallId → key of the card holding it (its parent, or itself when the parent is missing). */
	readonly #children = new Map<string, number>();
	/** Sub-calls shown as top-level cards because their parent is not in the log. */
	readonly #topLevelChildren = new Set<string>();
	readonly #counts: Record<CardStatus, number> = {running: 0, ok: 0, error: 0, cancelled: 0, interrupted: 0};
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
		return {...this.#counts};
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
		const index = this.#index.get(seq);
		if (index !== undefined) {
			this.release(index);
		}
	}

	/** The most recent top-level card with this call id. */
	card(callId: string): Card | undefined {
		for (let index = this.#cards.length - 1; index >= 0; index--) {
			if (this.#cards[index]!.callId === callId) {
				return this.#cards[index];
			}
		}

		return undefined;
	}

	/** Apply one event; returns what changed. */
	apply(event: SessionEvent): FoldChange {
		const data: unknown = event.data;
		switch (event.type) {
			case 'tool/call': {
				return this.#call(event.seq, event.time, data);
			}

			case 'tool/result': {
				return this.#result(event.seq, event.time, data, event.surfaceOp);
			}

			case 'tool/code-dispatch-start': {
				return this.#childStart(event.seq, event.time, data);
			}

			case 'tool/code-dispatch': {
				return this.#childSettle(event.seq, event.time, data);
			}

			case 'step/end': {
				return isRecord(data) && isInt(data.turn) && isInt(data.step) ? this.#interrupt(this.#runningByStep.get(`${data.turn}:${data.step}`)) : this.#note(event, 'step/end without integer turn and step');
			}

			case 'turn/end': {
				return isRecord(data) && isInt(data.turn) ? this.#interrupt(this.#runningByTurn.get(data.turn)) : this.#note(event, 'turn/end without an integer turn');
			}

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

			case 'approval/asked': {
				return this.#approvalAsked(event, data);
			}

			case 'approval/decided': {
				return this.#approvalDecided(event, data);
			}

			case 'cardterm/tool-progress': {
				return this.#progress(data);
			}

			case 'assistant/message': {
				this.#announce(data);
				return noChange;
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

	#call(seq: number, time: number, data: unknown): FoldChange {
		if (!isRecord(data) || typeof data.callId !== 'string' || typeof data.name !== 'string' || typeof data.arguments !== 'string') {
			return this.#note({seq, type: 'tool/call'}, 'tool/call needs string callId, name and arguments');
		}

		this.#announced.delete(data.callId);
		const turn = isInt(data.turn) ? data.turn : undefined;
		const step = isInt(data.step) ? data.step : undefined;
		const card = pendingCard(
			{callId: data.callId, name: data.name, argsRaw: data.arguments, seq, time, turn, step},
			this.#presenters(data.name),
			this.#options.onPresenterFailure,
		);
		this.#insert(card);
		const open = this.#open.get(data.callId);
		if (open === undefined) {
			this.#open.set(data.callId, [seq]);
		} else {
			open.push(seq);
		}

		this.#track(card);
		return {cards: [card], todosChanged: false};
	}

	#result(seq: number, time: number, data: unknown, surfaceOp: unknown): FoldChange {
		// A replacement result is a context rewrite by compaction, not an execution.
		if (isRecord(surfaceOp)) {
			return noChange;
		}

		const parsed = parseResult(data);
		if (typeof parsed === 'string') {
			return this.#note({seq, type: 'tool/result'}, parsed);
		}

		const open = this.#open.get(parsed.callId);
		let key = open?.pop();
		if (open !== undefined && open.length === 0) {
			this.#open.delete(parsed.callId);
		}

		let orphan = false;
		if (key === undefined) {
			// A late result for an interrupted card settles it; otherwise the result is an orphan.
			const interrupted = this.#latestInterrupted(parsed.callId);
			if (interrupted === undefined) {
				const announced = this.#announced.get(parsed.callId);
				this.#announced.delete(parsed.callId);
				const card = orphanCard(parsed.callId, seq, announced, announced === undefined ? undefined : this.#presenters(announced.name));
				this.#insert(card);
				orphan = announced === undefined;
				key = seq;
			} else {
				key = interrupted;
			}
		}

		const current = this.#cards[this.#index.get(key)!]!;
		this.#untrack(current);
		const settled = settleCard(current, cardResult(parsed.content, parsed.isError, parsed.error, parsed.meta, parsed.hasMeta), time, this.#presenters(current.name), {
			orphan,
			onFailure: this.#options.onPresenterFailure,
		});
		this.#replace(key, settled);
		return {cards: [settled], todosChanged: false};
	}

	#childStart(seq: number, time: number, data: unknown): FoldChange {
		if (!isRecord(data) || typeof data.parentCallId !== 'string' || typeof data.subCallId !== 'string' || typeof data.name !== 'string') {
			return this.#note({seq, type: 'tool/code-dispatch-start'}, 'code dispatch needs string parentCallId, subCallId and name');
		}

		const parentKey = this.#latestKey(data.parentCallId);
		const argsRaw = safeStringify(data.arguments);
		const child = pendingCard({callId: data.subCallId, name: data.name, argsRaw, seq, time}, this.#presenters(data.name), this.#options.onPresenterFailure);
		if (parentKey === undefined) {
			this.#note({seq, type: 'tool/code-dispatch-start'}, `parent call ${data.parentCallId} is not in the log; sub-call shown on its own`);
			this.#insert(child);
			this.#children.set(data.subCallId, seq);
			this.#topLevelChildren.add(data.subCallId);
			return {cards: [child], todosChanged: false};
		}

		const parent = this.#cards[this.#index.get(parentKey)!]!;
		const updated = withChildren(parent, [...parent.children, child]);
		this.#replace(parentKey, updated);
		this.#children.set(data.subCallId, parentKey);
		return {cards: [updated], todosChanged: false};
	}

	#childSettle(seq: number, time: number, data: unknown): FoldChange {
		if (!isRecord(data) || typeof data.subCallId !== 'string' || typeof data.isError !== 'boolean' || !isContentBlocks(data.content)) {
			return this.#note({seq, type: 'tool/code-dispatch'}, 'code dispatch settle needs subCallId, boolean isError and content blocks');
		}

		const key = this.#children.get(data.subCallId);
		if (key === undefined) {
			return this.#note({seq, type: 'tool/code-dispatch'}, `sub-call ${data.subCallId} settled without a start`);
		}

		this.#children.delete(data.subCallId);
		const holder = this.#cards[this.#index.get(key)!]!;
		const result = cardResult(data.content, data.isError);
		if (this.#topLevelChildren.delete(data.subCallId)) {
			// A sub-call whose parent was missing is a top-level card of its own.
			const settled = settleCard(holder, result, time, this.#presenters(holder.name), {onFailure: this.#options.onPresenterFailure});
			this.#replace(key, settled);
			return {cards: [settled], todosChanged: false};
		}

		const children = holder.children.map(child => child.callId === data.subCallId && child.status === 'running'
			? settleCard(child, result, time, this.#presenters(child.name), {onFailure: this.#options.onPresenterFailure})
			: child);
		const updated = withChildren(holder, children);
		this.#replace(key, updated);
		return {cards: [updated], todosChanged: false};
	}

	#approvalAsked(event: {seq: number; type: string}, data: unknown): FoldChange {
		if (!isRecord(data) || typeof data.id !== 'string') {
			return this.#note(event, 'approval/asked without a string id');
		}

		const key = typeof data.callId === 'string' ? this.#latestKey(data.callId) : undefined;
		if (key === undefined) {
			return noChange;
		}

		this.#approvals.set(data.id, key);
		const card = this.#cards[this.#index.get(key)!]!;
		const reason = typeof data.reason === 'string' ? {reason: data.reason} : {};
		const updated = withApproval(card, {state: 'asked', id: data.id, ...reason});
		this.#replace(key, updated);
		return {cards: [updated], todosChanged: false};
	}

	#approvalDecided(event: {seq: number; type: string}, data: unknown): FoldChange {
		if (!isRecord(data) || typeof data.id !== 'string' || typeof data.outcome !== 'string') {
			return this.#note(event, 'approval/decided without string id and outcome');
		}

		const key = this.#approvals.get(data.id);
		if (key === undefined) {
			return noChange;
		}

		this.#approvals.delete(data.id);
		const card = this.#cards[this.#index.get(key)!]!;
		const reason = card.approval?.reason === undefined ? {} : {reason: card.approval.reason};
		const updated = withApproval(card, {state: 'decided', id: data.id, outcome: data.outcome, ...reason});
		this.#replace(key, updated);
		return {cards: [updated], todosChanged: false};
	}

	#progress(data: unknown): FoldChange {
		if (!isRecord(data) || typeof data.callId !== 'string' || typeof data.text !== 'string') {
			return noChange;
		}

		const key = this.#openKey(data.callId);
		if (key === undefined) {
			return noChange;
		}

		const card = this.#cards[this.#index.get(key)!]!;
		const updated = withProgress(card, data.text, this.#options.progressLimit ?? PROGRESS_LIMIT_CHARS);
		this.#replace(key, updated);
		return {cards: [updated], todosChanged: false};
	}

	#announce(data: unknown): void {
		if (!isRecord(data) || !isRecord(data.message) || !Array.isArray(data.message.content)) {
			return;
		}

		for (const block of data.message.content) {
			if (isRecord(block) && block.type === 'tool-call' && typeof block.id === 'string' && typeof block.name === 'string' && !this.#open.has(block.id)) {
				this.#announced.set(block.id, {name: block.name, argsRaw: typeof block.arguments === 'string' ? block.arguments : safeStringify(block.arguments)});
			}
		}
	}

	#interrupt(keys: Set<number> | undefined): FoldChange {
		if (keys === undefined || keys.size === 0) {
			return noChange;
		}

		const changed: Card[] = [];
		for (const key of [...keys]) {
			const card = this.#cards[this.#index.get(key)!]!;
			this.#untrack(card);
			const open = this.#open.get(card.callId);
			if (open !== undefined) {
				open.splice(open.indexOf(key), 1);
				if (open.length === 0) {
					this.#open.delete(card.callId);
				}
			}

			const interrupted = interruptCard(card);
			this.#replace(key, interrupted);
			changed.push(interrupted);
		}

		changed.sort((a, b) => a.seq - b.seq);
		return {cards: changed, todosChanged: false};
	}

	#insert(card: Card): void {
		this.#index.set(card.seq, this.#cards.length);
		this.#cards.push(card);
		this.#counts[card.status]++;
	}

	#replace(key: number, card: Card): void {
		const index = this.#index.get(key)!;
		this.#counts[this.#cards[index]!.status]--;
		this.#counts[card.status]++;
		this.#cards[index] = card;
	}

	#track(card: Card): void {
		if (card.turn === undefined) {
			return;
		}

		addTo(this.#runningByTurn, card.turn, card.seq);
		if (card.step !== undefined) {
			addTo(this.#runningByStep, `${card.turn}:${card.step}`, card.seq);
		}
	}

	#untrack(card: Card): void {
		if (card.turn === undefined) {
			return;
		}

		this.#runningByTurn.get(card.turn)?.delete(card.seq);
		if (card.step !== undefined) {
			this.#runningByStep.get(`${card.turn}:${card.step}`)?.delete(card.seq);
		}
	}

	/** Key of the most recent unanswered call with this id. */
	#openKey(callId: string): number | undefined {
		const open = this.#open.get(callId);
		return open?.[open.length - 1];
	}

	/** Key of the most recent card with this id, answered or not. */
	#latestKey(callId: string): number | undefined {
		return this.#openKey(callId) ?? this.card(callId)?.seq;
	}

	#latestInterrupted(callId: string): number | undefined {
		const card = this.card(callId);
		return card?.status === 'interrupted' && card.result === null ? card.seq : undefined;
	}

	#note(event: {readonly seq: number; readonly type: string}, reason: string): FoldChange {
		this.#options.onNote?.({seq: event.seq, type: event.type, reason});
		return noChange;
	}
}

type ParsedResult = {
	callId: string;
	content: readonly ContentBlock[];
	isError: boolean;
	error?: {name: string; code: string};
	meta?: unknown;
	hasMeta: boolean;
};

/** The parts of a `tool/result` the card needs, or the reason it cannot be used. */
function parseResult(data: unknown): ParsedResult | string {
	if (!isRecord(data) || !isRecord(data.message)) {
		return 'tool/result without a message';
	}

	const {message} = data;
	const block = Array.isArray(message.content) ? message.content.find(item => isRecord(item) && item.type === 'tool-result') as Fields | undefined : undefined;
	const source = isRecord(message.source) ? message.source : undefined;
	const callId = typeof source?.callId === 'string' ? source.callId : (typeof block?.toolCallId === 'string' ? block.toolCallId : undefined);
	if (callId === undefined) {
		return 'tool/result without a callId (message.source.callId or a tool-result block)';
	}

	if (block === undefined || !isContentBlocks(block.content)) {
		return `tool/result for ${callId} has no tool-result block with content blocks`;
	}

	const error = isRecord(data.error) && typeof data.error.name === 'string' && typeof data.error.code === 'string'
		? {name: data.error.name, code: data.error.code}
		: undefined;
	const hasMeta = Object.prototype.hasOwnProperty.call(data, 'meta');
	return {
		callId,
		content: block.content,
		isError: block.isError === true,
		...(error === undefined ? {} : {error}),
		...(hasMeta ? {meta: data.meta} : {}),
		hasMeta,
	};
}

function safeStringify(value: unknown): string {
	try {
		return JSON.stringify(value) ?? '';
	} catch {
		return '';
	}
}

/** Fold a whole event sequence. */
export function foldEvents(events: Iterable<SessionEvent>, presenters: PresenterLookup, options?: SessionFoldOptions): SessionFold {
	const fold = new SessionFold(presenters, options);
	for (const event of events) {
		fold.apply(event);
	}

	return fold;
}

export {statuses as cardStatuses};
