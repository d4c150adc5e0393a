/**
@module The model conversation, rebuilt from session events: what the person said and plugins or
cardterm noted (`user/message`, `steering/message`; a note is marked as one), what the model
answered and called (`assistant/message`), what each call returned (`tool/result`). The live loop and a resumed session feed it the same
events, so the next request is the same either way.

A message event's place in the conversation is its `surfaceOp`'s (`surface-op.ts`): appended, or —
a compaction's rewrite — standing in for the messages of a range of seqs (a summary for many, a
pruned copy of one tool result). A compactor keeps a call and its result on the same side of a range.

A tool result is taken in bounded (`tool-result-budget.ts`): the model gets its head and tail within
the budget, per result and per step. Each message event's estimated tokens are kept with it, for the
ledger and the compactor (`surface()`).
*/
import {isJsonObject} from '../json/is-plain-record.js';
import {safeStringify} from '../session/fold/call-facts.js';
import {contentText, userMessageFacts, userMessageSource} from '../session/fold/entry-facts.js';
import type {SessionEvent, UserMessageData} from '../session/events/events.js';
import {ContextSurface, surfaceEffect} from '../session/events/surface-op.js';
import type {ImageAttachment} from '../tools/content.js';
import type {AssistantPart, ConversationMessage, ProviderMetadata, UserImage} from './model-types.js';
import {messageTokens} from './token-estimate.js';
import {boundResult, spillPathOf, type ToolResultBudget} from './tool-result-budget.js';

/** What the model is told about a call whose result the log does not have (a crash between call and result). */
export const UNRECORDED_RESULT = 'Error: the outcome of this call was not recorded (the session stopped while it ran)';

type Messages = readonly ConversationMessage[];

/** A tool result the model was sent: what pruning it and the compaction's evidence need. */
export type SurfaceResult = {
	readonly callId: string;
	readonly name: string;
	readonly isError: boolean;
	readonly turn?: number;
	readonly step?: number;
	readonly meta?: unknown;
	/** Its body was already replaced by a stub. */
	readonly pruned: boolean;
};

/** What one message event contributes to the model's context: its messages and their estimated tokens. */
export type SurfaceItem = {
	readonly messages: Messages;
	readonly tokens: number;
	readonly result?: SurfaceResult;
	/** A compaction's summary (`user/message` from the compact plugin). */
	readonly checkpoint?: boolean;
};

export type ConversationOptions = {
	/** Bounds on what a tool result sends (none: results go whole). */
	readonly budget?: ToolResultBudget;
	/** The bytes of an attached image (the session's attachments); none, or `undefined`: the model is told the image is missing. */
	readonly images?: (attachment: ImageAttachment) => Uint8Array | undefined;
};

export class Conversation {
	/** The message events in the model's order, each with the messages it contributes. */
	readonly #surface = new ContextSurface<SurfaceItem>();
	#budget: ToolResultBudget | undefined;
	/** Tokens the results of the newest step were sent so far (the per-step budget). */
	#step = {key: '', tokens: 0};

	readonly #images: ConversationOptions['images'];

	constructor(options: ConversationOptions = {}) {
		this.#budget = options.budget;
		this.#images = options.images;
	}

	/** The budget of results taken in from now on (`/model`: the other model's window's). */
	set budget(budget: ToolResultBudget | undefined) {
		this.#budget = budget;
	}
	/** Tool names by call id, from `tool/call` (a result names only its call). */
	readonly #names = new Map<string, string>();
	/** Calls the model made that have no result yet: their name, and the seq of the message that made them. */
	readonly #unanswered = new Map<string, {readonly name: string; readonly seq: number}>();

	/** Take one event into the conversation; other event types are ignored. */
	apply(event: SessionEvent): void {
		if (event.type === 'tool/call') {
			this.#names.set(event.data.callId, event.data.name);
			return;
		}

		const effect = surfaceEffect(event);
		if (effect === 'append') {
			this.#surface.append(event.seq, this.#said(event));
		} else if (effect !== undefined) {
			const shadowed = this.#surface.replace(event.seq, effect, before => this.#rewritten(event, before));
			// Calls of a message that left the context cannot be answered any more (a string: nothing was replaced).
			for (const [callId, call] of this.#unanswered) {
				if (typeof shadowed !== 'string' && shadowed.includes(call.seq)) {
					this.#unanswered.delete(callId);
				}
			}
		}
	}

