/**
@module When a change of the live session reaches the screen. Ink throttles its frames (30 fps by
default), which makes a first token that arrives just after another frame wait up to 33 ms. The
live screen instead runs Ink with a short throttle (`LIVE_MAX_FPS`) and paces the changes that
stream — text deltas, live output, a followed pager's growth — here, before they reach React: a
change is drawn at once when the screen has drawn none for a frame, or when it is urgent (something
the person waits for appears: the first text of a step, an approval); changes coming faster are
drawn together at the end of the frame. Keys are React state and never wait here.
*/

/** One paced frame: the rate streamed changes are drawn at (Ink's default frame). */
export const PACED_FRAME_MS = 33;

/**
Ink's `maxFps` for the live screen: its throttle is then 1 ms, so what is drawn at once (a key, a
first token) is on the terminal within a 60 Hz frame of its arrival; what streams is paced above.
*/
export const LIVE_MAX_FPS = 1000;

export type PacedListener = {
	/** A change happened; `urgent` ones are handed over at once. */
	notify(urgent?: boolean): void;
	/** Drop a change still waiting for its frame. */
	dispose(): void;
};

/** `listener`, called at most once per `intervalMs` unless a change is urgent; the last change of a burst is never dropped. */
export function pacedListener(listener: () => void, {intervalMs = PACED_FRAME_MS, now = () => performance.now()}: {readonly intervalMs?: number; readonly now?: () => number} = {}): PacedListener {
	let last = Number.NEGATIVE_INFINITY;
	let timer: NodeJS.Timeout | undefined;
	const deliver = (): void => {
		clearTimeout(timer);
		timer = undefined;
		last = now();
		listener();
	};

	return {
		notify(urgent = false) {
			const since = now() - last;
			if (urgent || (timer === undefined && since >= intervalMs)) {
				deliver();
			} else {
				// A delivery already due reads the newest state then: one timer per frame.
				timer ??= setTimeout(deliver, Math.max(0, intervalMs - since));
			}
		},
		dispose() {
			clearTimeout(timer);
			timer = undefined;
		},
	};
}

type StreamingEntry = {readonly entry: string; readonly seq?: number; readonly streaming?: boolean; readonly text?: string; readonly reasoning?: string; readonly preparing?: readonly string[]};
type PacedSnapshot = {readonly approval?: unknown; readonly closing: boolean; readonly runningEntries?: readonly StreamingEntry[]};

/** Streaming steps that show something (text, reasoning, a tool call being prepared). */
function shownStreams(snapshot: PacedSnapshot): number {
	let shown = 0;
	for (const entry of snapshot.runningEntries ?? []) {
		if (entry.entry === 'assistant' && entry.streaming === true && ((entry.text ?? '') !== '' || (entry.reasoning ?? '') !== '' || (entry.preparing?.length ?? 0) > 0)) {
			shown++;
		}
	}

	return shown;
}

/**
Whether going from `drawn` to `next` must be drawn at once: a step's first token, an approval, the
end. An entry leaving the live region for the scrollback (a card settles, a stream becomes its
message) is paced like any change: the scrollback writes it above the frame that no longer shows it
(use-scrollback.ts), so a burst of calls settling costs one frame, not one each.
*/
export function isUrgentChange(drawn: PacedSnapshot, next: PacedSnapshot): boolean {
	return shownStreams(next) > shownStreams(drawn) || (next.approval !== undefined && drawn.approval === undefined) || (next.closing && !drawn.closing);
}
