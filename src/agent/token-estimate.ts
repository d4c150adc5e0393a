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
			return MESSAGE_OVERHEAD + estimateTokens(message.text);
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
