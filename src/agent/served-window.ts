/**
@module The window a local or self-hosted server says it serves, asked once at the start: an
OpenAI-compatible server's model list carries it as `max_model_len` (vLLM), `context_length`
(OpenRouter, LM Studio) or `context_window`; Ollama's `/api/show` has the `num_ctx` it was set up
with. Ollama without `num_ctx` serves a small context (4096 tokens by default) and drops what does
not fit without an error — an agent that assumes the model's 128k silently loses its start — so the
ledger takes 4096 then, and says why.
*/
import type {ContextWindow} from './context-ledger.js';

/** Ollama's context when `num_ctx` is not set (docs.ollama.com, "Context length"). */
export const OLLAMA_DEFAULT_CONTEXT = 4096;
const TIMEOUT_MS = 3000;

type Fetch = (url: string, init: {readonly method: string; readonly headers?: Record<string, string>; readonly body?: string; readonly signal: AbortSignal}) => Promise<{readonly ok: boolean; json(): Promise<unknown>}>;

/** What `endpoint` (a base URL ending in `/v1` or so) says of `model`'s window; `undefined` when it says nothing or does not answer. */
export async function servedWindow(endpoint: string, model: string, fetchImpl: Fetch = fetch as unknown as Fetch): Promise<ContextWindow | undefined> {
	const signal = AbortSignal.timeout(TIMEOUT_MS);
	const base = endpoint.replace(/\/+$/, '');
	const listed = await ask(fetchImpl, `${base}/models`, {method: 'GET', signal});
	const entry = Array.isArray((listed as {data?: unknown} | undefined)?.data) ? (listed as {data: unknown[]}).data.find(item => isRecord(item) && item.id === model) : undefined;
	if (isRecord(entry)) {
		for (const key of ['max_model_len', 'context_length', 'context_window']) {
			const tokens = entry[key];
			if (typeof tokens === 'number' && Number.isSafeInteger(tokens) && tokens > 0) {
				return {tokens, source: `server (${key})`};
			}
		}
	}

	// Ollama: its native API beside the OpenAI-compatible one.
	const shown = await ask(fetchImpl, `${base.replace(/\/v1$/, '')}/api/show`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({model}), signal});
	if (!isRecord(shown) || !isRecord(shown.model_info)) {
		return undefined;
	}

	const numCtx = typeof shown.parameters === 'string' ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(shown.parameters) : null;
	if (numCtx !== null) {
		return {tokens: Number(numCtx[1]), source: 'server (Ollama num_ctx)'};
	}

	const trained = Object.entries(shown.model_info).find(([key, value]) => key.endsWith('.context_length') && typeof value === 'number')?.[1] as number | undefined;
	return {
		tokens: OLLAMA_DEFAULT_CONTEXT,
		source: 'server (Ollama default)',
		warning: `Ollama serves ${OLLAMA_DEFAULT_CONTEXT} tokens of context unless num_ctx is set${trained === undefined ? '' : ` (the model was trained for ${trained})`}, and drops what does not fit without an error: set OLLAMA_CONTEXT_LENGTH or the model's num_ctx, or context.windows in cardterm's config`,
	};
}

async function ask(fetchImpl: Fetch, url: string, init: Parameters<Fetch>[1]): Promise<unknown> {
	try {
		const response = await fetchImpl(url, init);
		return response.ok ? await response.json() : undefined;
	} catch {
		return undefined;
	}
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
