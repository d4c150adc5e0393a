// What a request sends to the model, as the fake server logs it: the body's bytes, its fixed part (the
// system prompt and the tool schemas, which every step repeats), and — on Anthropic's wire, where the
// client marks what may be cached (`cache_control`) — the bytes the prompt cache would serve.
// Tokens are estimated from bytes for every agent alike: bytes ÷ 4 (bench/request-size.mjs's estimator).
import {createHash} from 'node:crypto';

export const estimatedTokens = bytes => Math.ceil(bytes / 4);

const bytesOf = value => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));

/** The fixed part of a request body on `api`: its system prompt (instructions, system/developer messages) and its tools, in bytes. */
export function fixedBytes(api, body) {
	switch (api) {
		case 'chat': {
			return bytesOf((body.messages ?? []).filter(message => message.role === 'system' || message.role === 'developer')) + bytesOf(body.tools);
		}

		case 'responses': {
			const input = Array.isArray(body.input) ? body.input : [];
			return bytesOf(body.instructions) + bytesOf(input.filter(item => item.role === 'system' || item.role === 'developer')) + bytesOf(body.tools);
		}

		case 'gemini': {
			return bytesOf(body.systemInstruction) + bytesOf(body.tools);
		}

		case 'anthropic': {
			return bytesOf(body.system) + bytesOf(body.tools);
		}

		default: {
			return 0;
		}
	}
}

// Anthropic caches a prefix of at least 1 024 tokens (Sonnet, Opus; its docs' "minimum cacheable prompt length").
const minimumCachedTokens = 1024;

/** The blocks of a Messages request in the order the API caches them: tools, system, then each message's content blocks. */
function blocksInCacheOrder(body) {
	const blocks = [...(Array.isArray(body.tools) ? body.tools : [])];
	if (typeof body.system === 'string') {
		blocks.push({type: 'text', text: body.system});
	} else if (Array.isArray(body.system)) {
		for (const block of body.system) {
			blocks.push(block);
		}
	}

	for (const message of body.messages ?? []) {
		const content = typeof message.content === 'string' ? [{type: 'text', text: message.content}] : (Array.isArray(message.content) ? message.content : []);
		for (const block of content) {
			blocks.push({role: message.role, block});
		}
	}

	return blocks;
}

/**
Anthropic's prompt cache, as one client's requests meet it: each `cache_control` mark writes the prefix
up to its block; a later request reads the longest prefix (at any block boundary) written before. The
5-minute lifetime is left out (a bench session is shorter) and so is the 20-block look-back.
Returns `read(body, bodyBytes)` → the bytes of `body` (`bodyBytes` long as sent) served from the cache.
*/
export function anthropicPromptCache() {
	const written = new Set();
	return {
		read(body, bodyBytes) {
			const hash = createHash('sha1');
			let bytes = 0;
			let cached = 0;
			for (const item of blocksInCacheOrder(body)) {
				// The mark itself is no part of the cached content (it moves from request to request).
				const {cache_control: mark, ...rest} = item.block ?? item;
				const text = JSON.stringify(rest);
				// The bytes are the block's as sent (less its mark); the hash also keys the turn's role.
				bytes += Buffer.byteLength(text);
				hash.update(item.block === undefined ? `${text}\n` : `${item.role}\u0000${text}\n`);
				const digest = hash.copy().digest('hex');
				if (written.has(digest)) {
					cached = bytes;
				}

				if (mark !== undefined && estimatedTokens(bytes) >= minimumCachedTokens) {
					written.add(digest);
				}
			}

			// Message and request framing is not counted above: a body's cache reads never exceed its bytes.
			return Math.min(cached, bodyBytes);
		},
	};
}
