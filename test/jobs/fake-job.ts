/**
A scripted job producer for runtime tests: the test decides when `done` settles and what
`readOutput` returns, and sees every `cancel` call.
*/
import type {JobHooks, JobOutcome} from '../../src/jobs/job-types.js';

export type FakeJob = {
	readonly hooks: JobHooks;
	readonly cancelReasons: Array<string | undefined>;
	finish(outcome: JobOutcome): void;
	fail(error: unknown): void;
	emit(text: string): void;
};

export type FakeJobOptions = {
	/** Settle `done` as `killed` with this detail as soon as `cancel` runs. */
	readonly settleOnCancel?: string;
	readonly cancelThrows?: Error;
	/** Make it a final-output job (no `readOutput`). */
	readonly finalOutput?: boolean;
};

export function fakeJob(options: FakeJobOptions = {}): FakeJob {
	let resolveDone!: (outcome: JobOutcome) => void;
	let rejectDone!: (error: unknown) => void;
	const done = new Promise<JobOutcome>((resolve, reject) => {
		resolveDone = resolve;
		rejectDone = reject;
	});
	const cancelReasons: Array<string | undefined> = [];
	let pending = '';
	const hooks: JobHooks = {
		cancel(reason) {
			cancelReasons.push(reason);
			if (options.cancelThrows !== undefined) {
				throw options.cancelThrows;
			}

			if (options.settleOnCancel !== undefined) {
				resolveDone({status: 'killed', detail: options.settleOnCancel});
			}
		},
		done,
		...(options.finalOutput === true
			? {}
			: {
				readOutput() {
					const text = pending;
					pending = '';
					return text;
				},
			}),
	};
	return {
		hooks,
		cancelReasons,
		finish: resolveDone,
		fail: rejectDone,
		emit(text) {
			pending += text;
		},
	};
}

/** Let queued promise continuations run. */
export async function flushMicrotasks(): Promise<void> {
	for (let i = 0; i < 5; i++) {
		await Promise.resolve();
	}
}
