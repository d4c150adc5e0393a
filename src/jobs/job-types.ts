/**
@module Shapes of the background-job runtime (contract.md §T5): what a producer hands in,
what it must hand back, and the snapshots callers see.
*/
import type {Agent} from '../tools/types.js';

/** A job id: `<kind>-<n>` with a per-kind counter starting at 1. */
export type JobId = string;

/** Lifecycle: `running → (stopping) → completed | killed | failed`. */
export type JobStatus = 'running' | 'stopping' | 'completed' | 'killed' | 'failed';

/** A terminal status. */
export type JobTerminalStatus = 'completed' | 'killed' | 'failed';

/** How a job ended, as its producer reports it through `done`. */
export type JobOutcome = {
	readonly status: JobTerminalStatus;
	/** Short qualifier for the status line, for example `exit code: 0` or `signal: SIGTERM`. */
	readonly detail?: string;
	/** Final output of a job without `readOutput` (a final-output job). */
	readonly output?: string;
};

/** What a producer's `run()` returns. */
export type JobHooks = {
	/** Synchronous and idempotent; must eventually settle `done`. May throw (the throw reaches `kill`). */
	cancel(reason?: string): void;
	/** Never rejects; resolves only once the job's resources are released. */
	readonly done: Promise<JobOutcome>;
	/** Output produced since the previous call (a single consuming cursor), already bounded by the producer. */
	readOutput?(): string;
};

/** What a producer passes to `JobRuntime.start`. */
export type JobStart = {
	readonly kind: string;
	readonly label: string;
	/** Bound for the job tools' content, in UTF-8 bytes. */
	readonly outputLimitBytes?: number;
	/** The agent whose lifetime bounds the job; absent means an unowned job, open to every caller. */
	readonly owner?: Agent;
	/** Start the work; called once, after every preflight check passed. */
	run(): JobHooks;
};

/** A fresh copy of a job's state. */
export type JobSnapshot = {
	readonly id: JobId;
	readonly kind: string;
	readonly label: string;
	readonly outputLimitBytes?: number;
	/** The owner's session id (`agent.sessionId ?? agent.id`); absent for an unowned job. */
	readonly ownerSession?: string;
	readonly status: JobStatus;
	readonly detail?: string;
	/** Epoch ms of registration. */
	readonly startedAt: number;
	/** Epoch ms of settlement. */
	readonly finishedAt?: number;
	/** Whether someone already saw the job's end (a waiter, a read, a kill): then no completion notice is due. */
	readonly reported: boolean;
};

/** What the job tools show: a snapshot without ownership and bookkeeping. */
export type PublicJobSnapshot = {
	readonly id: JobId;
	readonly kind: string;
	readonly label: string;
	readonly status: JobStatus;
	readonly detail?: string;
	readonly startedAt: number;
	readonly finishedAt?: number;
};

/** `JobRuntime.kill` answer. */
export type JobKillOutcome = 'requested' | 'already-finished';

/** `JobRuntime.read` answer. */
export type JobRead = {readonly text: string; readonly snapshot: JobSnapshot};

/** Whether a status is terminal. */
export function isTerminalJobStatus(status: JobStatus): status is JobTerminalStatus {
	return status === 'completed' || status === 'killed' || status === 'failed';
}

/** The public part of a snapshot; optional keys stay absent. */
export function publicJobSnapshot(snapshot: JobSnapshot): PublicJobSnapshot {
	return {
		id: snapshot.id,
		kind: snapshot.kind,
		label: snapshot.label,
		status: snapshot.status,
		...(snapshot.detail === undefined ? {} : {detail: snapshot.detail}),
		startedAt: snapshot.startedAt,
		...(snapshot.finishedAt === undefined ? {} : {finishedAt: snapshot.finishedAt}),
	};
}
