/**
@module One model attempt of one step as the log records it (contract.md §E3.2, §E3.4):
each stream part becomes an `assistant/chunk` (`block-start`, deltas, `block-end`, `usage`,
`finish`), and at the end the `assistant/message` holds the final blocks in stream order — or, when
the stream was cut, only its non-blank text and reasoning, marked `interrupted`.

A step takes at most `MESSAGE_MAX_CHARS` characters of text, reasoning and call arguments
(`message-bound.ts`): past them it is `cut` (the part that crosses the bound is kept up to it, the
rest of the stream is not taken, and a call being written is closed with the arguments that
arrived), so what a step keeps is bounded however fast or long a model streams.
*/
import type {JsonValue} from '../json/json-value.js';
import type {EventDraft} from '../session/events/event-log.js';
import type {MessageBlock, StreamChunk} from '../session/events/events.js';
import {messageMaxChars} from '../session/recorder/message-bound.js';
import type {ModelFinishReason, ModelStreamPart, ModelToolCall, ModelUsage, ProviderMetadata} from './model-types.js';

type Block =
	| {readonly kind: 'text' | 'reasoning'; readonly index: number; text: string; metadata?: ProviderMetadata}
	| {readonly kind: 'tool-call'; readonly index: number; readonly id: string; name: string; args: string; named: boolean; call?: ModelToolCall};

/** A tool the provider ran during the step (its web search): the loop records it as a settled card. */
export type ProviderToolRun = {readonly id: string; readonly name: string; readonly arguments: string; result?: {readonly value: JsonValue; readonly isError: boolean}};

export type StepStreamOptions = {
	readonly turn: number;
	readonly step: number;
	readonly record: (draft: EventDraft) => void;
	readonly now: () => number;
	/** Characters the step takes (default `messageMaxChars()`: `MESSAGE_MAX_CHARS`, or lower in a test). */
	readonly maxChars?: number;
};

export class StepStream {
	readonly #options: StepStreamOptions;
	readonly #blocks: Block[] = [];
	readonly #byId = new Map<string, Block>();
	readonly #providerTools: ProviderToolRun[] = [];
	/** Block positions a provider's tool ran before: the text on either side is two paragraphs. */
	readonly #toolBreaks = new Set<number>();
	readonly #startedAt: number;
	readonly #maxChars: number;
	/** Characters taken so far. */
	#chars = 0;
	/** Calls whose arguments the bound cut off (their ids). */
	readonly #cutCalls = new Set<string>();
	#cut = false;
	#firstTokenAt: number | undefined;
	#finish: {readonly reason: ModelFinishReason; readonly usage: ModelUsage; readonly raw?: string; readonly detail?: string} | undefined;

	constructor(options: StepStreamOptions) {
		this.#options = options;
		this.#startedAt = options.now();
		this.#maxChars = options.maxChars ?? messageMaxChars();
	}

	/** The step passed its bound (`MESSAGE_MAX_CHARS`): nothing more is taken, and the loop stops the stream. */
	get cut(): boolean {
		return this.#cut;
	}

	/** The bound the step was cut at, in characters. */
	get maxChars(): number {
		return this.#maxChars;
	}

