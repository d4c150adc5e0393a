/**
@module When to try a model call again and how long to wait. Rate limits, overloads, 5xx, network
failures and stalls are retried with exponential backoff and jitter; what cannot succeed again
(`model-errors.ts`: quota, key, context overflow, invalid request) ends the turn at once.

A wait the provider asks for (`Retry-After`, Gemini's RetryInfo) is honoured as asked, never cut
short: a retry sooner than that fails again and counts against the quota. A wait longer than
`longWaitMs` is not taken silently: with a person there (`longWaits: 'wait'`, the interactive
session) the notice says how long and the status line counts down until Esc; without one (`-p`)
the turn ends naming the wait.
*/
import type {ModelError} from './model-types.js';

export type RetryPolicy = {
	/** Attempts after the first one. */
	readonly maxRetries: number;
	/** Delay before the first retry, before jitter. */
	readonly baseDelayMs: number;
	/** No backoff of cardterm's own is longer than this (a provider's asked-for wait may be). */
	readonly maxDelayMs: number;
	/** A provider's asked-for wait longer than this is said and left to the person (default 60 s). */
	readonly longWaitMs?: number;
	/** A number in [0, 1): the jitter's source (tests pin it). */
	readonly random?: () => number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = {maxRetries: 4, baseDelayMs: 1000, maxDelayMs: 30_000};

/**
A minute: Anthropic's and OpenAI's rate-limit windows are per minute, so an asked-for wait up to
that is the ordinary case; a longer one (a daily quota, an outage) is worth a person's decision.
*/
const DEFAULT_LONG_WAIT_MS = 60_000;

/** What to do about a failed attempt. */
export type RetryDecision =
	| {readonly kind: 'retry'; readonly delayMs: number; readonly reason: string}
	| {readonly kind: 'stop'; readonly error: ModelError};

/**
Whether retry number `retry` (1-based) follows `error`, after how long, and the reason the
`llm/retry` notice gives. `longWaits`: whether a wait past `longWaitMs` is taken (a person can
cancel it) or ends the turn.
*/
export function retryDecision(policy: RetryPolicy, error: ModelError, retry: number, longWaits: 'wait' | 'stop'): RetryDecision {
	if (!error.retryable || retry > policy.maxRetries) {
		return {kind: 'stop', error};
	}

	const asked = error.retryAfterMs;
	const bound = policy.longWaitMs ?? DEFAULT_LONG_WAIT_MS;
	if (asked !== undefined && asked > bound) {
		const seconds = Math.ceil(asked / 1000);
		if (longWaits === 'stop') {
			return {kind: 'stop', error: {...error, message: `${error.message}; the provider asks to wait ${seconds}s before another attempt, longer than a turn without a person waits (${Math.round(bound / 1000)}s)`}};
		}

		return {kind: 'retry', delayMs: asked, reason: `${error.message}; waiting ${seconds}s as the provider asks (cancel to stop)`};
	}

	return {kind: 'retry', delayMs: asked ?? backoffMs(policy, retry), reason: error.message};
}

/**
cardterm's own wait before retry number `retry`: `base · 2^(retry-1)`, capped, jittered into its
upper half so that clients that failed together do not come back together.
*/
function backoffMs(policy: RetryPolicy, retry: number): number {
	const exponential = Math.min(policy.baseDelayMs * 2 ** (retry - 1), policy.maxDelayMs);
	return Math.round(exponential * (0.5 + (policy.random ?? Math.random)() * 0.5));
}

/** Wait `ms`; resolves `false` at once when `signal` aborts first. */
export async function waitUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
	if (signal.aborted) {
		return false;
	}

	return new Promise(resolve => {
		const timer = setTimeout(() => {
			signal.removeEventListener('abort', onAbort);
			resolve(true);
		}, ms);
		const onAbort = (): void => {
			clearTimeout(timer);
			resolve(false);
		};

		signal.addEventListener('abort', onAbort, {once: true});
	});
}
