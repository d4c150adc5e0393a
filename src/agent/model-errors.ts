/**
@module What kind of failure a model call met, the line a person reads about it, and how long the
provider asks to wait before the next attempt. One rule for every provider, read from the facts of
the error (`error-facts.ts`): the HTTP status, the provider's error type and code, its message.

Never retried, because another attempt cannot succeed: an exhausted quota or balance (OpenAI's
`insufficient_quota` comes as a 429), a key the provider refuses (401/403), a conversation longer
than the model's window (kind `context-overflow`: the agent loop's hook for compaction, issue 17),
and any other request the provider calls invalid. Retried: rate limits, overloads, 5xx, network
failures, stalls, and errors that arrive inside a stream the provider had accepted (a 200).

The error bodies matched here are the providers' own (their sources are cited at each pattern and
in `test/agent/model-errors.test.ts`).
*/
import {assertNever} from '../presentation/assert-never.js';
import type {ErrorFacts} from './error-facts.js';
import type {ModelError, ModelErrorKind} from './model-types.js';

/** The kinds another attempt may cure. */
const RETRYABLE: ReadonlySet<ModelErrorKind> = new Set(['rate-limit', 'overloaded', 'server', 'network', 'stall']);

/** Error types and codes that name no more than "the request was wrong": the message says more. */
const GENERIC_LABELS = new Set(['error', 'invalid_request_error', 'invalid_argument', 'bad_request']);

/**
A conversation longer than the model's window, in each provider's words:
OpenAI `context_length_exceeded` ("This model's maximum context length is 4097 tokens. However, your
messages resulted in 4294 tokens…", chathub-dev/chathub#126), DeepSeek the same sentence
(evalstate/fast-agent#621), Anthropic "prompt is too long: 208656 tokens > 200000 maximum"
(sojohnnysaid/project-guide#2), Gemini "The input token count (1200293) exceeds the maximum number of
tokens allowed (1048576)." (google-gemini/gemini-cli#6678), llama.cpp `exceed_context_size_error`
"the request exceeds the available context size…" (ggml-org/llama.cpp#15780) and "Context size has
been exceeded." (ggml-org/llama.cpp#19774).
*/
const CONTEXT_CODES = new Set(['context_length_exceeded', 'exceed_context_size_error', 'model_context_window_exceeded', 'request_too_large']);
const CONTEXT_MESSAGES = /maximum context length|prompt is too long|input token count \(?\d*\)? ?exceeds the maximum|exceeds the available context size|context (?:size|window|length) (?:has been |was )?exceeded|too many tokens in the (?:prompt|request)/i;

/**
An exhausted quota, balance or credit: OpenAI `insufficient_quota` (ChatGPTNextWeb/NextChat#4101),
DeepSeek's and OpenRouter's 402, Anthropic's low credit balance. Not by OpenAI's sentence "You
exceeded your current quota": Gemini says the same of a per-minute limit that clears (its 429
`RESOURCE_EXHAUSTED` with a RetryInfo), which is a rate limit.
*/
const QUOTA_CODES = new Set(['insufficient_quota', 'billing_error', 'billing_hard_limit_reached', 'insufficient_balance']);
const QUOTA_MESSAGES = /insufficient (?:balance|quota|credits?)|credit balance is too low/i;

/** A key the provider refuses (OpenAI `invalid_api_key`, chatanywhere/GPT_API_free#62; Anthropic `authentication_error`, `permission_error`). */
const AUTH_CODES = new Set(['invalid_api_key', 'authentication_error', 'permission_error', 'unauthenticated', 'permission_denied']);

/** Anthropic `overloaded_error` (its docs: "would normally correspond to an HTTP 529"), Gemini `UNAVAILABLE`. */
const OVERLOAD_CODES = new Set(['overloaded_error', 'unavailable', 'overloaded']);
const RATE_CODES = new Set(['rate_limit_error', 'rate_limit_exceeded', 'resource_exhausted', 'too_many_requests']);
const SERVER_CODES = new Set(['api_error', 'server_error', 'internal', 'internal_server_error', 'timeout_error']);

