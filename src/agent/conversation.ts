/**
@module The model conversation, rebuilt from session events: what the person and plugins said
(`user/message`), what the model answered and called (`assistant/message`), what each call returned
(`tool/result`). The live loop and a resumed session feed it the same events, so the next request
is the same either way.
*/
import {safeStringify} from '../session/call-facts.js';
import {contentText} from '../session/entry-facts.js';
import type {SessionEvent} from '../session/events.js';
import type {AssistantPart, ConversationMessage, ProviderMetadata} from './model-types.js';

type Fields = Record<string, unknown>;
const isRecord = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the model is told about a call whose result the log does not have (a crash between call and result). */
export const UNRECORDED_RESULT = 'Error: the outcome of this call was not recorded (the session stopped while it ran)';

export class Conversation {
	readonly #messages: ConversationMessage[] = [];
	/** Tool names by call id, from `tool/call` (a result names only its call). */
	readonly #names = new Map<string, string>();
	/** Calls the model made that have no result yet. */
	readonly #unanswered = new Map<string, string>();

	/** Take one event into the conversation; other event types are ignored. */
	apply(event: SessionEvent): void {
		const data = event.data;
		// Replacement messages (`surfaceOp.op === 'replace'`) rewrite what a display shows, not what was said.
		if (isRecord(event.surfaceOp)) {
			return;
		}

		switch (event.type) {
			case 'user/message': {
				const text = isRecord(data) ? contentText(data.content) : '';
				if (text.trim() !== '') {
					this.#closeUnanswered();
					this.#messages.push({role: 'user', text});
				}

				break;
			}

			case 'assistant/message': {
				const content = assistantParts(isRecord(data) && isRecord(data.message) ? data.message.content : undefined);
				if (!content.some(part => part.type === 'tool-call' || (part.type === 'text' && part.text.trim() !== ''))) {
					break;
				}

				this.#closeUnanswered();
				this.#messages.push({role: 'assistant', content});
				for (const part of content) {
					if (part.type === 'tool-call') {
						this.#unanswered.set(part.id, part.name);
					}
				}

				break;
			}

			case 'tool/call': {
				if (isRecord(data) && typeof data.callId === 'string' && typeof data.name === 'string') {
					this.#names.set(data.callId, data.name);
				}

				break;
			}

			case 'tool/result': {
				const message = isRecord(data) && isRecord(data.message) ? data.message : undefined;
				const block = Array.isArray(message?.content) ? message.content.find(item => isRecord(item) && item.type === 'tool-result') as Fields | undefined : undefined;
				const callId = typeof block?.toolCallId === 'string' ? block.toolCallId : undefined;
				// Only answers to calls the model made go back to it (a `/command`'s call was the person's).
				if (callId === undefined || !this.#unanswered.has(callId)) {
					break;
				}

				this.#messages.push({role: 'tool', callId, name: this.#names.get(callId) ?? this.#unanswered.get(callId)!, text: contentText(block!.content), isError: block!.isError === true});
				this.#unanswered.delete(callId);
				break;
			}

			default: {
				break;
			}
		}
	}

	/** The messages so far (a copy), every call answered. */
	messages(): ConversationMessage[] {
		const out = this.#messages.slice();
		for (const [callId, name] of this.#unanswered) {
			out.push({role: 'tool', callId, name, text: UNRECORDED_RESULT, isError: true});
		}

		return out;
	}

	/** A provider refuses a conversation where a call has no answer: answer the ones a crash left open. */
	#closeUnanswered(): void {
		for (const [callId, name] of this.#unanswered) {
			this.#messages.push({role: 'tool', callId, name, text: UNRECORDED_RESULT, isError: true});
		}

		this.#unanswered.clear();
	}
}

/**
A step's blocks as the model client sends them back: text, reasoning and calls in stream order, each
with the provider's metadata when the log kept it. Which of them a provider is sent is the client's
choice (`model-client.ts`).
*/
function assistantParts(content: unknown): AssistantPart[] {
	const parts: AssistantPart[] = [];
	for (const block of Array.isArray(content) ? content : []) {
		if (!isRecord(block)) {
			continue;
		}

		const metadata = isRecord(block.providerMetadata) && Object.values(block.providerMetadata).every(isRecord) ? {providerMetadata: block.providerMetadata as ProviderMetadata} : {};
		if ((block.type === 'text' || block.type === 'reasoning') && typeof block.text === 'string') {
			parts.push({type: block.type, text: block.text, ...metadata});
		} else if (block.type === 'tool-call' && typeof block.id === 'string' && typeof block.name === 'string') {
			parts.push({type: 'tool-call', id: block.id, name: block.name, arguments: typeof block.arguments === 'string' ? block.arguments : safeStringify(block.arguments), ...metadata});
		}
	}

	return parts;
}
