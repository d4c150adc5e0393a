/**
@module What a message event's `surfaceOp` does (contract.md §E3.1), the one answer for the
conversation the model sees and for every view (docs/decisions/session-log.md, "What a replacement
message does").

The model's context is the ordered list of message events (`user/message`, `steering/message`,
`assistant/message`, `tool/result`) — its *surface*. `'append'` (or no `surfaceOp`, as older
producers write) adds the event at the end. `{op: 'replace', start, end}` is a context rewrite, a
compaction's: the event takes the place of the surface's messages from seq `start` to seq `end`
(both on the surface, `start` not after `end`) — a summary for a range, a pruned copy of one tool
result. Nothing happened again: a view shows the original entries and never the replacement; the
conversation the next request is built from holds the replacement instead of the range.

Other events are not messages: a `surfaceOp` on one changes nothing.
*/
import type {SessionEvent} from './events.js';

/** A replacement's range: the seqs of the first and last surface messages it stands for. */
export type ReplacedRange = {readonly start: number; readonly end: number};

/** Where a message goes in the model's context; `undefined` for an event that is not a message. */
export function surfaceEffect(event: SessionEvent): 'append' | ReplacedRange | undefined {
	switch (event.type) {
		case 'user/message':
		case 'steering/message':
		case 'assistant/message':
		case 'tool/result': {
			const op = event.surfaceOp;
			return op === undefined || op === 'append' ? 'append' : {start: op.start, end: op.end};
		}

		default: {
			return undefined;
		}
	}
}

/** Whether `event` rewrites the model's context instead of saying something new: no view shows it. */
export function isContextRewrite(event: SessionEvent): boolean {
	return typeof event.surfaceOp === 'object' && surfaceEffect(event) !== undefined;
}

/**
The model's context as surface messages, each with what it contributes (`V`: the conversation's
messages of that event). Appends and replacements keep the order the model sees.
*/
export class ContextSurface<V> {
	readonly #seqs: number[] = [];
	readonly #values: V[] = [];

	/** A message appended at the end. */
	append(seq: number, value: V): void {
		this.#seqs.push(seq);
		this.#values.push(value);
	}

	/**
	A replacement: the message at `seq` takes the place of the messages from `range.start` to
	`range.end`, with the value `make` gives it from theirs. Returns the seqs it shadowed, or a
	problem when the range is not on the surface — then nothing changes: the context stays what the
	log says was sent.
	*/
	replace(seq: number, range: ReplacedRange, make: (shadowed: readonly V[]) => V): readonly number[] | string {
		const from = this.#seqs.indexOf(range.start);
		const to = from === -1 ? -1 : this.#seqs.indexOf(range.end, from);
		if (from === -1 || to === -1) {
			return `replacement ${seq} names seqs ${range.start}..${range.end}, not a range of the context's messages`;
		}

		const value = make(this.#values.slice(from, to + 1));
		this.#values.splice(from, to - from + 1, value);
		return this.#seqs.splice(from, to - from + 1, seq);
	}

	/** Each message's value, in the model's order. */
	values(): readonly V[] {
		return this.#values;
	}

	/** Each message's seq and value, in the model's order (what a compactor chooses ranges from). */
	entries(): Array<{readonly seq: number; readonly value: V}> {
		return this.#seqs.map((seq, index) => ({seq, value: this.#values[index]!}));
	}
}
