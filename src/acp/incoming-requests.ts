/**
@module Back-pressure on the agent: the requests it sent that cardterm has read and whose answers
have not yet left for its stdin. An agent that stops reading its stdin must not make cardterm hold
answers without bound (a `terminal/output` of 16 MiB asked a hundred times is 1.6 GB of strings):

- past `MAX_REQUESTS_IN_FLIGHT` unanswered requests the frame reader stops reading the agent's
  stdout (`full`), until answers leave again (`whenRoom`); the agent's own writes then block, which
  costs a deaf agent, never cardterm. A legitimate agent awaits its requests and never has that many
  open; below the cap, reading goes on, so an agent blocked writing a big update while it has not
  yet read an answer cannot deadlock with cardterm.
- a large answer (a terminal's output, a file's text) is built only once the large answer before it
  has left (`large`): one at a time, however many requests came in one read.

An answer has left when the agent's stdin took it (`answered`, from the frame writer's flush).
*/

/** The agent's unanswered requests past which cardterm stops reading the agent. */
export const MAX_REQUESTS_IN_FLIGHT = 256;

/** A JSON-RPC id the SDK answers with the same id (others are answered with `null` and never counted). */
type RequestId = string | number;

export function isRequestId(id: unknown): id is RequestId {
	return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

export class IncomingRequests {
	readonly #limit: number;
	/** Unanswered requests by id (an agent may reuse one), with what waits for an answer to leave. */
	readonly #open = new Map<RequestId, {pending: number; readonly waiters: Array<() => void>}>();
	#count = 0;
	#roomWaiters: Array<() => void> = [];
	/** A large answer is built and has not left yet; the next ones wait in `#largeQueue`. */
	#largeBusy = false;
	#largeQueue: Array<() => void> = [];
	#closed = false;

	constructor(limit = MAX_REQUESTS_IN_FLIGHT) {
		this.#limit = limit;
	}

	/** Requests read and not answered yet. */
	get count(): number {
		return this.#count;
	}

	/** Whether reading the agent should wait for answers to leave. */
	get full(): boolean {
		return !this.#closed && this.#count >= this.#limit;
	}

	/** The reader read a request with this id. */
	received(id: unknown): void {
		if (this.#closed || !isRequestId(id)) {
			return;
		}

		const open = this.#open.get(id);
		if (open === undefined) {
			this.#open.set(id, {pending: 1, waiters: []});
		} else {
			open.pending += 1;
		}

		this.#count += 1;
	}

	/** An answer with this id left for the agent's stdin. */
	answered(id: unknown): void {
		const open = isRequestId(id) ? this.#open.get(id) : undefined;
		if (open === undefined) {
			return;
		}

		open.pending -= 1;
		this.#count -= 1;
		if (open.pending === 0) {
			this.#open.delete(id as RequestId);
		}

		for (const waiter of open.waiters.splice(0)) {
			waiter();
		}

		if (!this.full) {
			this.#wakeRoom();
		}
	}

	/** Calls `listener` once the reader may read again (at once when it may now). */
	whenRoom(listener: () => void): void {
		if (this.full) {
			this.#roomWaiters.push(listener);
		} else {
			listener();
		}
	}

	/**
	`build`'s answer to request `id`: built at once when no other large answer is on its way, else once
	the ones before it have left, in the order asked.
	*/
	async large<T>(id: unknown, build: () => T | Promise<T>): Promise<T> {
		if (this.#largeBusy) {
			// Handed the turn by `#nextLarge`, which keeps `#largeBusy` set.
			await new Promise<void>(resolve => {
				this.#largeQueue.push(resolve);
			});
		}

		this.#largeBusy = true;
		const open = isRequestId(id) ? this.#open.get(id) : undefined;
		if (open === undefined || this.#closed) {
			// Nothing will say when it left: the next one may start once this one is built.
			try {
				return await build();
			} finally {
				this.#nextLarge();
			}
		}

		open.waiters.push(() => {
			this.#nextLarge();
		});
		return build();
	}

	#nextLarge(): void {
		const next = this.#largeQueue.shift();
		if (next === undefined) {
			this.#largeBusy = false;
		} else {
			next();
		}
	}

	/** The connection ended: nothing waits any more. */
	close(): void {
		this.#closed = true;
		for (const open of this.#open.values()) {
			for (const waiter of open.waiters.splice(0)) {
				waiter();
			}
		}

		this.#open.clear();
		this.#count = 0;
		this.#wakeRoom();
		this.#largeBusy = false;
		for (const next of this.#largeQueue.splice(0)) {
			next();
		}
	}

	#wakeRoom(): void {
		for (const waiter of this.#roomWaiters.splice(0)) {
			waiter();
		}
	}
}
