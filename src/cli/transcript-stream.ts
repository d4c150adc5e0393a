/**
@module Streams a folded transcript in order: a card is written once it is settled and every card
before it has been written, so output starts before the log ends and memory for written cards can
be released. Interrupted cards wait for the end (a late result may still settle them).
*/
import type {Card} from '../presentation/card.js';
import type {SessionFold} from '../session/fold.js';

export class TranscriptStream {
	readonly #fold: SessionFold;
	readonly #write: (card: Card) => void;
	#next = 0;

	constructor(fold: SessionFold, write: (card: Card) => void) {
		this.#fold = fold;
		this.#write = write;
	}

	/** Write every card at the head of the transcript that can no longer change. */
	advance(): void {
		const cards = this.#fold.cards;
		while (this.#next < cards.length) {
			const card = cards[this.#next]!;
			if (card.status === 'running' || card.status === 'interrupted') {
				return;
			}

			this.#write(card);
			this.#fold.release(this.#next);
			this.#next++;
		}
	}

	/** Write everything left, whatever its status (the log has ended). */
	finish(): void {
		const cards = this.#fold.cards;
		while (this.#next < cards.length) {
			this.#write(cards[this.#next]!);
			this.#fold.release(this.#next);
			this.#next++;
		}
	}
}
