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

/**
Urgent changes come no closer together than this: a 60 Hz frame. An urgent change after a quieter
while is drawn at once; one within this of the last frame (a tool loop's steps, each starting with a
first token, milliseconds apart) is drawn at the end of it, so it is still on screen within a 60 Hz
frame of its arrival while a fast loop draws ~60 frames a second, not one or two a step.
*/
export const URGENT_SPACING_MS = 16;

/** `listener`, called at most once per `intervalMs`, or per `urgentMs` for urgent changes; the last change of a burst is never dropped. */
export function pacedListener(listener: () => void, {intervalMs = PACED_FRAME_MS, urgentMs = URGENT_SPACING_MS, now = () => performance.now()}: {readonly intervalMs?: number; readonly urgentMs?: number; readonly now?: () => number} = {}): PacedListener {
	let last = Number.NEGATIVE_INFINITY;
	let timer: NodeJS.Timeout | undefined;
	// When the waiting delivery is due (a later urgent change may bring it forward).
	let due = Number.POSITIVE_INFINITY;
	const deliver = (): void => {
		clearTimeout(timer);
		timer = undefined;
		due = Number.POSITIVE_INFINITY;
		last = now();
		listener();
	};

	const deliverAt = (at: number): void => {
		if (timer !== undefined && due <= at) {
			// A delivery already due reads the newest state then: one timer per frame.
			return;
		}

		clearTimeout(timer);
		due = at;
		timer = setTimeout(deliver, Math.max(0, at - now()));
	};

	return {
		notify(urgent = false) {
			const since = now() - last;
			const spacing = urgent ? urgentMs : intervalMs;
			if (since >= spacing && (urgent || timer === undefined)) {
				deliver();
			} else {
				deliverAt(last + spacing);
			}
		},
		dispose() {
			clearTimeout(timer);
			timer = undefined;
			due = Number.POSITIVE_INFINITY;
		},
	};
}

type StreamingEntry = {readonly entry: string; readonly seq?: number; readonly streaming?: boolean; readonly text?: string; readonly reasoning?: string; readonly preparing?: readonly string[]};
type PacedSnapshot = {readonly approval?: unknown; readonly closing: boolean; readonly runningEntries?: readonly StreamingEntry[]};

/**
Streaming steps that show words (text or reasoning): what the person waits to read. A tool call
being prepared is not counted: its line is a status, drawn at the frame's pace (in a tool loop every
step opens with one, milliseconds after the last frame).
*/
function shownStreams(snapshot: PacedSnapshot): number {
	let shown = 0;
	for (const entry of snapshot.runningEntries ?? []) {
		if (entry.entry === 'assistant' && entry.streaming === true && ((entry.text ?? '') !== '' || (entry.reasoning ?? '') !== '')) {
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