	/** The messages so far, every call answered. */
	messages(): ConversationMessage[] {
		const out = this.#surface.values().flatMap(item => item.messages);
		for (const [callId, call] of this.#unanswered) {
			out.push({role: 'tool', callId, name: call.name, text: UNRECORDED_RESULT, isError: true});
		}

		return out;
	}

	/** The context's message events in order, each with its seq: what the ledger counts and a compactor chooses ranges from. */
	surface(): Array<{readonly seq: number; readonly value: SurfaceItem}> {
		return this.#surface.entries();
	}

	/** What an appended message event says, with its tokens. */
	#said(event: SessionEvent): SurfaceItem {
		const messages = this.#saidMessages(event);
		const result = event.type === 'tool/result' ? this.#lastResult : undefined;
		this.#lastResult = undefined;
		return item(messages, result, event.type === 'user/message' && isCheckpoint(event.data));
	}

	/** The result `#saidMessages` just took in (set only while it runs). */
	#lastResult: SurfaceResult | undefined;

	/** What an appended message event says; a message after calls left unanswered answers them first (a provider refuses the conversation otherwise). */
	#saidMessages(event: SessionEvent): Messages {
		switch (event.type) {
			case 'user/message':
			case 'steering/message': {
				const said = this.#personSaid(event.data);
				return said === undefined ? [] : [...this.#closeUnanswered(), said];
			}

			case 'assistant/message': {
				const content = assistantParts(event.data.message?.content);
				if (!said(content)) {
					return [];
				}

				const closed = this.#closeUnanswered();
				for (const part of content) {
					if (part.type === 'tool-call') {
						this.#unanswered.set(part.id, {name: part.name, seq: event.seq});
					}
				}

				return [...closed, {role: 'assistant', content}];
			}

			case 'tool/result': {
				const block = event.data.message.content[0];
				const call = block === undefined ? undefined : this.#unanswered.get(block.toolCallId);
				// Only answers to calls the model made go back to it (a `/command`'s call was the person's).
				if (block === undefined || call === undefined) {
					return [];
				}

				this.#unanswered.delete(block.toolCallId);
				const name = this.#names.get(block.toolCallId) ?? call.name;
				const {turn, step, meta} = event.data;
				this.#lastResult = {callId: block.toolCallId, name, isError: block.isError, pruned: false, ...(turn === undefined ? {} : {turn}), ...(step === undefined ? {} : {step}), ...(meta === undefined ? {} : {meta})};
				// A result's images (an MCP tool's) travel as image parts where the model takes them; its text describes each anyway.
				const {text: said, images: attached} = userMessageFacts(block.content);
				const text = this.#bounded(said, `${turn ?? ''}.${step ?? ''}`, {callId: block.toolCallId, seq: event.seq, ...optionalSpill(meta)});
				const images = this.#loaded(attached);
				return [{role: 'tool', callId: block.toolCallId, name, text, isError: block.isError, ...(images.length === 0 ? {} : {images})}];
			}

			default: {
				return [];
			}
		}
	}

	/** The images whose bytes the session still has (a tool's result names each in its text, so one that is gone is left out). */
	#loaded(attached: readonly ImageAttachment[]): UserImage[] {
		const images: UserImage[] = [];
		for (const attachment of attached) {
			const data = this.#images?.(attachment);
			if (data !== undefined) {
				images.push({attachment, data});
			}
		}

		return images;
	}

	/** A result's text within the budget: its own, and what its step has left. */
	#bounded(text: string, stepKey: string, place: {readonly callId: string; readonly seq: number; readonly spillPath?: string}): string {
		const budget = this.#budget;
		if (budget === undefined) {
			return text;
		}

		if (this.#step.key !== stepKey) {
			this.#step = {key: stepKey, tokens: 0};
		}

		const bounded = boundResult(text, Math.min(budget.perResultTokens, budget.perStepTokens - this.#step.tokens), place);
		this.#step.tokens += messageTokens({role: 'tool', callId: place.callId, name: '', text: bounded, isError: false});
		return bounded;
	}

	/**
	A message of the person's (or a note): its words, and the images it attached with their bytes. An
	image whose file is gone from the session's folder is named in the text instead, so the model
	knows what the person showed it is not there.
	*/
	#personSaid(data: UserMessageData): ConversationMessage | undefined {
		const attached = userMessageFacts(data.content).images;
		const text = personOrNote(data);
		if (attached.length === 0) {
			return text === undefined ? undefined : {role: 'user', text};
		}

		const images: UserImage[] = [];
		const missing: string[] = [];
		for (const attachment of attached) {
			const bytes = this.#images?.(attachment);
			if (bytes === undefined) {
				missing.push(`[an image the person attached (${attachment.name ?? attachment.attachmentId}) is missing: its file is gone from the session's folder]`);
			} else {
				images.push({attachment, data: bytes});
			}
		}

		const words = [text ?? '', ...missing].filter(part => part !== '').join('\n\n');
		return {role: 'user', text: words, ...(images.length === 0 ? {} : {images})};
	}

	/**
	What a replacement stands for in place of the messages `before` contributed: a message of its
	own; for a tool result, the pruned copy of the answer it replaces (none when the model never
	had that answer).
	*/
	#rewritten(event: SessionEvent, before: readonly SurfaceItem[]): SurfaceItem {
		switch (event.type) {
			case 'user/message':
			case 'steering/message': {
				// A rewrite (a compaction's summary) says to the model exactly what its writer meant.
				const text = contentText(event.data.content);
				return item(text.trim() === '' ? [] : [{role: 'user', text}], undefined, event.type === 'user/message' && isCheckpoint(event.data));
			}

			case 'assistant/message': {
				const content = assistantParts(event.data.message?.content);
				return item(said(content) ? [{role: 'assistant', content}] : []);
			}

			case 'tool/result': {
				const block = event.data.message.content[0];
				const answer = block === undefined ? undefined : before.flatMap(shadowed => shadowed.messages).find(message => message.role === 'tool' && message.callId === block.toolCallId);
				const was = before.find(shadowed => shadowed.result?.callId === block?.toolCallId)?.result;
				const result = was === undefined ? undefined : {...was, pruned: true};
				if (answer?.role !== 'tool') {
					return item([], result);
				}

				// A pruned copy says what the stub says; the images it had are not sent again.
				const {images: _sent, ...kept} = answer;
				return item([{...kept, text: contentText(block!.content), isError: block!.isError}], result);
			}

			default: {
				return item([]);
			}
		}
	}

	/** Answers for the calls a crash left open (their results were never recorded). */
	#closeUnanswered(): Messages {
		const answers: ConversationMessage[] = [];
		for (const [callId, call] of this.#unanswered) {
			answers.push({role: 'tool', callId, name: call.name, text: UNRECORDED_RESULT, isError: true});
		}

		this.#unanswered.clear();
		return answers;
	}
}

