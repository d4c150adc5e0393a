import {afterEach, describe, expect, it, vi} from 'vitest';
import {JobRuntime, type JobRuntimeOptions} from '../../src/jobs/job-runtime.js';
import type {JobSnapshot} from '../../src/jobs/job-types.js';
import type {Agent} from '../../src/tools/types.js';
import {fakeJob, flushMicrotasks} from './fake-job.js';

const alice: Agent = {id: 'agent-a', sessionId: 'session-a'};
const bob: Agent = {id: 'agent-b', sessionId: 'session-b'};

function runtime(options: JobRuntimeOptions = {}): {jobs: JobRuntime; logs: string[]} {
	const logs: string[] = [];
	let clock = 1000;
	const jobs = new JobRuntime({
		now: () => clock++,
		log: (message) => {
			logs.push(message);
		},
		...options,
	});
	jobs.attachController('test');
	return {jobs, logs};
}

afterEach(() => {
	vi.useRealTimers();
});

describe('JobRuntime.start', () => {
	it('refuses work without an attached controller, before run() and without spending an id', () => {
		const jobs = new JobRuntime({now: () => 5});
		const run = vi.fn(() => fakeJob().hooks);
		expect(() => jobs.start({kind: 'bash', label: 'sleep 1', run})).toThrow(
			'background jobs unavailable: no job controller serves this agent (load @deepseek-ai/dsh-tool-jobs in its composition)',
		);
		expect(run).not.toHaveBeenCalled();
		const detach = jobs.attachController('tools');
		expect(jobs.start({kind: 'bash', label: 'sleep 1', run})).toBe('bash-1');
		detach();
		expect(() => jobs.start({kind: 'bash', label: 'sleep 1', run})).toThrow('background jobs unavailable');
	});

	it('checks kind, label and outputLimitBytes in that order with exact messages', () => {
		const {jobs} = runtime();
		const run = vi.fn(() => fakeJob().hooks);
		expect(() => jobs.start({kind: '', label: '', outputLimitBytes: 0, run})).toThrow('invalid job kind: expected a non-empty string');
		expect(() => jobs.start({kind: 'bash', label: '', outputLimitBytes: 0, run})).toThrow('invalid job label: expected a non-empty string');
		const bad: Array<[number, string]> = [
			[0, '0'],
			[-1, '-1'],
			[1.5, '1.5'],
			[Number.NaN, 'NaN'],
			[Number.POSITIVE_INFINITY, 'Infinity'],
			[Number.MAX_SAFE_INTEGER + 1, '9007199254740992'],
		];
		for (const [limit, shown] of bad) {
			expect(() => jobs.start({kind: 'bash', label: 'x', outputLimitBytes: limit, run})).toThrow(
				`invalid outputLimitBytes: expected a positive safe integer, got ${shown}`,
			);
		}

		expect(run).not.toHaveBeenCalled();
	});

	it('allocates <kind>-<n> per kind, only after run() returned', () => {
		const {jobs} = runtime();
		expect(jobs.start({kind: 'bash', label: 'a', run: () => fakeJob().hooks})).toBe('bash-1');
		expect(() =>
			jobs.start({
				kind: 'bash',
				label: 'b',
				run() {
					throw new Error('spawn failed');
				},
			}),
		).toThrow('spawn failed');
		expect(jobs.start({kind: 'build', label: 'c', run: () => fakeJob().hooks})).toBe('build-1');
		expect(jobs.start({kind: 'bash', label: 'd', run: () => fakeJob().hooks})).toBe('bash-2');
		expect(jobs.list().map((job) => job.id)).toEqual(['bash-1', 'build-1', 'bash-2']);
	});

	it('records a running snapshot with owner session and limit', () => {
		const {jobs} = runtime();
		const id = jobs.start({kind: 'bash', label: 'npm run dev', owner: alice, outputLimitBytes: 100, run: () => fakeJob().hooks});
		expect(jobs.get(id, alice)).toEqual({
			id: 'bash-1',
			kind: 'bash',
			label: 'npm run dev',
			outputLimitBytes: 100,
			ownerSession: 'session-a',
			status: 'running',
			startedAt: 1000,
			reported: false,
		} satisfies JobSnapshot);
	});

	it('admits at most the limit of active jobs per owner, with the unowned bucket separate', async () => {
		const {jobs} = runtime({maxActiveJobsPerOwner: 1});
		const first = fakeJob();
		jobs.start({kind: 'bash', label: 'a', owner: alice, run: () => first.hooks});
		const run = vi.fn(() => fakeJob().hooks);
		expect(() => jobs.start({kind: 'bash', label: 'b', owner: alice, run})).toThrow(
			'background job limit reached for this owner (limit: 1); use job_kill to stop an unneeded job, wait for it to finish, then retry',
		);
		expect(run).not.toHaveBeenCalled();
		expect(jobs.start({kind: 'bash', label: 'c', owner: bob, run})).toBe('bash-2');
		expect(jobs.start({kind: 'bash', label: 'd', run})).toBe('bash-3');
		first.finish({status: 'completed', detail: 'exit code: 0'});
		await flushMicrotasks();
		expect(jobs.start({kind: 'bash', label: 'e', owner: alice, run})).toBe('bash-4');
	});

	it('refuses an owner that was disposed', async () => {
		const {jobs} = runtime();
		await jobs.disposeOwner(alice);
		expect(() => jobs.start({kind: 'bash', label: 'x', owner: alice, run: () => fakeJob().hooks})).toThrow(
			'agent "agent-a" is not the registered agent instance (background job owner must be live)',
		);
	});
});

