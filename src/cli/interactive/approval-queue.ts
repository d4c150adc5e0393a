/**
@module The approval questions a live screen has open: the dialog shows the oldest, and the next
one appears when it is answered or withdrawn. Tool calls (and ACP agents' permission requests) can
ask at the same time; one slot would hide a question and leave its call waiting forever.
*/
export class ApprovalQueue<Entry> {
	readonly #waiting: Entry[] = [];

	/** The question the dialog shows. */
	get current(): Entry | undefined {
		return this.#waiting[0];
	}

	/** Questions asked and not answered, the shown one included. */
	get size(): number {
		return this.#waiting.length;
	}

	add(entry: Entry): void {
		this.#waiting.push(entry);
	}

	/** Takes `entry` out (answered, or withdrawn while it waited); false when it was not there. */
	remove(entry: Entry): boolean {
		const at = this.#waiting.indexOf(entry);
		if (at === -1) {
			return false;
		}

		this.#waiting.splice(at, 1);
		return true;
	}

	/** Takes every question out (the session closes, the turn is cancelled). */
	takeAll(): Entry[] {
		return this.#waiting.splice(0);
	}
}
