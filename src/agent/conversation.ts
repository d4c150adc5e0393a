/**
@module The model conversation, rebuilt from session events: what the person and plugins said
(`user/message`), what the model answered and called (`assistant/message`), what each call returned
(`tool/result`). The live loop and a resumed session feed it the same events, so the next request
is the same either way.
*/
import {announcedCalls} from '../session/call-facts.js';
import {contentText} from '../session/entry-facts.js';
import type {SessionEvent} from '../session/events.js';
import type {ConversationMessage} from './model-types.js';

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
		// Replacement messages (`surfaceOp.op === 'replace'`) rewrite what a display shows, not what was said.
		if (typeof event.surfaceOp === 'object') {
			return;
		}

		switch (event.type) {
			case 'user/message': {
				const text = contentText(event.data.content);
				if (text.trim() !== '') {
					this.#closeUnanswered();
					this.#messages.push({role: 'user', text});
				}

				break;
			}

			case 'assistant/message': {
				const content = event.data.message?.content;
				const text = contentText(content, 'text');
				const toolCalls = announcedCalls(content).map(call => ({id: call.id, name: call.name, arguments: call.argsRaw}));
				if (text.trim() === '' && toolCalls.length === 0) {
					break;
				}

				this.#closeUnanswered();
				this.#messages.push({role: 'assistant', text, toolCalls});
				for (const call of toolCalls) {
					this.#unanswered.set(call.id, call.name);
				}

				break;
			}

			case 'tool/call': {
				this.#names.set(event.data.callId, event.data.name);
				break;
			}

			case 'tool/result': {
				const block = event.data.message.content[0];
				// Only answers to calls the model made go back to it (a `/command`'s call was the person's).
				if (block === undefined || !this.#unanswered.has(block.toolCallId)) {
					break;
				}

				this.#messages.push({role: 'tool', callId: block.toolCallId, name: this.#names.get(block.toolCallId) ?? this.#unanswered.get(block.toolCallId)!, text: contentText(block.content), isError: block.isError});
				this.#unanswered.delete(block.toolCallId);
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
