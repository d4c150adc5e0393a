/**
@module The cards of a live session model: those still running (drawn in the live frame) and which
settled ones were handed to the scrollback, so each settled card is written there once, however
often the fold reports it. The interactive session and the ACP front end both track theirs here.
*/
import type {Card} from '../presentation/card.js';

export class LiveCards {
	readonly #running = new Map<number, Card>();
	readonly #committed = new Set<number>();

	/** The running cards, oldest first. */
	running(): Card[] {
		return [...this.#running.values()];
	}

	/** Records a card's newest state; true when it settled now for the first time (the caller writes it to the scrollback). */
	settles(card: Card): boolean {
		if (card.status === 'running') {
			this.#running.set(card.seq, card);
			return false;
		}

		this.#running.delete(card.seq);
		if (this.#committed.has(card.seq)) {
			return false;
		}

		this.#committed.add(card.seq);
		return true;
	}

	/** Counts a settled card as written without writing it (a resumed history's part left out of the scrollback). */
	skip(seq: number): void {
		this.#committed.add(seq);
	}
}