export type ClassifyOptions = {
	/** The HTTP status of the response (a 200 for an error inside a stream). */
	readonly status?: number;
	/** The error came inside a stream the provider had accepted. */
	readonly inStream?: boolean;
	/** A network failure's code (`ECONNRESET`, …). */
	readonly networkCode?: string;
	/** How long the provider asks to wait (`serverRetryDelayMs`). */
	readonly retryAfterMs?: number;
	/** The SDK's own verdict on an HTTP failure, when it gave one. */
	readonly sdkRetryable?: boolean;
};

/** A model call's failure, classified. */
export function classifyModelError(facts: ErrorFacts, options: ClassifyOptions = {}): ModelError {
	const status = options.status !== undefined && options.status !== 200 ? options.status : facts.status;
	const kind = kindOf(facts, status, options);
	return {
		message: errorLine(facts),
		kind,
		retryable: RETRYABLE.has(kind),
		...(status === undefined ? {} : {status}),
		...(facts.type === undefined ? {} : {type: facts.type}),
		...(facts.code === undefined ? {} : {code: facts.code}),
		...(options.retryAfterMs === undefined ? {} : {retryAfterMs: options.retryAfterMs}),
	};
}

function kindOf(facts: ErrorFacts, status: number | undefined, options: ClassifyOptions): ModelErrorKind {
	const labels = [facts.code, facts.type].filter((label): label is string => label !== undefined).map(label => label.toLowerCase());
	const has = (set: ReadonlySet<string>): boolean => labels.some(label => set.has(label));
	// What cannot succeed again is decided first: a quota error comes as a 429, an overflow as a 500 from some servers.
	if (has(CONTEXT_CODES) || CONTEXT_MESSAGES.test(facts.message) || status === 413) {
		return 'context-overflow';
	}

	if (has(QUOTA_CODES) || QUOTA_MESSAGES.test(facts.message) || status === 402) {
		return 'quota';
	}

	if (has(AUTH_CODES) || status === 401 || status === 403) {
		return 'auth';
	}

	if (options.networkCode !== undefined) {
		return 'network';
	}

	if (has(OVERLOAD_CODES) || status === 529 || status === 503) {
		return 'overloaded';
	}

	if (has(RATE_CODES) || status === 429) {
		return 'rate-limit';
	}

	if (has(SERVER_CODES) || (status !== undefined && status >= 500) || status === 408 || status === 409 || status === 425) {
		return 'server';
	}

	if (status !== undefined && status >= 400) {
		return 'invalid-request';
	}

	if (options.sdkRetryable === true) {
		return 'server';
	}

	// Inside an accepted stream, an error the provider does not call the request's fault is its own hiccup.
	return options.inStream === true && !labels.some(label => GENERIC_LABELS.has(label)) ? 'server' : 'other';
}

/** Where the failed request went, for advice that names it. */
export type AdviceContext = {
	/** The variable the API key was read from (`ModelClient.keyVariable`). */
	readonly keyVariable?: string;
	/** The server, when it is not the provider's own (`ModelClient.endpoint`). */
	readonly endpoint?: string;
};