function item(messages: Messages, result?: SurfaceResult, checkpoint = false): SurfaceItem {
	let tokens = 0;
	for (const message of messages) {
		tokens += messageTokens(message);
	}

	return {messages, tokens, ...(result === undefined ? {} : {result}), ...(checkpoint ? {checkpoint} : {})};
}

/** A compaction's checkpoint: the summary message the compact plugin (cardterm's or the DeepSeek harness's) wrote. */
function isCheckpoint(data: UserMessageData): boolean {
	const {source} = data;
	return source?.kind === 'plugin' && source.plugin === 'compact';
}

function optionalSpill(meta: unknown): {readonly spillPath?: string} {
	const spillPath = spillPathOf(meta);
	return spillPath === undefined ? {} : {spillPath};
}

/**
What a message says to the model: the person's words as they are; a message a plugin or cardterm
put in (a background job's notice) as a note that says where it is from, so the model does not take
it for a new request of the person's (providers take a system message only at the start, so it
travels in a user message, tagged as Claude Code tags its own notes). `undefined`: nothing to say.
*/
function personOrNote(data: UserMessageData): string | undefined {
	const {text} = userMessageFacts(data.content);
	if (text.trim() === '') {
		return undefined;
	}

	const from = userMessageSource(data);
	if (from.kind === 'user') {
		return text;
	}

	// A note cannot close its own tag early and speak as the person after it (a plugin's text, a job's label the model chose).
	const inert = (value: string): string => value.replace(/<(\/?)(system-reminder)/gi, '&lt;$1$2');
	return `<system-reminder>\nA note from "${inert(from.source)}", not a message from the person: it is not a new request.\n\n${inert(text)}\n</system-reminder>`;
}

