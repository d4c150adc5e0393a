/**
@module How many tokens a text is, estimated between the provider's reports. No tokenizer library:
none matches every provider (Anthropic's tokenizer is not published; OpenAI's rank files are
megabytes), so the estimate is a character rule — a token per 4 ASCII characters, one per other
character (CJK, emoji: a BPE token rarely spans two of them). The agent's ledger scales it by the
ratio the provider's own `inputTokens` showed (`src/agent/context-ledger.ts`); a log read back uses
it where a step recorded no usage (`context-timeline.ts`).
*/

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
