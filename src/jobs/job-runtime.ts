/**
@module The background-job runtime (contract.md §T5.1–§T5.4): producers start jobs, the job
tools read, wait for and kill them, and a session's end (or the runtime's) kills and awaits them.

Ownership: a job started with an `owner` agent belongs to that agent's session
(`agent.sessionId ?? agent.id`); only callers of the same session can see or touch it. Jobs
without an owner are open to everyone and live until `dispose()`.
*/
import type {Agent} from '../tools/types.js';
import {
	isTerminalJobStatus,
	type JobHooks,
	type JobId,
	type JobKillOutcome,
	type JobOutcome,
	type JobRead,
	type JobSnapshot,
	type JobStart,
	type JobStatus,
} from './job-types.js';

/** Options of a `JobRuntime`. */
export type JobRuntimeOptions = {
	/** Active (`running` + `stopping`) jobs allowed per owner, and for the shared unowned bucket. Default 10. */
	readonly maxActiveJobsPerOwner?: number;
	/** Clock for `startedAt`/`finishedAt`. Default `Date.now`. */
	readonly now?: () => number;
	/**
	Whether `agent` is the live, registered instance that may own jobs. Default: any agent that has
	not been passed to `disposeOwner`.
	*/
	readonly isLiveAgent?: (agent: Agent) => boolean;
	/** Where contained failures (throwing listeners, rejecting `done`) are reported. Default: `console.error`. */
	readonly log?: (message: string, error?: unknown) => void;
};

/** Called after every change of the job set or a job's status, with the owner concerned. */
export type JobsChangedListener = (owner: Agent | undefined) => void;

/** Called once per settled job, last, with its snapshot and its exact owner. */
export type JobDoneListener = (snapshot: JobSnapshot, owner: Agent | undefined) => void | Promise<void>;

type JobRecord = {
	readonly id: JobId;
	readonly kind: string;
	readonly label: string;
	readonly outputLimitBytes?: number;
	readonly owner?: Agent;
	readonly ownerSession?: string;
	readonly hooks: JobHooks;
	readonly startedAt: number;
	status: JobStatus;
	detail?: string;
	output?: string;
	finishedAt?: number;
	reported: boolean;
	/** Live `wait` calls; each is released on settlement. */
	readonly waiters: Set<() => void>;
	/** Resolves once the job is terminal. */
	readonly settled: Promise<void>;
	markSettled(): void;
};

const defaultMaxActiveJobsPerOwner = 10;

/** The session id an agent's jobs are fenced by. */
function sessionOf(agent: Agent | undefined): string | undefined {
	return agent === undefined ? undefined : (agent.sessionId ?? agent.id);
}