describe('JobRuntime settlement', () => {
	it('settles from done with detail, finishedAt, and announces completion last', async () => {
		const {jobs} = runtime();
		const job = fakeJob();
		const events: string[] = [];
		jobs.onJobsChanged((owner) => events.push(`changed:${owner?.id ?? '-'}`));
		jobs.onJobDone((snapshot, owner) => {
			events.push(`done:${snapshot.id}:${snapshot.status}:${owner?.id ?? '-'}`);
		});
		const id = jobs.start({kind: 'bash', label: 'make', owner: alice, run: () => job.hooks});
		job.finish({status: 'completed', detail: 'exit code: 0'});
		await flushMicrotasks();
		expect(events).toEqual(['changed:agent-a', 'changed:agent-a', 'done:bash-1:completed:agent-a']);
		expect(jobs.get(id, alice)).toEqual({
			id: 'bash-1',
			kind: 'bash',
			label: 'make',
			ownerSession: 'session-a',
			status: 'completed',
			detail: 'exit code: 0',
			startedAt: 1000,
			finishedAt: 1001,
			reported: false,
		});
	});

	it('settles a rejecting done as failed with String(error), and logs the contract violation', async () => {
		const {jobs, logs} = runtime();
		const job = fakeJob();
		const id = jobs.start({kind: 'bash', label: 'x', run: () => job.hooks});
		job.fail(new Error('boom'));
		await flushMicrotasks();
		expect(jobs.get(id)).toMatchObject({status: 'failed', detail: 'Error: boom'});
		expect(logs).toEqual(['job bash-1: done rejected (a producer contract violation)']);
	});

	it('settles a malformed outcome as failed', async () => {
		const {jobs} = runtime();
		const job = fakeJob();
		const id = jobs.start({kind: 'bash', label: 'x', run: () => job.hooks});
		job.finish({status: 'weird'} as never);
		await flushMicrotasks();
		expect(jobs.get(id)).toMatchObject({status: 'failed', detail: 'invalid job outcome: {"status":"weird"}'});
	});

	it('contains a throwing done listener and keeps calling the others', async () => {
		const {jobs, logs} = runtime();
		const job = fakeJob();
		const seen: string[] = [];
		jobs.onJobDone(() => {
			throw new Error('listener bug');
		});
		jobs.onJobDone((snapshot) => {
			seen.push(snapshot.id);
		});
		jobs.start({kind: 'bash', label: 'x', run: () => job.hooks});
		job.finish({status: 'completed'});
		await flushMicrotasks();
		expect(seen).toEqual(['bash-1']);
		expect(logs).toEqual(['job bash-1: a done listener threw']);
	});
});

