/**
@module What the model's context held at each model step of a log: "what the model knew". Fed every
event (the pairing routes them here), it replays the messages' `surfaceOp`s as the conversation does
(`surface-op.ts`) and records, per transcript entry (by its anchor seq: a message's own seq, a
card's `tool/call`), the seq of the compaction replacement that pruned its result (a stub naming the
card took its place; the call's arguments stayed) and of the one that summarised it away; and, per
model step, what its request sent: the provider's reported input tokens, or — where it reported
none — the character estimate of the log's messages in the context then (`~`: the system prompt and
the tools' schemas are not in a log). Pure state; memory is a few numbers per message.
*/
import {isJsonObject} from '../../json/is-plain-record.js';
import type {SessionEvent} from '../events/events.js';
import {ContextSurface, surfaceEffect} from '../events/surface-op.js';
import {announcedCalls} from './call-facts.js';
import {assistantFacts} from './entry-facts.js';
import {estimateTokens} from './token-estimate.js';

/** One model step (an `assistant/message`): what its request sent, and the entry its ledger row goes on. */
export type ContextStep = {
	/** The seq of its `assistant/message`. */
	readonly seq: number;
	readonly turn?: number;
	readonly step?: number;
	/** Input tokens the request sent. */
	readonly sent: number;
	/** `reported` by the provider, or `estimated` from the log's messages. */
	readonly basis: 'reported' | 'estimated';
	/** The anchor seq of the step's first entry: its answer, or (a step of calls only) its first card. */
	readonly head?: number;
};

/** Where an entry stood in the model's context at a step: its result pruned, or summarised away. */
export type ContextStanding = 'pruned' | 'summarised';

/** A message of the context: its tokens and the entries (anchor seqs) it stands for. */
type Held = {tokens: number; readonly anchors: number[]};

export class ContextTimeline {
	readonly #surface = new ContextSurface<Held>();
	#tokens = 0;
	readonly #steps: Array<Mutable<ContextStep>> = [];
	readonly #prunedAt = new Map<number, number>();
	readonly #summarisedAt = new Map<number, number>();
	/** callId → the seq of its newest `tool/call` (a card's anchor). */
	readonly #callSeqs = new Map<string, number>();
	/** The newest answer's calls whose `tool/call` has not come yet: the card joins the message that made it. */
	#awaited = new Map<string, Held>();
	/** Message seqs in log order and the first entry each stands for (links into the pager). */
	#messageSeqs: number[] = [];
	#messageAnchors: number[] = [];
	/** A replaced range (`start:end`) → the replacement's seq (a compaction card names the range). */
	readonly #ranges = new Map<string, number>();

	/** The model steps so far, in log order. */
	get steps(): readonly ContextStep[] {
		return this.#steps;
	}

	/** Whether a compaction took anything out of the context. */
	get compacted(): boolean {
		return this.#prunedAt.size > 0 || this.#summarisedAt.size > 0;
	}

	hear(event: SessionEvent): void {
		switch (event.type) {
			case 'tool/call': {
				this.#callSeqs.set(event.data.callId, event.seq);
				const held = this.#awaited.get(event.data.callId);
				if (held !== undefined) {
					held.anchors.push(event.seq);
					this.#awaited.delete(event.data.callId);
				}

				const last = this.#steps.at(-1);
				if (last !== undefined && last.head === undefined) {
					last.head = event.seq;
				}

				return;
			}

			case 'user/message':
			case 'steering/message': {
				this.#message(event, contentTokens(event.data.content), event.seq);
				return;
			}

			case 'assistant/message': {
				const effect = surfaceEffect(event);
				if (effect === 'append') {
					this.#step(event);
				}

				const held = this.#message(event, contentTokens(event.data.message?.content), event.seq);
				if (effect === 'append' && held !== undefined) {
					this.#awaited = new Map(announcedCalls(event.data.message?.content).map(call => [call.id, held]));
				}

				return;
			}

			case 'tool/result': {
				const {callId} = event.data.message.source;
				this.#message(event, contentTokens(event.data.message.content), this.#callSeqs.get(callId) ?? event.seq);
				return;
			}

			default: {
				return;
			}
		}
	}

	/**
	Where the entry anchored at `anchor` stood in the context of the request at seq `at` (a step's
	seq): summarised, its result pruned, or `undefined` — in it (or never a message: a turn's end).
	*/
	standing(anchor: number, at: number): ContextStanding | undefined {
		const summarised = this.#summarisedAt.get(anchor);
		if (summarised !== undefined && summarised < at) {
			return 'summarised';
		}

		const pruned = this.#prunedAt.get(anchor);
		return pruned !== undefined && pruned < at ? 'pruned' : undefined;
	}

	/**
	The seq of the request whose context an entry is read against: an answer's own step; a card's, the
	step that made the call (the newest before it); any other entry's, the next step after it (what the
	model knew when it next acted), or `Infinity` past the last step (the context as it is now).
	*/
	requestOf(anchor: number, kind: 'assistant' | 'card' | 'other'): number {
		const steps = this.#steps;
		// The first step at or after the anchor.
		let low = 0;
		let high = steps.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (steps[middle]!.seq < anchor) {
				low = middle + 1;
			} else {
				high = middle;
			}
		}

		if (kind === 'assistant' && steps[low]?.seq === anchor) {
			return anchor;
		}

		if (kind === 'card' && low > 0) {
			return steps[low - 1]!.seq;
		}

