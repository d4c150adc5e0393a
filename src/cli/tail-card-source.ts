/**
@module The newest cards of a large log, read from its last few MB before the full index exists, so
the pager's first frame does not depend on the log's size.

The window is folded on its own. A card is kept only when its `tool/call` lies inside the window:
a result, sub-call or late settle whose call is further back would otherwise show as an orphan, so
those wait for the full index. When the window holds the whole file, every card is kept.
*/
import {closeSync, fstatSync, openSync, readSync} from 'node:fs';
import type {Card, CardStatus} from '../presentation/card.js';
import type {PresenterLookup} from '../presentation/presenters.js';
import {LogEventDecoder} from '../session/event-decoder.js';
import {SessionFold} from '../session/fold.js';

/** Bytes read from the end of the log by default. */
export const DEFAULT_TAIL_BYTES = 2 * 1024 * 1024;

/** The cards of a log's tail window. */
export type TailCards = {
	/** Kept cards, in transcript order. */
	readonly cards: readonly Card[];
	readonly counts: Readonly<Record<CardStatus, number>>;
	/** Byte offset where the window's first whole line starts. */
	readonly start: number;
	/** Whether the window is the whole file (every card is final). */
	readonly whole: boolean;
	/** File size when the window was read. */
	readonly size: number;
};

/** Folds the last `tailBytes` of the plain log at `path` (line 1, the header, is never part of it). */
export function foldLogTail(path: string, presenters: PresenterLookup, tailBytes = DEFAULT_TAIL_BYTES): TailCards {
	const fd = openSync(path, 'r');
	try {
		const size = fstatSync(fd).size;
		const from = Math.max(0, size - tailBytes);
		const buffer = Buffer.allocUnsafe(size - from);
		let filled = 0;
		while (filled < buffer.length) {
			const read = readSync(fd, buffer, filled, buffer.length - filled, from + filled);
			if (read === 0) {
				break;
			}

			filled += read;
		}

		return foldWindow(buffer.subarray(0, filled), from, size, presenters);
	} finally {
		closeSync(fd);
	}
}

function foldWindow(bytes: Buffer, from: number, size: number, presenters: PresenterLookup): TailCards {
	// Line 1 is the header when the window starts at 0; otherwise the first bytes may be a partial line.
	let start = bytes.indexOf(10);
	start = start === -1 ? bytes.length : start + 1;
	const whole = from === 0;
	const fold = new SessionFold(presenters);
	const decoder = new LogEventDecoder(path(from), () => undefined);
	const calls = new Set<number>();
	const windowStart = from + start;
	for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, start)) {
		for (const event of decoder.decode(bytes.toString('utf8', start, end), 0)) {
			if (event.type === 'tool/call') {
				calls.add(event.seq);
			}

			fold.apply(event);
		}

		start = end + 1;
	}

	// A torn last line (no newline yet) is left out, as the reader does.
	const cards = whole ? [...fold.cards] : fold.cards.filter(card => calls.has(card.seq));
	const counts: Record<CardStatus, number> = {running: 0, ok: 0, error: 0, cancelled: 0, interrupted: 0};
	for (const card of cards) {
		counts[card.status]++;
	}

	return {cards, counts, start: windowStart, whole, size};
}

function path(from: number): string {
	return `<tail from byte ${from}>`;
}
