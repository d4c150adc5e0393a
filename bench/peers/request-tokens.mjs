// The tokens a session sent to the model, from the fake server's log of its requests (request-size.mjs
// measures each one): the fixed part of a step (system prompt + tool schemas), the input over the
// session (side requests too: they are sent and billed alike), what of it the prompt cache would serve
// where the wire declares caching (Anthropic's cache_control), and the last step's size.
import {estimatedTokens} from './request-size.mjs';

const isStep = entry => entry.kind === 'call' || entry.kind === 'answer';

/** Token figures (estimated from bytes) of the logged requests `entries`; empty when none was measured. */
export function requestTokens(entries) {
	const measured = entries.filter(entry => typeof entry.bytes === 'number');
	const steps = measured.filter(entry => isStep(entry));
	if (steps.length === 0) {
		return {};
	}

	const total = measured.reduce((sum, entry) => sum + entry.bytes, 0);
	const cached = measured.reduce((sum, entry) => sum + (entry.cachedBytes ?? 0), 0);
	return {
		fixedTokens: estimatedTokens(steps[0].fixedBytes),
		inputTokens: estimatedTokens(total),
		// Only a wire that declares its caching has cache reads; elsewhere (OpenAI's automatic prefix cache) none is counted.
		cachedTokens: measured.some(entry => entry.cachedBytes !== undefined) ? estimatedTokens(cached) : undefined,
		uncachedTokens: estimatedTokens(total - cached),
		lastRequestTokens: estimatedTokens(steps.at(-1).bytes),
		requestBytes: total,
	};
}