		return steps[low]?.seq ?? Number.POSITIVE_INFINITY;
	}

	/** The step whose ledger row goes on the entry anchored at `anchor`, if any. */
	stepHeadedBy(anchor: number): ContextStep | undefined {
		const steps = this.#steps;
		// Heads increase with the steps: the head of step i lies between its seq and the next step's.
		let low = 0;
		let high = steps.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (steps[middle]!.seq <= anchor) {
				low = middle + 1;
			} else {
				high = middle;
			}
		}

		const step = steps[low - 1];
		return step?.head === anchor ? step : undefined;
	}

	/** The anchor seq of the entry that holds the message at `seq` (a replacement: the first entry it stands for); `seq` itself when it is no message. */
	entryOf(seq: number): number {
		let low = 0;
		let high = this.#messageSeqs.length - 1;
		while (low <= high) {
			const middle = (low + high) >>> 1;
			const value = this.#messageSeqs[middle]!;
			if (value === seq) {
				return this.#messageAnchors[middle]!;
			}

			if (value < seq) {
				low = middle + 1;
			} else {
				high = middle - 1;
			}
		}

		return seq;
	}

	/**
	The anchor seq of the first entry a compaction card's range took out of the context: the range's
	replacement's first new entry, else the entry of the message the range starts at.
	*/
	entryOfRange(range: {readonly start: number; readonly end: number}): number {
		const replacement = this.#ranges.get(`${range.start}:${range.end}`);
		return this.entryOf(replacement ?? range.start);
	}

	#step(event: SessionEvent & {readonly type: 'assistant/message'}): void {
		const facts = assistantFacts(event.data);
		const reported = facts.usage?.inputTokens ?? 0;
		const step: Mutable<ContextStep> = {seq: event.seq, sent: reported > 0 ? reported : this.#tokens, basis: reported > 0 ? 'reported' : 'estimated'};
		if (event.data.turn !== undefined) {
			step.turn = event.data.turn;
		}

		if (event.data.step !== undefined) {
			step.step = event.data.step;
		}

		// An answer with text is an entry of its own (the pairing's rule); a step of calls only heads its first card.
		if (facts.text.trim() !== '' || facts.reasoning.trim() !== '') {
			step.head = event.seq;
		}

		this.#steps.push(step);
	}

	/** A message onto the surface (appended, or replacing a range); the context's tokens follow it. */
	#message(event: SessionEvent, tokens: number, anchor: number): Held | undefined {
		const effect = surfaceEffect(event);
		if (effect === undefined) {
			return undefined;
		}

		if (effect === 'append') {
			const held: Held = {tokens, anchors: [anchor]};
			this.#surface.append(event.seq, held);
			this.#tokens += tokens;
			this.#remember(event.seq, anchor);
			return held;
		}

		// A tool result standing for one result is a pruned copy; any other replacement is a summary.
		const pruning = event.type === 'tool/result';
		let shadowedTokens = 0;
		const anchors: number[] = [];
		const shadowed = this.#surface.replace(event.seq, effect, values => {
			for (const value of values) {
				shadowedTokens += value.tokens;
				for (const shadowedAnchor of value.anchors) {
					anchors.push(shadowedAnchor);
				}
			}

			return {tokens, anchors: pruning ? anchors : []};
		});
		if (typeof shadowed === 'string') {
			// Not a range of the context: the log's context stays what was sent (as the conversation does).
			return undefined;
		}

		const at = pruning ? this.#prunedAt : this.#summarisedAt;
		// The first entry this replacement took out (an earlier summary it folds in is not news).
		let first = Number.POSITIVE_INFINITY;
		for (const shadowedAnchor of anchors) {
			if (!at.has(shadowedAnchor)) {
				at.set(shadowedAnchor, event.seq);
				first = Math.min(first, shadowedAnchor);
			}
		}

		this.#tokens += tokens - shadowedTokens;
		this.#remember(event.seq, Number.isFinite(first) ? first : event.seq);
		this.#ranges.set(`${effect.start}:${effect.end}`, event.seq);
		return undefined;
	}

	#remember(seq: number, anchor: number): void {
		// Seqs come in log order; one out of order (a damaged log) is left out rather than break the search.
		if (this.#messageSeqs.length > 0 && this.#messageSeqs.at(-1)! >= seq) {
			return;
		}

		this.#messageSeqs.push(seq);
		this.#messageAnchors.push(anchor);
	}
}

/**
Tokens of message content, block by block (no joined copy of a large result): text and reasoning,
a call's name and arguments, a tool result's blocks; other blocks (images) count nothing here.
*/
function contentTokens(content: unknown): number {
	if (typeof content === 'string') {
		return estimateTokens(content);
	}

	let tokens = 0;
	for (const block of Array.isArray(content) ? content as unknown[] : []) {
		if (!isJsonObject(block)) {
			continue;
		}

		if (typeof block.text === 'string') {
			tokens += estimateTokens(block.text);
		} else if (block.type === 'tool-call') {
			tokens += estimateTokens(typeof block.name === 'string' ? block.name : '') + estimateTokens(typeof block.arguments === 'string' ? block.arguments : JSON.stringify(block.arguments) ?? '');
		} else if (block.type === 'tool-result') {
			tokens += contentTokens(block.content);
		}
	}

	return tokens;
}

type Mutable<T> = {-readonly [K in keyof T]: T[K]};
