/**
@module The cards of a live session model: those still running (drawn in the live frame) and which
settled ones were handed to the scrollback, so each settled card is written there once, however
often the fold reports it; and the entries a running call wrote (the todo list a `todo_write` call
records before its result), held to be written after its card, where the pager and print show them.
The interactive session and the ACP front end both track theirs here.
*/
import {TODO_TOOL_NAME} from '../builtin/todo.js';
import type {Card} from '../presentation/card.js';
import type {TranscriptEntry} from '../presentation/entry.js';

export class LiveCards {
	readonly #running = new Map<number, Card>();
	readonly #committed = new Set<number>();
	/** Card seq → entries to write after it. */
	readonly #after = new Map<number, TranscriptEntry[]>();

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

	/**
	Holds `entry` when a running call wrote it (a todo list: the newest `todo_write` card running, begun
	before it); false when it is to be written now. `after` gives it back once that card is written.
	*/
	hold(entry: TranscriptEntry): boolean {
		if (entry.entry !== 'todo') {
			return false;
		}

		let owner: number | undefined;
		for (const [seq, card] of this.#running) {
			if (card.name === TODO_TOOL_NAME && seq < entry.seq && (owner === undefined || seq > owner)) {
				owner = seq;
			}
		}

		if (owner === undefined) {
			return false;
		}

		const held = this.#after.get(owner);
		if (held === undefined) {
			this.#after.set(owner, [entry]);
		} else {
			held.push(entry);
		}

		return true;
	}

	/** The entries held for card `seq`, to write after it (taken). */
	after(seq: number): TranscriptEntry[] {
		const held = this.#after.get(seq) ?? [];
		this.#after.delete(seq);
		return held;
	}
}