/** JSON text of a value for error messages, with a readable form for what JSON cannot spell. */
function describe(value: unknown): string {
	if (typeof value === 'number' && !Number.isFinite(value)) {
		return String(value);
	}

	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Normalize what a producer's `done` resolved with; anything malformed settles `failed`. */
function normalizeOutcome(outcome: unknown): JobOutcome {
	if (typeof outcome === 'object' && outcome !== null) {
		const {status, detail, output} = outcome as Record<string, unknown>;
		if (status === 'completed' || status === 'killed' || status === 'failed') {
			return {
				status,
				...(typeof detail === 'string' ? {detail} : {}),
				...(typeof output === 'string' ? {output} : {}),
			};
		}
	}

	return {status: 'failed', detail: `invalid job outcome: ${describe(outcome)}`};
}

/**
Holds every background job of a process. Producers call `start`; the job tools call `get`, `list`,
`read`, `wait` and `kill`; the session calls `disposeOwner(agent)` when it ends and `dispose()` on
shutdown. Both kill the jobs concerned and resolve only once every one of them has settled.
*/
export class JobRuntime {
	readonly #jobs = new Map<JobId, JobRecord>();
	readonly #counters = new Map<string, number>();
	readonly #controllers = new Map<symbol, string>();
	readonly #changeListeners = new Set<JobsChangedListener>();
	readonly #doneListeners = new Set<JobDoneListener>();
	readonly #disposedAgents = new WeakSet<Agent>();
	readonly #maxActive: number;
	readonly #now: () => number;
	readonly #isLiveAgent: (agent: Agent) => boolean;
	readonly #log: (message: string, error?: unknown) => void;
	#listenersClosed = false;
	#disposing: Promise<void> | undefined;

	constructor(options: JobRuntimeOptions = {}) {
		const max = options.maxActiveJobsPerOwner ?? defaultMaxActiveJobsPerOwner;
		if (!Number.isSafeInteger(max) || max < 1) {
			throw new Error(`JobRuntime: maxActiveJobsPerOwner must be a positive integer, got ${describe(max)}`);
		}

		this.#maxActive = max;
		this.#now = options.now ?? Date.now;
		this.#isLiveAgent = options.isLiveAgent ?? ((agent) => !this.#disposedAgents.has(agent));
		this.#log = options.log ?? ((message, error) => {
			// eslint-disable-next-line no-console -- the default log of an embedder that passes none; cardterm's sessions pass the sink
			console.error(error === undefined ? message : `${message}: ${errorText(error)}`);
		});
	}

	/**
	Attach a job controller (the job tools attach one). `start` refuses work while none is attached,
	because nobody could read or stop the job. Returns the detach function.
	*/
	attachController(name: string): () => void {
		const token = Symbol(name);
		if (this.#disposing === undefined) {
			this.#controllers.set(token, name);
		}

		return () => {
			this.#controllers.delete(token);
		};
	}

	/**
	Start a job: run every preflight check, call `spec.run()` once, then allocate the id. Any failure
	throws before an id exists; a throwing `run()` propagates and allocates nothing.
	*/
	start(spec: JobStart): JobId {
		if (this.#controllers.size === 0 || this.#disposing !== undefined) {
			// The contract's exact text (contract.md §T5.1); cardterm's controller is `jobTools(runtime)`.
			throw new Error('background jobs unavailable: no job controller serves this agent (load @deepseek-ai/dsh-tool-jobs in its composition)');
		}

		if (typeof spec.kind !== 'string' || spec.kind === '') {
			throw new Error('invalid job kind: expected a non-empty string');
		}

		if (typeof spec.label !== 'string' || spec.label === '') {
			throw new Error('invalid job label: expected a non-empty string');
		}

		const limit = spec.outputLimitBytes;
		if (limit !== undefined && !(Number.isSafeInteger(limit) && limit > 0)) {
			throw new Error(`invalid outputLimitBytes: expected a positive safe integer, got ${describe(limit)}`);
		}

		const {owner} = spec;
		if (owner !== undefined && !this.#isLiveAgent(owner)) {
			throw new Error(`agent "${owner.id}" is not the registered agent instance (background job owner must be live)`);
		}

		const active = this.#activeCount(owner);
		if (active >= this.#maxActive) {
			throw new Error(`background job limit reached for this owner (limit: ${this.#maxActive}); use job_kill to stop an unneeded job, wait for it to finish, then retry`);
		}

		const hooks = spec.run();
		const n = (this.#counters.get(spec.kind) ?? 0) + 1;
		this.#counters.set(spec.kind, n);
		const id = `${spec.kind}-${n}`;
		let markSettled!: () => void;
		const settled = new Promise<void>((resolve) => {
			markSettled = resolve;
		});
		const ownerSession = sessionOf(owner);
		const record: JobRecord = {
			id,
			kind: spec.kind,
			label: spec.label,
			...(limit === undefined ? {} : {outputLimitBytes: limit}),
			...(owner === undefined ? {} : {owner}),
			...(ownerSession === undefined ? {} : {ownerSession}),
			hooks,
			startedAt: this.#now(),
			status: 'running',
			reported: false,
			waiters: new Set(),
			settled,
			markSettled,
		};
		this.#jobs.set(id, record);
		Promise.resolve(hooks.done).then(
			(outcome) => {
				this.#settle(record, normalizeOutcome(outcome));
			},
			(error: unknown) => {
				this.#log(`job ${id}: done rejected (a producer contract violation)`, error);
				this.#settle(record, {status: 'failed', detail: String(error)});
			},
		);
		this.#notifyChanged(owner);
		return id;
	}

	/** A fresh snapshot. Throws `unknown job <id>` or `job <id> belongs to another session`. */
	get(id: JobId, caller?: Agent): JobSnapshot {
		return this.#snapshot(this.#access(id, caller));
	}

	/**
	The job's output limit without an access check, for bounding tool content; `undefined` when the
	job is unknown or has none.
	*/
	outputLimitOf(id: JobId): number | undefined {
		return this.#jobs.get(id)?.outputLimitBytes;
	}

	/** The caller's session's jobs and the unowned ones, in registration order. A caller without agent sees only unowned jobs. */
	list(caller?: Agent): JobSnapshot[] {
		const session = sessionOf(caller);
		const visible: JobSnapshot[] = [];
		for (const record of this.#jobs.values()) {
			if (record.ownerSession === undefined || record.ownerSession === session) {
				visible.push(this.#snapshot(record));
			}
		}

		return visible;
	}

	/**
	New output: a stream job's `readOutput()` delta; a final-output job's `output` once terminal
	(idempotent), `''` before. Reading a terminal job marks it reported.
	*/
	read(id: JobId, caller?: Agent): JobRead {
		const record = this.#access(id, caller);
		let text: string;
		if (record.hooks.readOutput === undefined) {
			text = isTerminalJobStatus(record.status) ? (record.output ?? '') : '';
		} else {
			text = record.hooks.readOutput();
		}

		if (isTerminalJobStatus(record.status)) {
			record.reported = true;
		}

		return {text, snapshot: this.#snapshot(record)};
	}

	/**
	Ask a job to stop. A terminal job answers `already-finished`. Otherwise `cancel(reason)` runs
	first (a throw propagates and leaves the job as it was), then the job becomes `stopping`.
	*/
	kill(id: JobId, caller?: Agent, reason?: string): JobKillOutcome {
		const record = this.#access(id, caller);
		if (isTerminalJobStatus(record.status)) {
			record.reported = true;
			return 'already-finished';
		}

		record.hooks.cancel(reason);
		if (!isTerminalJobStatus(record.status)) {
			record.status = 'stopping';
		}

		record.reported = true;
		this.#notifyChanged(record.owner);
		return 'requested';
	}

	/**
	Wait until the job settles or `timeoutMs` passes; a timeout resolves with the live snapshot and
	leaves the job alone. An abort of `signal` rejects with `wait aborted`.
	*/
	async wait(id: JobId, timeoutMs: number, caller?: Agent, signal?: AbortSignal): Promise<JobSnapshot> {
		const record = this.#access(id, caller);
		if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
			throw new Error(`invalid wait timeout: expected a positive number of milliseconds, got ${describe(timeoutMs)}`);
		}

		if (!isTerminalJobStatus(record.status)) {
			if (signal?.aborted === true) {
				throw new Error('wait aborted');
			}

			await new Promise<void>((resolve, reject) => {
				const finish = () => {
					clearTimeout(timer);
					record.waiters.delete(finish);
					signal?.removeEventListener('abort', onAbort);
				};

				const release = () => {
					finish();
					resolve();
				};

				const onAbort = () => {
					finish();
					reject(new Error('wait aborted'));
				};

				const timer = setTimeout(release, timeoutMs);
				record.waiters.add(release);
				signal?.addEventListener('abort', onAbort, {once: true});
			});
		}

		if (isTerminalJobStatus(record.status)) {
			record.reported = true;
		}

		return this.#snapshot(record);
	}

	/** Listen to changes of the job set; returns the unsubscribe function. */
	onJobsChanged(listener: JobsChangedListener): () => void {
		this.#changeListeners.add(listener);
		return () => {
			this.#changeListeners.delete(listener);
		};
	}

	/** Listen to settlements (never after `dispose()`); returns the unsubscribe function. */
	onJobDone(listener: JobDoneListener): () => void {
		this.#doneListeners.add(listener);
		return () => {
			this.#doneListeners.delete(listener);
		};
	}

	/**
	End of an owner (a session): the agent may no longer own jobs; each of its live jobs is cancelled
	with reason `owner disposed`; resolves once all have settled and their records are gone.
	*/
	async disposeOwner(agent: Agent): Promise<void> {
		this.#disposedAgents.add(agent);
		const owned = [...this.#jobs.values()].filter((record) => record.owner !== undefined && record.owner.id === agent.id);
		for (const record of owned) {
			this.#teardownCancel(record, 'owner disposed');
		}

		await Promise.all(owned.map(async (record) => record.settled));
		for (const record of owned) {
			this.#jobs.delete(record.id);
		}

		if (owned.length > 0) {
			this.#notifyChanged(agent);
		}
	}

	/**
	Shut the runtime down: close the done listeners, cancel every live job with reason
	`jobs service disposed`, await them all, clear the records and notify each owner concerned.
	Idempotent; `start` refuses work from the first call on.
	*/
	async dispose(): Promise<void> {
		this.#disposing ??= this.#disposeNow();
		return this.#disposing;
	}

	async #disposeNow(): Promise<void> {
		this.#listenersClosed = true;
		this.#controllers.clear();
		const records = [...this.#jobs.values()];
		for (const record of records) {
			this.#teardownCancel(record, 'jobs service disposed');
		}

		await Promise.all(records.map(async (record) => record.settled));
		this.#jobs.clear();
		const owners = new Map<string | undefined, Agent | undefined>();
		for (const record of records) {
			owners.set(record.owner?.id, record.owner);
		}

		for (const owner of owners.values()) {
			this.#notifyChanged(owner);
		}
	}

	#activeCount(owner: Agent | undefined): number {
		let count = 0;
		for (const record of this.#jobs.values()) {
			const sameBucket = owner === undefined ? record.owner === undefined : record.owner?.id === owner.id;
			if (sameBucket && !isTerminalJobStatus(record.status)) {
				count++;
			}
		}

		return count;
	}

	#access(id: JobId, caller: Agent | undefined): JobRecord {
		const record = this.#jobs.get(id);
		if (record === undefined) {
			throw new Error(`unknown job ${id}`);
		}

		if (record.ownerSession !== undefined && record.ownerSession !== sessionOf(caller)) {
			throw new Error(`job ${id} belongs to another session`);
		}

		return record;
	}

	#snapshot(record: JobRecord): JobSnapshot {
		return {
			id: record.id,
			kind: record.kind,
			label: record.label,
			...(record.outputLimitBytes === undefined ? {} : {outputLimitBytes: record.outputLimitBytes}),
			...(record.ownerSession === undefined ? {} : {ownerSession: record.ownerSession}),
			status: record.status,
			...(record.detail === undefined ? {} : {detail: record.detail}),
			startedAt: record.startedAt,
			...(record.finishedAt === undefined ? {} : {finishedAt: record.finishedAt}),
			reported: record.reported,
		};
	}

	/** Teardown stop: no notice is due; a throwing cancel force-settles the job as `failed`. */
	#teardownCancel(record: JobRecord, reason: string): void {
		if (isTerminalJobStatus(record.status)) {
			return;
		}

		record.reported = true;
		try {
			record.hooks.cancel(reason);
		} catch (error) {
			this.#log(`job ${record.id}: cancel threw during teardown`, error);
			this.#settle(record, {status: 'failed', detail: `cancel threw during teardown; work may be orphaned: ${errorText(error)}`});
			return;
		}

		if (!isTerminalJobStatus(record.status)) {
			record.status = 'stopping';
			this.#notifyChanged(record.owner);
		}
	}

	/** First settlement wins; completion is announced last. */
	#settle(record: JobRecord, outcome: JobOutcome): void {
		if (isTerminalJobStatus(record.status)) {
			return;
		}

		record.status = outcome.status;
		record.detail = outcome.detail;
		record.output = outcome.output;
		record.finishedAt = this.#now();
		if (record.waiters.size > 0) {
			record.reported = true;
		}

		for (const release of [...record.waiters]) {
			release();
		}

		record.markSettled();
		this.#notifyChanged(record.owner);
		if (this.#listenersClosed) {
			return;
		}

		const snapshot = this.#snapshot(record);
		for (const listener of [...this.#doneListeners]) {
			try {
				const returned = listener(snapshot, record.owner);
				if (returned instanceof Promise) {
					returned.catch((error: unknown) => {
						this.#log(`job ${record.id}: a done listener rejected`, error);
					});
				}
			} catch (error) {
				this.#log(`job ${record.id}: a done listener threw`, error);
			}
		}
	}

	#notifyChanged(owner: Agent | undefined): void {
		for (const listener of [...this.#changeListeners]) {
			try {
				listener(owner);
			} catch (error) {
				this.#log('a jobs-changed listener threw', error);
			}
		}
	}
}
