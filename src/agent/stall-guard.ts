/**
@module A model stream that sends nothing is cut off. The clock runs from the request (so a server
that never answers, or answers headers and then nothing, is the same stall) and restarts at every
stream part. Keep-alives do not restart it: the SDKs swallow SSE comments (`: ping`) and Anthropic's
`event: ping` before they become parts, so a stream kept "alive" without content stalls too.

The default is 45 s: the longest silence of a healthy stream is its time to the first token, a few
seconds for most requests and some tens of seconds for a very long prompt; a minute of nothing is
what a person at the prompt would not wait through. Models that think silently for longer (OpenAI's
o-series behind Chat Completions streams nothing while it reasons) need a longer setting
(`stallTimeoutMs`, the config's agent stall timeout).
*/

export const DEFAULT_STALL_TIMEOUT_MS = 45_000;

/**
The parts of `source` until it ends or sends nothing for `idleMs`; then `onStall` runs (it aborts
the request) and the parts end. The source is released either way, without waiting for it: a
source that ignores its abort must not hold the turn.
*/
export async function * untilStalled<T>(source: AsyncIterable<T>, idleMs: number, onStall: () => void): AsyncGenerator<T> {
	const iterator = source[Symbol.asyncIterator]();
	let finished = false;
	try {
		for (;;) {
			const next = iterator.next();
			let timer: NodeJS.Timeout | undefined;
			const stalled = new Promise<'stalled'>(resolve => {
				timer = setTimeout(() => {
					resolve('stalled');
				}, idleMs);
			});
			// eslint-disable-next-line no-await-in-loop -- one part at a time, in order
			const result = await Promise.race([next, stalled]).finally(() => {
				clearTimeout(timer);
			});
			if (result === 'stalled') {
				// The pending read settles (or rejects) once the abort reaches it; nobody waits for it.
				next.catch(() => undefined);
				onStall();
				return;
			}

			if (result.done === true) {
				finished = true;
				return;
			}

			yield result.value;
		}
	} finally {
		if (!finished) {
			void Promise.resolve(iterator.return?.()).catch(() => undefined);
		}
	}
}
