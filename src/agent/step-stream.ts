/**
@module One model attempt of one step as the log records it (presentation-events.md §3.2, §3.4):
each stream part becomes an `assistant/chunk` (`block-start`, deltas, `block-end`, `usage`,
`finish`), and at the end the `assistant/message` holds the final blocks in stream order — or, when
the stream was cut, only its non-blank text and reasoning, marked `interrupted`.
*/
import type {EventDraft} from '../session/event-log.js';
import type {MessageBlock, StreamChunk} from '../session/events.js';
import type {ModelFinishReason, ModelStreamPart, ModelToolCall, ModelUsage} from './model-types.js';

type Block =
	| {readonly kind: 'text' | 'reasoning'; readonly index: number; text: string}
	| {readonly kind: 'tool-call'; readonly index: number; readonly id: string; name: string; args: string; named: boolean; call?: ModelToolCall};

export type StepStreamOptions = {
	readonly turn: number;
	readonly step: number;
	readonly record: (draft: EventDraft) => void;
	readonly now: () => number;
};

export class StepStream {
	readonly #options: StepStreamOptions;
	readonly #blocks: Block[] = [];
	readonly #byId = new Map<string, Block>();
	readonly #startedAt: number;
	#firstTokenAt: number | undefined;
	#finish: {readonly reason: ModelFinishReason; readonly usage: ModelUsage} | undefined;

	constructor(options: StepStreamOptions) {
		this.#options = options;
		this.#startedAt = options.now();
	}

	/** The model said it was done (a stream that just stops is a broken one). */
	get finished(): boolean {
		return this.#finish !== undefined;
	}

	get finishReason(): ModelFinishReason | undefined {
		return this.#finish?.reason;
	}

	get usage(): ModelUsage | undefined {
		return this.#finish?.usage;
	}

	/** The complete tool calls, in stream order. */
	get calls(): ModelToolCall[] {
		const calls: ModelToolCall[] = [];
		for (const block of this.#blocks) {
			if (block.kind === 'tool-call' && block.call !== undefined) {
				calls.push(block.call);
			}
		}

		return calls;
	}

	/** Take one stream part (not `error`: the loop handles those). */
	take(part: ModelStreamPart): void {
		switch (part.type) {
			case 'text-start':
			case 'reasoning-start': {
				this.#open(part.id, part.type === 'text-start' ? 'text' : 'reasoning');
				break;
			}

			case 'text-delta':
			case 'reasoning-delta': {
				const kind = part.type === 'text-delta' ? 'text' : 'reasoning';
				const block = this.#byId.get(`${kind}:${part.id}`) ?? this.#open(part.id, kind);
				if (block.kind === 'tool-call' || part.text === '') {
					break;
				}

				this.#firstTokenAt ??= this.#options.now();
				block.text += part.text;
				this.#chunk({type: part.type, index: block.index, text: part.text});
				break;
			}

			case 'text-end':
			case 'reasoning-end': {
				const block = this.#byId.get(`${part.type === 'text-end' ? 'text' : 'reasoning'}:${part.id}`);
				if (block !== undefined && block.kind !== 'tool-call') {
					this.#chunk({type: 'block-end', index: block.index, block: {type: block.kind, text: block.text}});
				}

				break;
			}

			case 'tool-input-start': {
				const block = this.#open(part.id, 'tool-call');
				if (block.kind === 'tool-call') {
					block.name = part.name;
				}

				break;
			}

			case 'tool-input-delta': {
				const block = this.#byId.get(`tool-call:${part.id}`);
				if (block?.kind !== 'tool-call') {
					break;
				}

				this.#firstTokenAt ??= this.#options.now();
				block.args += part.delta;
				// The name travels on the first delta only.
				this.#chunk(block.named ? {type: 'tool-call-delta', index: block.index, id: block.id, argumentsDelta: part.delta} : {type: 'tool-call-delta', index: block.index, id: block.id, name: block.name, argumentsDelta: part.delta});
				block.named = true;
				break;
			}

			case 'tool-call': {
				const existing = this.#byId.get(`tool-call:${part.id}`);
				const block = existing?.kind === 'tool-call' ? existing : this.#open(part.id, 'tool-call');
				if (block.kind !== 'tool-call') {
					break;
				}

				this.#firstTokenAt ??= this.#options.now();
				block.call = {id: part.id, name: part.name, arguments: part.arguments};
				this.#chunk({type: 'block-end', index: block.index, block: {type: 'tool-call', id: part.id, name: part.name, arguments: part.arguments}});
				break;
			}

			case 'finish': {
				this.#finish = {reason: part.reason, usage: part.usage};
				this.#chunk({type: 'usage', usage: part.usage});
				this.#chunk({type: 'finish', reason: {kind: part.reason}});
				break;
			}

			default: {
				break;
			}
		}
	}

	/**
	Write the step's `assistant/message`. Complete: every block. Cut (`interrupted`): only the
	non-blank text and reasoning, and nothing at all when none streamed. Returns whether one was written.
	*/
	writeMessage(options: {readonly id: string; readonly provider: string; readonly model: string; readonly interrupted: boolean}): boolean {
		const content: MessageBlock[] = [];
		for (const block of this.#blocks) {
			if (block.kind === 'tool-call') {
				if (!options.interrupted && block.call !== undefined) {
					content.push({type: 'tool-call', id: block.call.id, name: block.call.name, arguments: block.call.arguments});
				}
			} else if (!options.interrupted || block.text.trim() !== '') {
				content.push({type: block.kind, text: block.text});
			}
		}

		if (options.interrupted && content.length === 0) {
			return false;
		}

		const now = this.#options.now();
		this.#options.record({
			type: 'assistant/message',
			data: {
				turn: this.#options.turn,
				step: this.#options.step,
				message: {id: options.id, role: 'assistant', content, source: {kind: 'model', provider: options.provider, model: options.model}},
				...(this.#finish === undefined ? {} : {usage: this.#finish.usage}),
				// cardterm's timing of the model call: latency to the first token and the whole stream.
				timing: {...(this.#firstTokenAt === undefined ? {} : {firstTokenMs: this.#firstTokenAt - this.#startedAt}), durationMs: now - this.#startedAt},
				...(options.interrupted ? {interrupted: true} : {}),
			},
			surfaceOp: 'append',
		});
		return true;
	}

	#open(id: string, kind: Block['kind']): Block {
		const index = this.#blocks.length;
		const block: Block = kind === 'tool-call' ? {kind, index, id, name: '', args: '', named: false} : {kind, index, text: ''};
		this.#blocks.push(block);
		// Text and tool-call ids come from different counters: keep them apart.
		this.#byId.set(`${kind}:${id}`, block);
		this.#chunk({type: 'block-start', index, blockType: kind});
		return block;
	}

	#chunk(chunk: StreamChunk): void {
		this.#options.record({type: 'assistant/chunk', data: {turn: this.#options.turn, step: this.#options.step, chunk}});
	}
}
