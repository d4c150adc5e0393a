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

export type StallWatch = {
	/** A part came: the silence starts again. */
	touch(): void;
	/** The stream ended: no stall any more. */
	stop(): void;
};

/**
Calls `onStall` (which aborts the request, ending its stream) once `idleMs` pass without a `touch`.
One timer for the whole stream, re-armed from the last part's time when it fires early: a part costs
a time stamp, not a timer (a long answer streams thousands of parts).
*/
export function watchStalls(idleMs: number, onStall: () => void): StallWatch {
	let lastPart = performance.now();
	let timer: NodeJS.Timeout | undefined;
	const check = (): void => {
		const idle = performance.now() - lastPart;
		if (idle < idleMs) {
			timer = setTimeout(check, idleMs - idle);
			return;
		}

		timer = undefined;
		onStall();
	};

	timer = setTimeout(check, idleMs);
	return {
		touch() {
			lastPart = performance.now();
		},
		stop() {
			clearTimeout(timer);
			timer = undefined;
		},
	};
}
