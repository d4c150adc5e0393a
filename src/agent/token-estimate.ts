/**
@module How many tokens a text is, estimated between the provider's reports. No tokenizer library:
none matches every provider (Anthropic's tokenizer is not published; OpenAI's rank files are
megabytes), so the estimate is a character rule — a token per 4 ASCII characters, one per other
character (CJK, emoji: a BPE token rarely spans two of them) — that the context ledger scales by the
ratio the provider's own `inputTokens` showed on the last request (`context-ledger.ts`).
*/
import type {ConversationMessage} from './model-types.js';

/** Tokens of `text`, by the character rule. */
export function estimateTokens(text: string): number {
	let ascii = 0;
	let other = 0;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code < 0x80) {
			ascii++;
		} else if (code < 0xDC_00 || code > 0xDF_FF) {
			// A surrogate pair counts once (its high half).
			other++;
		}
	}

	return Math.ceil(ascii / 4) + other;
}

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