describe('JobRuntime.kill', () => {
	it('calls cancel first, then marks stopping and reported', async () => {
		const {jobs} = runtime();
		const job = fakeJob();
		const id = jobs.start({kind: 'bash', label: 'x', run: () => job.hooks});
		expect(jobs.kill(id, undefined, 'not needed')).toBe('requested');
		expect(job.cancelReasons).toEqual(['not needed']);
		expect(jobs.get(id)).toMatchObject({status: 'stopping', reported: true});
		job.finish({status: 'killed', detail: 'signal: SIGTERM'});
		await flushMicrotasks();
		expect(jobs.get(id)).toMatchObject({status: 'killed', detail: 'signal: SIGTERM', reported: true});
		expect(jobs.kill(id)).toBe('already-finished');
		expect(job.cancelReasons).toEqual(['not needed']);
	});

	it('leaves the job running when cancel throws, and propagates the throw', () => {
		const {jobs} = runtime();
		const job = fakeJob({cancelThrows: new Error('cannot signal')});
		const id = jobs.start({kind: 'bash', label: 'x', run: () => job.hooks});
		expect(() => jobs.kill(id)).toThrow('cannot signal');
		expect(jobs.get(id)).toMatchObject({status: 'running', reported: false});
	});

	it('marks a finished job reported when killed, answering already-finished', async () => {
		const {jobs} = runtime();
		const job = fakeJob();
		const id = jobs.start({kind: 'bash', label: 'x', run: () => job.hooks});
		job.finish({status: 'completed', detail: 'exit code: 0'});
		await flushMicrotasks();
		expect(jobs.kill(id)).toBe('already-finished');
		expect(jobs.get(id).reported).toBe(true);
		expect(job.cancelReasons).toEqual([]);
	});
});

describe('JobRuntime.wait', () => {
	it('resolves with the live snapshot on timeout without touching the job', async () => {
		vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']});
		const {jobs} = runtime();
		const job = fakeJob();
		const id = jobs.start({kind: 'bash', label: 'x', run: () => job.hooks});
		const waiting = jobs.wait(id, 500);
		await vi.advanceTimersByTimeAsync(500);
		expect(await waiting).toMatchObject({id: 'bash-1', status: 'running', reported: false});
		expect(job.cancelReasons).toEqual([]);
	});

	it('resolves on settlement and marks the job reported', async () => {
		const {jobs} = runtime();
		const job = fakeJob();
		const id = jobs.start({kind: 'bash', label: 'x', run: () => job.hooks});
		const waiting = jobs.wait(id, 60_000);
		job.finish({status: 'completed', detail: 'exit code: 0'});
		expect(await waiting).toMatchObject({status: 'completed', detail: 'exit code: 0', reported: true});
	});

	it('rejects with wait aborted on a pre-aborted or later aborted signal', async () => {
		const {jobs} = runtime();
		const id = jobs.start({kind: 'bash', label: 'x', run: () => fakeJob().hooks});
		await expect(jobs.wait(id, 1000, undefined, AbortSignal.abort())).rejects.toThrow('wait aborted');
		const controller = new AbortController();
		const waiting = jobs.wait(id, 60_000, undefined, controller.signal);
		controller.abort();
		await expect(waiting).rejects.toThrow('wait aborted');
	});

	it('rejects a timeout that is not a positive finite number', async () => {
		const {jobs} = runtime();
		const id = jobs.start({kind: 'bash', label: 'x', run: () => fakeJob().hooks});
		await expect(jobs.wait(id, 0)).rejects.toThrow('invalid wait timeout: expected a positive number of milliseconds, got 0');
		await expect(jobs.wait(id, Number.NaN)).rejects.toThrow('invalid wait timeout: expected a positive number of milliseconds, got NaN');
	});
});