	/** Whether the bound cut off `call`'s arguments. */
	wasCut(call: ModelToolCall): boolean {
		return this.#cutCalls.has(call.id);
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

	/** The provider's own finish reason and what it said about it, when it did. */
	get finishFacts(): {readonly raw?: string; readonly detail?: string} {
		return {...(this.#finish?.raw === undefined ? {} : {raw: this.#finish.raw}), ...(this.#finish?.detail === undefined ? {} : {detail: this.#finish.detail})};
	}

	/** The text (`'text'`) or reasoning streamed so far, blocks joined. */
	streamed(kind: 'text' | 'reasoning'): string {
		let joined = '';
		for (const block of this.#blocks) {
			if (block.kind === kind) {
				joined += block.text;
			}
		}

		return joined;
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

	/** The tools the provider ran during the step, in stream order. */
	get providerTools(): readonly ProviderToolRun[] {
		return this.#providerTools;
	}

	/** Take one stream part (not `error`: the loop handles those); after the step was `cut`, none. */
	take(part: ModelStreamPart): void {
		if (this.#cut) {
			return;
		}

		switch (part.type) {
			case 'text-start':
			case 'reasoning-start': {
				const block = this.#open(part.id, part.type === 'text-start' ? 'text' : 'reasoning');
				mergeMetadata(block, part.providerMetadata);
				break;
			}

			case 'text-delta':
			case 'reasoning-delta': {
				const kind = part.type === 'text-delta' ? 'text' : 'reasoning';
				const block = this.#byId.get(`${kind}:${part.id}`) ?? this.#open(part.id, kind);
				// A signature may come on an empty delta (Gemini's last part, Anthropic's signature_delta).
				mergeMetadata(block, part.providerMetadata);
				if (block.kind === 'tool-call' || part.text === '') {
					break;
				}

				this.#firstTokenAt ??= this.#options.now();
				const text = this.#fit(part.text);
				if (text !== '') {
					block.text += text;
					this.#chunk({type: part.type, index: block.index, text});
				}

				break;
			}

			case 'text-end':
			case 'reasoning-end': {
				const block = this.#byId.get(`${part.type === 'text-end' ? 'text' : 'reasoning'}:${part.id}`);
				if (block !== undefined && block.kind !== 'tool-call') {
					mergeMetadata(block, part.providerMetadata);
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
				const delta = this.#fit(part.delta);
				if (delta !== '') {
					block.args += delta;
					// The name travels on the first delta only.
					this.#chunk(block.named ? {type: 'tool-call-delta', index: block.index, id: block.id, argumentsDelta: delta} : {type: 'tool-call-delta', index: block.index, id: block.id, name: block.name, argumentsDelta: delta});
					block.named = true;
				}

				break;
			}

			case 'tool-call': {
				const existing = this.#byId.get(`tool-call:${part.id}`);
				const block = existing?.kind === 'tool-call' ? existing : this.#open(part.id, 'tool-call');
				if (block.kind !== 'tool-call') {
					break;
				}

				this.#firstTokenAt ??= this.#options.now();
				// Arguments that streamed as deltas were counted then; a provider that sends them whole counts them here.
				const counted = block.args.length;
				const kept = counted + this.#take(Math.max(0, part.arguments.length - counted));
				this.#closeCall(block, part.name, kept >= part.arguments.length ? part.arguments : part.arguments.slice(0, kept), part.providerMetadata);
				break;
			}

			case 'provider-tool-call': {
				this.#firstTokenAt ??= this.#options.now();
				if (this.#take(part.arguments.length) < part.arguments.length) {
					// A provider's own call is recorded as sent or not at all.
					break;
				}

				this.#providerTools.push({id: part.id, name: part.name, arguments: part.arguments});
				this.#toolBreaks.add(this.#blocks.length);
				break;
			}

			case 'provider-tool-result': {
				const run = this.#providerTools.find(candidate => candidate.id === part.id && candidate.result === undefined);
				if (run !== undefined) {
					run.result = {value: part.result, isError: part.isError};
				}

				break;
			}

			case 'finish': {
				this.#finish = {reason: part.reason, usage: part.usage, ...(part.raw === undefined ? {} : {raw: part.raw}), ...(part.detail === undefined ? {} : {detail: part.detail})};
				this.#chunk({type: 'usage', usage: part.usage});
				// The provider's own reason rides along (`refusal`, `SAFETY`, …): the turn's end says what it meant.
				this.#chunk({type: 'finish', reason: {kind: part.reason, ...(part.raw === undefined ? {} : {raw: part.raw})}});
				break;
			}

			default: {
				break;
			}
		}

		if (this.#cut) {
			// Calls being written when the bound was passed end with what arrived.
			for (const block of this.#blocks) {
				if (block.kind === 'tool-call' && block.call === undefined) {
					this.#closeCall(block, block.name, block.args);
				}
			}
		}
	}

	/**
	Write the step's `assistant/message`. Complete: every block. Cut (`interrupted`): only the
	non-blank text and reasoning, and nothing at all when none streamed. Returns whether one was written.
	*/
	writeMessage(options: {readonly id: string; readonly provider: string; readonly model: string; readonly interrupted: boolean}): boolean {
		// Mutable while adjacent texts join; each block has its `type`.
		const content: Array<Record<string, unknown> & MessageBlock> = [];
		for (const [index, block] of this.#blocks.entries()) {
			// `providerMetadata` (an extra field on the contract's blocks) is what the provider needs back.
			if (block.kind === 'tool-call') {
				if (!options.interrupted && block.call !== undefined) {
					const {providerMetadata} = block.call;
					content.push({type: 'tool-call', id: block.call.id, name: block.call.name, arguments: block.call.arguments, ...(providerMetadata === undefined ? {} : {providerMetadata})});
				}
			} else if (!options.interrupted || block.text.trim() !== '') {
				const previous = this.#blocks[index - 1];
				const last = content.at(-1);
				// Anthropic splits one paragraph into text blocks at each citation: they are one text, as the model wrote it.
				if (block.kind === 'text' && previous?.kind === 'text' && last?.type === 'text' && !this.#toolBreaks.has(index) && onlyCitations(previous.metadata) && onlyCitations(block.metadata)) {
					last.text = `${last.text as string}${block.text}`;
					const citations = [...citationsOf(last.providerMetadata), ...citationsOf(block.metadata)];
					last.providerMetadata = citations.length === 0 || options.interrupted ? undefined : {anthropic: {citations}};
					if (last.providerMetadata === undefined) {
						delete last.providerMetadata;
					}

					continue;
				}

				content.push({type: block.kind, text: block.text, ...(block.metadata === undefined || options.interrupted ? {} : {providerMetadata: block.metadata})});
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

	/** How many of `count` more characters the bound leaves room for (all, or the step is `cut`). */
	#take(count: number): number {
		const room = this.#maxChars - this.#chars;
		if (count <= room) {
			this.#chars += count;
			return count;
		}

		this.#chars = this.#maxChars;
		this.#cut = true;
		return room;
	}

	/** What of `text` the bound leaves room for. */
	#fit(text: string): string {
		const room = this.#take(text.length);
		return room === text.length ? text : text.slice(0, room);
	}

	/** The call `block` is complete with `args` (cut off by the bound when the step was cut while they arrived). */
	#closeCall(block: Extract<Block, {kind: 'tool-call'}>, name: string, args: string, providerMetadata?: ProviderMetadata): void {
		block.call = {id: block.id, name, arguments: args, ...(providerMetadata === undefined ? {} : {providerMetadata})};
		if (this.#cut) {
			this.#cutCalls.add(block.id);
		}

		this.#chunk({type: 'block-end', index: block.index, block: {type: 'tool-call', id: block.id, name, arguments: args}});
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

/** Whether a text block's metadata is at most Anthropic's citations (nothing a provider needs back as its own block). */
function onlyCitations(metadata: ProviderMetadata | undefined): boolean {
	return metadata === undefined || Object.entries(metadata).every(([provider, fields]) => provider === 'anthropic' && Object.keys(fields).every(key => key === 'citations'));
}

function citationsOf(metadata: unknown): JsonValue[] {
	const citations = (metadata as ProviderMetadata | undefined)?.anthropic?.citations;
	return Array.isArray(citations) ? citations : [];
}

/** Join a part's provider metadata into its block's, key by key (a signature may arrive on the block's last part). */
function mergeMetadata(block: Block, metadata: ProviderMetadata | undefined): void {
	if (metadata === undefined || block.kind === 'tool-call') {
		return;
	}

	const merged: Record<string, Record<string, JsonValue>> = {...block.metadata};
	for (const [provider, fields] of Object.entries(metadata)) {
		merged[provider] = {...merged[provider], ...fields};
	}

	block.metadata = merged;
}
