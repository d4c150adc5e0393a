/**
@module Runs one step's tool calls (contract.md §E3.3): in model order; an exclusive call
waits for every earlier call and runs alone; concurrency-safe calls share a bounded pool; results
are committed in model order, so a result follows its own call and every earlier call's result.
*/
import type {ToolExecutionResult} from '../tools/types.js';
import type {StartedCall} from '../session/recorder/session-runtime.js';

export type SchedulerOptions<Call> = {
	/** Start a call (writes its `tool/call`, runs its body). */
	readonly start: (call: Call) => StartedCall;
	/** Whether the call may overlap with other safe calls. */
	readonly isParallel: (call: Call) => boolean;
	/** Most safe calls running at once. */
	readonly maxParallel: number;
};

type InFlight = {readonly started: StartedCall; readonly done: Promise<void>; result: ToolExecutionResult | undefined};

/** Run `calls`; resolves with their results in model order once every result is committed. */
export async function runToolCalls<Call>(calls: readonly Call[], options: SchedulerOptions<Call>): Promise<ToolExecutionResult[]> {
	const results: ToolExecutionResult[] = [];
	const inFlight: InFlight[] = [];
	const commitSettledHead = (): void => {
		while (inFlight.length > 0 && inFlight[0]!.result !== undefined) {
			const head = inFlight.shift()!;
			head.started.commit(head.result!);
			results.push(head.result!);
		}
	};

	const unsettled = (): Array<Promise<void>> => inFlight.filter(entry => entry.result === undefined).map(entry => entry.done);
	const drain = async (): Promise<void> => {
		await Promise.all(unsettled());
		commitSettledHead();
	};

	for (const call of calls) {
		const parallel = options.isParallel(call);
		if (parallel) {
			while (unsettled().length >= options.maxParallel) {
				// eslint-disable-next-line no-await-in-loop -- a slot frees before the next call starts
				await Promise.race(unsettled());
				commitSettledHead();
			}
		} else {
			// eslint-disable-next-line no-await-in-loop -- a sequential call waits for every earlier one
			await drain();
		}

		const started = options.start(call);
		// A settled head is committed at once; a later call that settles first waits for its turn.
		const entry: InFlight = {started, result: undefined, done: started.result.then(result => {
			entry.result = result;
			commitSettledHead();
		})};
		inFlight.push(entry);
		if (!parallel) {
			// eslint-disable-next-line no-await-in-loop -- a sequential call settles before the next starts
			await drain();
		}
	}

	await drain();
	return results;
}