/**
Characters a request may carry in its conversation: 64 Mi, sixteen times the text of the largest
window a model has (about a million tokens), so only a session no model could read reaches it —
and well before the request's JSON would pass the longest string V8 can make (about 512 Mi
characters, where the model library failed with only `Invalid string length`).
*/
export const REQUEST_MAX_CHARS = 64 * 1024 * 1024;

/**
Why `messages` are too large to send, naming the size and the largest message, or `undefined`.
Lengths only: no text is read.
*/
export function oversizedRequest(system: string, messages: readonly ConversationMessage[]): string | undefined {
	let total = system.length;
	let largest = {index: -1, chars: 0};
	for (const [index, message] of messages.entries()) {
		const chars = messageChars(message);
		total += chars;
		if (chars > largest.chars) {
			largest = {index, chars};
		}
	}

	if (total <= REQUEST_MAX_CHARS) {
		return undefined;
	}

	const biggest = messages[largest.index];
	const what = biggest === undefined ? 'the system prompt' : biggest.role === 'tool' ? `the result of ${biggest.name} (call ${biggest.callId})` : biggest.role === 'user' ? 'a message of yours' : 'an answer of the model';
	return `the conversation is too large to send: ${total.toLocaleString('en-US')} characters in ${messages.length} messages, past cardterm's bound of ${REQUEST_MAX_CHARS.toLocaleString('en-US')} (no model's window holds a tenth of that); the largest is ${what}, message ${largest.index + 1}, with ${largest.chars.toLocaleString('en-US')} characters. Start a new session (this one stays in its log).`;
}

function messageChars(message: ConversationMessage): number {
	if (message.role !== 'assistant') {
		return message.text.length;
	}

	let chars = 0;
	for (const part of message.content) {
		chars += part.type === 'tool-call' ? part.arguments.length + part.name.length : part.text.length;
	}

	return chars;
}

/** Whether a step said anything the model must see again: a call, or text that is not blank. */
function said(content: readonly AssistantPart[]): boolean {
	return content.some(part => part.type === 'tool-call' || (part.type === 'text' && part.text.trim() !== ''));
}

/**
A step's blocks as the model client sends them back: text, reasoning and calls in stream order, each
with the provider's metadata when the log kept it. Which of them a provider is sent is the client's
choice (`model-client.ts`).
*/
function assistantParts(content: unknown): AssistantPart[] {
	const parts: AssistantPart[] = [];
	for (const block of Array.isArray(content) ? content : []) {
		if (!isJsonObject(block)) {
			continue;
		}

		const metadata = isJsonObject(block.providerMetadata) && Object.values(block.providerMetadata).every(isJsonObject) ? {providerMetadata: block.providerMetadata as ProviderMetadata} : {};
		if ((block.type === 'text' || block.type === 'reasoning') && typeof block.text === 'string') {
			parts.push({type: block.type, text: block.text, ...metadata});
		} else if (block.type === 'tool-call' && typeof block.id === 'string' && typeof block.name === 'string') {
			parts.push({type: 'tool-call', id: block.id, name: block.name, arguments: typeof block.arguments === 'string' ? block.arguments : safeStringify(block.arguments), ...metadata});
		}
	}

	return parts;
}
