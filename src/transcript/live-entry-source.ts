/**
@module The pager over a session that is still running (Ctrl+O): the transcript as it was when the
pager opened (read back from the log, or from memory), kept current by the fold's changes while the
pager is open. A change to an entry the base holds replaces it; an entry created since is appended.
*/
import type {OutcomeCounts} from '../presentation/card-outcome.js';
import type {TranscriptEntry} from '../presentation/entry.js';
import type {DamagedLines} from '../session/reader/kept-diagnostics.js';
import type {ContextTimeline} from '../session/fold/context-timeline.js';
import type {EntrySource} from './entry-source.js';

/** The key of an entry: the seq of the event that created it (stable however entries are numbered). */
export function entryKey(entry: TranscriptEntry): number {
	return entry.entry === 'card' ? entry.card.seq : entry.seq;
}

type Base = EntrySource & {keyOf?(index: number): number | undefined; close?(): unknown; readonly ready?: Promise<void>};

export class LiveEntrySource implements EntrySource {
	readonly #base: Base;
	/** The newest entry key the base can hold: later entries come from the fold's changes. */
	readonly #boundary: number;
	readonly #counts: () => OutcomeCounts;
	readonly #onClose: (() => void) | undefined;
	/** Newer versions of entries the base holds, by key. */
	readonly #replaced = new Map<number, TranscriptEntry>();
	/** Entries created after the pager opened, in transcript order, and where each is. */
	readonly #appended: TranscriptEntry[] = [];
	readonly #appendedAt = new Map<number, number>();
	readonly #listeners = new Set<() => void>();
	/** The base's entries up to the boundary, for the base count it was taken at. */
	#trimmed: {readonly of: number; readonly count: number} = {of: -1, count: 0};
	/** Resolves when the base is read whole (a log's index built). */
	readonly ready: Promise<void>;
	/** The base log's damaged lines (the pager's `!` list). */
	readonly damage?: () => DamagedLines;
	/** What the model's context held at each step: the session's own timeline (it heard every event). */
	readonly context?: () => ContextTimeline | undefined;

	/**
	`boundary` is the newest entry key known when the pager opened: the base was read after that and
	may hold later entries too, which are left to the fold's changes so none shows twice.
	`counts` are the session's live card counts, `context` its context timeline.
	*/
	constructor(base: Base, boundary: number, counts: () => OutcomeCounts, onClose?: () => void, context?: () => ContextTimeline | undefined) {
		this.#base = base;
		this.#onClose = onClose;
		this.ready = base.ready ?? Promise.resolve();
		this.#boundary = boundary;
		this.#counts = counts;
		if (base.damage !== undefined) {
			this.damage = () => base.damage!();
		}

		if (context !== undefined) {
			this.context = context;
		}
	}

	/** Entries the fold created or replaced, in transcript order. */
	update(entries: readonly TranscriptEntry[]): void {
		for (const entry of entries) {
			const key = entryKey(entry);
			if (key <= this.#boundary) {
				this.#replaced.set(key, entry);
				continue;
			}

			const at = this.#appendedAt.get(key);
			if (at === undefined) {
				this.#appendedAt.set(key, this.#appended.length);
				this.#appended.push(entry);
			} else {
				this.#appended[at] = entry;
			}
		}

		if (entries.length > 0) {
			for (const listener of this.#listeners) {
				listener();
			}
		}
	}

	count(): number {
		// Until the base is read whole, entries after it would move as it grows: they wait.
		return this.#baseCount() + (this.#base.complete() ? this.#appended.length : 0);
	}

	entry(index: number): TranscriptEntry | undefined {
		const baseCount = this.#baseCount();
		if (index >= baseCount) {
			return this.#base.complete() ? this.#appended[index - baseCount] : undefined;
		}

		const entry = this.#base.entry(index);
		return entry === undefined ? undefined : (this.#replaced.get(entryKey(entry)) ?? entry);
	}

	complete(): boolean {
		return this.#base.complete();
	}

	counts(): OutcomeCounts {
		return this.#counts();
	}

	progress(): number | undefined {
		return this.#base.progress?.();
	}

	subscribe(listener: () => void): () => void {
		this.#listeners.add(listener);
		const unsubscribe = this.#base.subscribe?.(listener);
		return () => {
			this.#listeners.delete(listener);
			unsubscribe?.();
		};
	}

	generation(): number {
		return this.#base.generation?.() ?? 0;
	}

	moved(index: number, from: number): number | undefined {
		return this.#base.moved === undefined ? index : this.#base.moved(index, from);
	}

	/** Stops listening (the session stops feeding it) and closes the base. */
	close(): void {
		this.#onClose?.();
		this.#listeners.clear();
		void this.#base.close?.();
	}

	/** The base's entries up to the boundary (entries are in key order, so only its end is checked). */
	#baseCount(): number {
		const of = this.#base.count();
		if (this.#trimmed.of !== of) {
			let count = of;
			while (count > 0 && this.#keyAt(count - 1) > this.#boundary) {
				count--;
			}

			this.#trimmed = {of, count};
		}

		return this.#trimmed.count;
	}

	#keyAt(index: number): number {
		const key = this.#base.keyOf?.(index);
		if (key !== undefined) {
			return key;
		}

		const entry = this.#base.entry(index);
		return entry === undefined ? Number.NEGATIVE_INFINITY : entryKey(entry);
	}
}
