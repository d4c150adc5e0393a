/**
@module The per-run sub-call scheduler (contract.md §T6.4, simplified): calls start strictly in
submission order; consecutive concurrency-safe calls overlap up to a bound; an exclusive call
waits for the pool to drain and runs alone. Classification is re-read right before each start.
*/

/** One queued call. `run` must not reject; `abandon` is called instead of `run` when the run ends first. */
export type SchedulerTask = {
	classify(): 'parallel' | 'exclusive';
	run(): Promise<void>;
	abandon(): void;
};

/** Starts tasks in order under the parallel/exclusive rule. */
export class SubCallScheduler {
	readonly #maxParallel: number;
	readonly #queue: SchedulerTask[] = [];
	readonly #inFlight = new Set<Promise<void>>();
	#exclusiveRunning = false;
	#closed = false;

	constructor(maxParallel: number) {
		this.#maxParallel = maxParallel;
	}

	/** Queue a task (abandoned at once when the scheduler is closed). */
	submit(task: SchedulerTask): void {
		if (this.#closed) {
			task.abandon();
			return;
		}

		this.#queue.push(task);
		this.#pump();
	}

	/** Stop starting tasks: abandon everything queued. In-flight tasks keep running. */
	close(): void {
		this.#closed = true;
		for (const task of this.#queue.splice(0)) {
			task.abandon();
		}
	}

	/** Resolve once no task is in flight. */
	async drain(): Promise<void> {
		while (this.#inFlight.size > 0) {
			// eslint-disable-next-line no-await-in-loop -- waits until a slot is free
			await Promise.all(this.#inFlight);
		}
	}

	#pump(): void {
		while (!this.#closed && !this.#exclusiveRunning && this.#queue.length > 0) {
			const head = this.#queue[0]!;
			let mode: 'parallel' | 'exclusive';
			try {
				mode = head.classify() === 'parallel' ? 'parallel' : 'exclusive';
			} catch {
				mode = 'exclusive';
			}

			if (mode === 'exclusive' ? this.#inFlight.size > 0 : this.#inFlight.size >= this.#maxParallel) {
				return;
			}

			this.#queue.shift();
			this.#launch(head, mode === 'exclusive');
		}
	}

	#launch(task: SchedulerTask, exclusive: boolean): void {
		if (exclusive) {
			this.#exclusiveRunning = true;
		}

		const running: Promise<void> = task.run().catch(() => undefined).finally(() => {
			this.#inFlight.delete(running);
			if (exclusive) {
				this.#exclusiveRunning = false;
			}

			this.#pump();
		});
		this.#inFlight.add(running);
	}
}
