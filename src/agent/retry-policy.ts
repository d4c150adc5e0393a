/**
@module When to try a model call again and how long to wait: rate limits, overloads, 5xx and
network failures are retried with exponential backoff and jitter (the server's `Retry-After` wins,
within the cap); anything else ends the turn at once.
*/
import type {ModelError} from './model-types.js';

export type RetryPolicy = {
	/** Attempts after the first one. */
	readonly maxRetries: number;
	/** Delay before the first retry, before jitter. */
	readonly baseDelayMs: number;
	/** No wait is longer than this. */
	readonly maxDelayMs: number;
	/** A number in [0, 1): the jitter's source (tests pin it). */
	readonly random?: () => number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = {maxRetries: 4, baseDelayMs: 1000, maxDelayMs: 30_000};

/** Whether `error` gets retry number `retry` (1-based). */
export function shouldRetry(policy: RetryPolicy, error: ModelError, retry: number): boolean {
	return error.retryable && retry <= policy.maxRetries;
}

/**
The wait before retry number `retry` (1-based): `base · 2^(retry-1)`, jittered into its upper half
so that clients that failed together do not come back together; `Retry-After` when the server sent it.
*/
export function retryDelayMs(policy: RetryPolicy, error: ModelError, retry: number): number {
	if (error.retryAfterMs !== undefined) {
		return Math.min(error.retryAfterMs, policy.maxDelayMs);
	}

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
