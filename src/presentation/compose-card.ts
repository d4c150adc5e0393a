/**
@module Card composition: a pending card from a call, a settled card from its result. The fold
uses these for live and replayed events alike, so a replayed card equals the live one.
*/
import type {ContentBlock} from '../tools/content.js';
import type {ToolResult} from '../tools/views.js';
import type {Card, CardApproval, CardResult} from './card.js';
import {approvalStanding, cardOutcome, outcomeStatus, type CardOutcome} from './card-outcome.js';
import {parseArguments, resolveCallView} from './call-view.js';
import type {Presenter, PresenterFailure} from './presenters.js';
import {resolveResultView} from './result-view.js';

/** A call as the log records it. */
export type CallRecord = {
	readonly callId: string;
	readonly name: string;
	/** The raw argument string. */
	readonly argsRaw: string;
	readonly seq: number;
	readonly time: number | null;
	readonly turn?: number;
	readonly step?: number;
};

/** A new running card for a call. */
export function pendingCard(call: CallRecord, presenter: Presenter | undefined, onFailure?: (failure: PresenterFailure) => void): Card {
	const parsed = parseArguments(call.argsRaw);
	// One object per call (replay builds one per `tool/call`): the step is set on it, not spread into a copy.
	const card: Mutable<Card> = {
		callId: call.callId,
		name: call.name,
		argsRaw: call.argsRaw,
		args: parsed.ok ? parsed.value : undefined,
		seq: call.seq,
		callTime: call.time,
		resultTime: null,
		status: 'running',
		outcome: 'running',
		callView: resolveCallView(call.name, call.argsRaw, parsed, presenter, onFailure),
		resultView: null,
		result: null,
		children: [],
		revision: 0,
	};
	if (call.turn !== undefined) {
		card.turn = call.turn;
	}

	if (call.step !== undefined) {
		card.step = call.step;
	}

	return card;
}

/**
A card for a result whose call is not known: titled by the tool name when a `tool-call` block
announced it, otherwise `tool`; its body is the raw result content.
*/
export function orphanCard(callId: string, seq: number, announced: {readonly name: string; readonly argsRaw: string} | undefined, presenter: Presenter | undefined): Card {
	if (announced !== undefined) {
		return pendingCard({callId, name: announced.name, argsRaw: announced.argsRaw, seq, time: null}, presenter);
	}

	return {
		callId,
		name: 'tool',
		argsRaw: '',
		args: undefined,
		seq,
		callTime: null,
		resultTime: null,
		status: 'running',
		outcome: 'running',
		callView: {card: 'generic', title: 'tool', kind: 'other'},
		resultView: null,
		result: null,
		children: [],
		revision: 0,
	};
}

/** The card settled by its durable result. */
export function settleCard(
	card: Card,
	result: CardResult,
	time: number | null,
	presenter: Presenter | undefined,
	options: {readonly orphan?: boolean; readonly onFailure?: (failure: PresenterFailure) => void} = {},
): Card {
	const args = card.args === undefined ? {known: false as const} : {known: true as const, value: card.args};
	const toolResult: Mutable<ToolResult> = {content: result.content, isError: result.isError};
	if ('meta' in result) {
		toolResult.meta = result.meta;
	}

	const resultView = resolveResultView(card.name, args, toolResult, presenter, options.orphan ? null : card.callView, options.onFailure);
	// One copy per result: the outcome is judged from the fields that change, not from an intermediate card.
	const outcome = judge(result, card.approval, false);
	return {...withoutProgress(card), resultTime: time, result, resultView, revision: card.revision + 1, outcome, status: outcomeStatus(outcome)};
}

/** A running card whose step or turn closed without a result. */
export function interruptCard(card: Card): Card {
	const outcome = judge(card.result, card.approval, true);
	return {...withoutProgress(card), revision: card.revision + 1, outcome, status: outcomeStatus(outcome)};
}

/** The card without its live output (a settled or interrupted card shows its result, not progress). */
function withoutProgress(card: Card): Card {
	if (card.progress === undefined) {
		return card;
	}

	const {progress: _progress, ...rest} = card;
	return rest;
}

/** The card with live output appended, keeping a bounded tail. */
export function withProgress(card: Card, text: string, limit: number): Card {
	const previous = card.progress?.text ?? '';
	let combined = previous + text;
	let truncated = card.progress?.truncated ?? false;
	if (combined.length > limit) {
		// Cut at a line start when one is near, so the tail does not begin mid-line.
		const cut = combined.length - limit;
		const newline = combined[cut - 1] === '\n' ? cut - 1 : combined.indexOf('\n', cut);
		combined = combined.slice(newline !== -1 && newline - cut < 200 ? newline + 1 : cut);
		truncated = true;
	}

	return {...card, progress: {text: combined, truncated}, revision: card.revision + 1};
}

/** The card with its approval state replaced. */
export function withApproval(card: Card, approval: CardApproval): Card {
	const changed = {...card, approval, revision: card.revision + 1};
	// A settled card keeps the outcome its result gave it (the pairing decides the same way).
	return card.result === null ? judged(changed, card.outcome === 'interrupted') : changed;
}

/** The card with its children replaced. */
export function withChildren(card: Card, children: readonly Card[]): Card {
	return {...card, children, revision: card.revision + 1};
}

/** The result content of a `tool-result` block as a card result. */
export function cardResult(content: readonly ContentBlock[], isError: boolean, error?: {readonly name: string; readonly code: string}, meta?: unknown, hasMeta = meta !== undefined): CardResult {
	const result: Mutable<CardResult> = {content, isError};
	if (error !== undefined) {
		result.error = error;
	}

	if (hasMeta) {
		result.meta = meta;
	}

	return result;
}

/** The card with its outcome (and the status it projects to) by the one rule; `closed`: its step or turn closed without a result. */
function judged(card: Card, closed: boolean): Card {
	const outcome = judge(card.result, card.approval, closed);
	return {...card, outcome, status: outcomeStatus(outcome)};
}

/** The outcome of a card with this result and approval, by the one rule. */
function judge(result: CardResult | null, cardApproval: CardApproval | undefined, closed: boolean): CardOutcome {
	const approval = cardApproval === undefined ? undefined : approvalStanding(cardApproval.state === 'decided' ? cardApproval.outcome : undefined);
	return cardOutcome(approval === undefined ? {result, closed} : {result, closed, approval});
}

type Mutable<T> = {-readonly [K in keyof T]: T[K]};
