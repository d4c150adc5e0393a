/**
@module The pagers (Ctrl+O) a live screen opens over its running session, kept current: each one's
base is the transcript as it was when it opened (read back from the log, or from memory), and every
fold change after that updates it (`LiveEntrySource`). Shared by the native session's controller
and the ACP one, so a pager opened while calls settle shows them settle in both.
*/
import type {OutcomeCounts} from '../presentation/card-outcome.js';
import type {TranscriptEntry} from '../presentation/entry.js';
import type {ContextTimeline} from '../session/fold/context-timeline.js';
import type {EntrySource} from '../transcript/entry-source.js';
import {entryKey, LiveEntrySource} from '../transcript/live-entry-source.js';
import {pushAll} from '../layout/text/push-all.js';

type Base = EntrySource & {close?(): unknown};

export class LivePagers {
	/** The newest entry key the fold has produced (where a pager's base ends). */
	#newestKey = Number.NEGATIVE_INFINITY;
	/** Open pagers (and bases being read), fed every fold change. */
	readonly #listeners = new Set<(entries: readonly TranscriptEntry[]) => void>();

	/** An entry the session has produced, shown or not (a base read after now may hold it). */
	saw(entry: TranscriptEntry): void {
		this.#newestKey = Math.max(this.#newestKey, entryKey(entry));
	}

	/** A fold change's entries, before the screen shows them. */
	changed(entries: readonly TranscriptEntry[]): void {
		for (const listener of this.#listeners) {
			listener(entries);
		}
	}

	/** A pager over `base()` (the transcript now), kept current by the changes from now on until it is closed. */
	async open(base: () => Promise<Base>, counts: () => OutcomeCounts, context?: () => ContextTimeline | undefined): Promise<LiveEntrySource> {
		const boundary = this.#newestKey;
		// Changes from now on: the base read below may or may not hold them.
		const missed: TranscriptEntry[] = [];
		const record = (entries: readonly TranscriptEntry[]): void => {
			pushAll(missed, entries);
		};

		this.#listeners.add(record);
		let read: Base;
		try {
			read = await base();
		} finally {
			this.#listeners.delete(record);
		}

		const listener = (entries: readonly TranscriptEntry[]): void => {
			live.update(entries);
		};

		const live = new LiveEntrySource(read, boundary, counts, () => this.#listeners.delete(listener), context);
		live.update(missed);
		this.#listeners.add(listener);
		return live;
	}
}