/**
What a person can do next about a failure, one sentence that starts with the action and says why:
the turn's end shows it under the provider's message and `-p` prints it on stderr. Read from the
kind alone (and the status, for a 404), so every provider's failure of one kind gets the same advice;
`undefined` when there is nothing useful to say.
*/
export function errorAdvice(error: Pick<ModelError, 'kind' | 'status' | 'retryAfterMs'>, context: AdviceContext = {}): string | undefined {
	switch (error.kind) {
		case 'auth': {
			const key = context.keyVariable === undefined ? 'the API key' : `the API key in ${context.keyVariable}`;
			return `Check ${key}: the provider refused it${error.status === 403 ? ', or does not let it use this model' : ''}.`;
		}

		case 'quota': {
			return 'Check your plan and billing with the provider: the account\'s quota or credit is used up, so sending again cannot succeed.';
		}

		case 'context-overflow': {
			return 'Start a new session, or switch to a model with a larger context window: this conversation no longer fits the model\'s.';
		}

		case 'rate-limit': {
			const wait = error.retryAfterMs === undefined ? 'a minute' : `${Math.ceil(error.retryAfterMs / 1000)}s, as the provider asks,`;
			return `Wait ${wait} and send again: the provider limits how often it may be asked.`;
		}

		case 'overloaded': {
			return 'Send again in a while, or switch to another model: the provider is overloaded.';
		}

		case 'server': {
			return 'Send again: the provider failed, not your request (the conversation is kept).';
		}

		case 'network': {
			return `Check the network connection${context.endpoint === undefined ? '' : ` and the server's address (${context.endpoint})`}: the model's server could not be reached.`;
		}

		case 'stall': {
			return 'Send again; if this model is slow to start, raise agent.stallTimeoutMs in the config.';
		}

		case 'invalid-request': {
			return error.status === 404
				? 'Check the model\'s name and the server\'s address: the server does not know this model or route.'
				: 'Check the model\'s name and that it takes tool calls: the provider refused the request as invalid, and would refuse it again.';
		}

		case 'other': {
			return undefined;
		}

		default: {
			return assertNever(error.kind);
		}
	}
}

/** The provider's message and, when it adds something, its error code or type: `Overloaded (overloaded_error)`. */
function errorLine(facts: ErrorFacts): string {
	const label = [facts.code, facts.type].find(candidate => candidate !== undefined && !GENERIC_LABELS.has(candidate.toLowerCase()) && !facts.message.includes(candidate));
	return label === undefined ? facts.message : `${facts.message} (${label})`;
}

/**
How long the provider asks to wait, in ms: OpenAI's `retry-after-ms`, the standard `Retry-After`
(delay-seconds or an HTTP-date, RFC 9110 §10.2.3), or Gemini's `google.rpc.RetryInfo.retryDelay` in the
error body (`"retryDelay": "37s"`; googleapis/python-genai#2114, browserbase/mcp-server-browserbase#129).
*/
export function serverRetryDelayMs(headers: Readonly<Record<string, string | undefined>> | undefined, body: string | undefined, now: number): number | undefined {
	const header = (name: string): string | undefined => {
		const value = headers?.[name];
		return value === undefined || value.trim() === '' ? undefined : value.trim();
	};

	const milliseconds = header('retry-after-ms');
	if (milliseconds !== undefined && /^\d+(?:\.\d+)?$/.test(milliseconds)) {
		return Math.round(Number(milliseconds));
	}

	const retryAfter = header('retry-after');
	if (retryAfter !== undefined) {
		if (/^\d+(?:\.\d+)?$/.test(retryAfter)) {
			return Math.round(Number(retryAfter) * 1000);
		}

		const date = Date.parse(retryAfter);
		if (Number.isFinite(date)) {
			return Math.max(0, date - now);
		}
	}

	return retryInfoDelayMs(body);
}

/** Gemini's RetryInfo in an error body (an object or an array of them), as a duration string `"37s"` or `{seconds, nanos}`. */
function retryInfoDelayMs(body: string | undefined): number | undefined {
	if (body === undefined || !body.includes('RetryInfo') || body.length > 1_000_000) {
		return undefined;
	}

	let parsed: unknown;
	try {
		parsed = JSON.parse(body);
	} catch {
		return undefined;
	}

	for (const error of Array.isArray(parsed) ? parsed : [parsed]) {
		const details = (error as {error?: {details?: unknown}} | null)?.error?.details;
		if (!Array.isArray(details)) {
			continue;
		}

		for (const detail of details) {
			const fields = detail as Record<string, unknown> | null;
			if (typeof fields?.['@type'] !== 'string' || !fields['@type'].endsWith('google.rpc.RetryInfo')) {
				continue;
			}

			const delay = fields.retryDelay;
			if (typeof delay === 'string' && /^\d+(?:\.\d+)?s$/.test(delay)) {
				return Math.round(Number(delay.slice(0, -1)) * 1000);
			}

			if (typeof delay === 'object' && delay !== null) {
				const {seconds, nanos} = delay as {seconds?: unknown; nanos?: unknown};
				const whole = Number(seconds ?? 0);
				const fraction = Number(nanos ?? 0);
				if (Number.isFinite(whole) && Number.isFinite(fraction)) {
					return Math.round((whole * 1000) + (fraction / 1e6));
				}
			}
		}
	}

	return undefined;
}
