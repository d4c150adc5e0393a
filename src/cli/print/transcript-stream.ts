/**
@module Streams a folded transcript in order: an entry is written once it can no longer change and
every entry before it has been written, so output starts before the log ends and the fold forgets
what was written. Running and interrupted cards wait (a late result may still settle them); every
other entry is final when it is created. A log that ends mid-step ends with its open tail.
*/
import type {TranscriptEntry} from '../../presentation/entry.js';
import type {SessionFold} from '../../session/fold/fold.js';

export class TranscriptStream {
	readonly #fold: SessionFold;
	readonly #write: (entry: TranscriptEntry) => void;
	#next = 0;

	constructor(fold: SessionFold, write: (entry: TranscriptEntry) => void) {
		this.#fold = fold;
		this.#write = write;
	}

	/** Write every entry at the head of the transcript that can no longer change. */
	advance(): void {
		const entries = this.#fold.entries;
		while (this.#next < entries.length) {
			const entry = entries[this.#next]!;
			if (entry.entry === 'card' && (entry.card.status === 'running' || entry.card.status === 'interrupted')) {
				return;
			}

			this.#write(entry);
			this.#fold.forget(this.#next);
			this.#next++;
		}
	}

	/** Write everything left, whatever its status (the log has ended), and the open tail of a step still streaming. */
	finish(): void {
		const entries = this.#fold.entries;
		while (this.#next < entries.length) {
			this.#write(entries[this.#next]!);
			this.#fold.forget(this.#next);
			this.#next++;
		}

		for (const entry of this.#fold.tail) {
			this.#write(entry);
		}
	}
}