describe('JobRuntime access and reading', () => {
	it('fences every operation by session and lists only what the caller may see', async () => {
		const {jobs} = runtime();
		const id = jobs.start({kind: 'bash', label: 'mine', owner: alice, run: () => fakeJob().hooks});
		jobs.start({kind: 'bash', label: 'shared', run: () => fakeJob().hooks});
		const message = 'job bash-1 belongs to another session';
		expect(() => jobs.get(id, bob)).toThrow(message);
		expect(() => jobs.get(id)).toThrow(message);
		expect(() => jobs.read(id, bob)).toThrow(message);
		expect(() => jobs.kill(id, bob)).toThrow(message);
		await expect(jobs.wait(id, 10, bob)).rejects.toThrow(message);
		expect(() => jobs.get('bash-9', alice)).toThrow('unknown job bash-9');
		expect(jobs.get(id, {id: 'agent-a2', sessionId: 'session-a'}).label).toBe('mine');
		expect(jobs.list(alice).map((job) => job.label)).toEqual(['mine', 'shared']);
		expect(jobs.list(bob).map((job) => job.label)).toEqual(['shared']);
		expect(jobs.list().map((job) => job.label)).toEqual(['shared']);
	});

	it('reads a stream job through its consuming cursor', async () => {
		const {jobs} = runtime();
		const job = fakeJob();
		const id = jobs.start({kind: 'bash', label: 'x', run: () => job.hooks});
		job.emit('one\n');
		expect(jobs.read(id).text).toBe('one\n');
		expect(jobs.read(id).text).toBe('');
		job.emit('two\n');
		job.finish({status: 'completed', detail: 'exit code: 0'});
		await flushMicrotasks();
		const read = jobs.read(id);
		expect(read.text).toBe('two\n');
		expect(read.snapshot).toMatchObject({status: 'completed', reported: true});
	});

	it('reads a final-output job as empty while live and its output once terminal, idempotently', async () => {
		const {jobs} = runtime();
		const job = fakeJob({finalOutput: true});
		const id = jobs.start({kind: 'task', label: 'x', run: () => job.hooks});
		expect(jobs.read(id).text).toBe('');
		job.finish({status: 'completed', output: 'result'});
		await flushMicrotasks();
		expect(jobs.read(id).text).toBe('result');
		expect(jobs.read(id).text).toBe('result');
	});
});

describe('JobRuntime teardown', () => {
	it('disposeOwner cancels the owner\'s live jobs, awaits them and removes their records', async () => {
		const {jobs} = runtime();
		const mine = fakeJob({settleOnCancel: 'signal: SIGTERM'});
		const theirs = fakeJob();
		const done: JobSnapshot[] = [];
		jobs.onJobDone((snapshot) => {
			done.push(snapshot);
		});
		jobs.start({kind: 'bash', label: 'mine', owner: alice, run: () => mine.hooks});
		jobs.start({kind: 'bash', label: 'theirs', owner: bob, run: () => theirs.hooks});
		await jobs.disposeOwner(alice);
		expect(mine.cancelReasons).toEqual(['owner disposed']);
		expect(theirs.cancelReasons).toEqual([]);
		expect(done.map((job) => [job.id, job.status, job.reported])).toEqual([['bash-1', 'killed', true]]);
		expect(jobs.list(alice)).toEqual([]);
		expect(jobs.list(bob).map((job) => job.id)).toEqual(['bash-2']);
	});

	it('disposeOwner force-settles a job whose cancel throws', async () => {
		const {jobs, logs} = runtime();
		const job = fakeJob({cancelThrows: new Error('no such process')});
		const settled: JobSnapshot[] = [];
		jobs.onJobDone((snapshot) => {
			settled.push(snapshot);
		});
		jobs.start({kind: 'bash', label: 'x', owner: alice, run: () => job.hooks});
		await jobs.disposeOwner(alice);
		expect(settled.map((snapshot) => [snapshot.status, snapshot.detail])).toEqual([
			['failed', 'cancel threw during teardown; work may be orphaned: no such process'],
		]);
		expect(logs).toEqual(['job bash-1: cancel threw during teardown']);
	});

	it('dispose cancels everything, closes done listeners and refuses new work', async () => {
		const {jobs} = runtime();
		const a = fakeJob({settleOnCancel: 'signal: SIGTERM'});
		const b = fakeJob({settleOnCancel: 'signal: SIGTERM'});
		const done = vi.fn();
		const changed: Array<string | undefined> = [];
		jobs.onJobDone(done);
		jobs.start({kind: 'bash', label: 'a', owner: alice, run: () => a.hooks});
		jobs.start({kind: 'bash', label: 'b', run: () => b.hooks});
		jobs.onJobsChanged((owner) => changed.push(owner?.id));
		await jobs.dispose();
		expect(a.cancelReasons).toEqual(['jobs service disposed']);
		expect(b.cancelReasons).toEqual(['jobs service disposed']);
		expect(done).not.toHaveBeenCalled();
		expect(jobs.list()).toEqual([]);
		// stopping (a, b), settled (a, b), then one notice per owner once the records are gone.
		expect(changed).toEqual(['agent-a', undefined, 'agent-a', undefined, 'agent-a', undefined]);
		expect(() => jobs.start({kind: 'bash', label: 'c', run: () => fakeJob().hooks})).toThrow('background jobs unavailable');
	});
});
