/**
@module How many tokens a conversation message is, by the character rule of
`src/session/fold/token-estimate.ts` (the one rule, which a log read back uses too), scaled by the
context ledger (`context-ledger.ts`) by the ratio the provider's own `inputTokens` showed.
*/
import {estimateTokens} from '../session/fold/token-estimate.js';
import type {ConversationMessage} from './model-types.js';

export {estimateTokens} from '../session/fold/token-estimate.js';

/** What a message's framing costs beyond its text (role, ids, the call's JSON): providers' overhead per message is a few tokens. */
const MESSAGE_OVERHEAD = 4;

/** Tokens of one conversation message, by the character rule. */
export function messageTokens(message: ConversationMessage): number {
	switch (message.role) {
		case 'user': {
			let tokens = MESSAGE_OVERHEAD + estimateTokens(message.text);
			for (const image of message.images ?? []) {
				tokens += imageTokens(image.attachment.width, image.attachment.height);
			}

			return tokens;
		}

		case 'tool': {
			return MESSAGE_OVERHEAD + estimateTokens(message.text) + estimateTokens(message.name);
		}

		case 'assistant': {
			let tokens = MESSAGE_OVERHEAD;
			for (const part of message.content) {
				tokens += part.type === 'tool-call' ? estimateTokens(part.name) + estimateTokens(part.arguments) + MESSAGE_OVERHEAD : estimateTokens(part.text);
			}

			return tokens;
		}
	}
}

/**
An image's tokens: Anthropic's rule (width × height / 750), at most 1 600 — the providers scale a
larger image down before the model sees it (Anthropic to 1.15 megapixels, OpenAI's high detail to
at most 1 105 tokens, Gemini 258 per tile).
*/
export function imageTokens(width: number, height: number): number {
	return Math.min(1600, Math.ceil((width * height) / 750));
}
