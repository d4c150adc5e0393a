import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {bashTool} from '../../../src/builtin/bash.js';
import {backgroundOutcome} from '../../../src/builtin/bash/background-job.js';
import {JobRuntime} from '../../../src/jobs/job-runtime.js';
import {jobTools} from '../../../src/jobs/job-tools.js';
import {ToolRegistry} from '../../../src/tools/registry.js';
import type {Agent} from '../../../src/tools/types.js';
import {call, isAlive, makeWorkspace, textOf} from './bash-exec-helpers.js';

const agent: Agent = {id: 'session-1'};
let workspace: {path: string; cleanup: () => Promise<void>};

beforeAll(async () => {
	workspace = await makeWorkspace();
});

afterAll(async () => {
	await workspace.cleanup();
});

function setup(maxActiveJobsPerOwner = 10) {
	const jobs = new JobRuntime({maxActiveJobsPerOwner});
	const registry = new ToolRegistry();
	registry.register(bashTool({workspace: workspace.path, jobs, killGraceMs: 500, drainGraceMs: 100}));
	for (const tool of jobTools(jobs)) {
		registry.register(tool);
	}

	return {jobs, registry};
}

/** Read a job's output until it holds `count` pid lines (each read waits for the job up to 200 ms). */
async function readPids(registry: ToolRegistry, jobId: string, count: number): Promise<number[]> {
	let output = '';
	for (let attempt = 0; attempt < 50; attempt++) {
		const result = await call(registry, 'job_output', {job_id: jobId, wait: true, timeout_ms: 200}, {agent});
		output += (result as {value: {text: string}} & typeof result).value.text;
		const pids = output.split('\n').filter((line) => /^\d+$/.test(line)).map(Number);
		if (pids.length >= count) {
			return pids;
		}
	}

	throw new Error(`no ${count} pids in ${JSON.stringify(output)}`);
}

describe('bash run_in_background', () => {
	it('starts a job, and job_output waits for its completion', async () => {
		const {registry, jobs} = setup();
		const started = await call(registry, 'bash', {command: 'echo hello; echo oops >&2', description: 'Greet', run_in_background: true}, {agent});
		expect(started).toEqual({isError: false, value: {kind: 'background', jobId: 'bash-1'}, content: [{type: 'text', text: 'started background job bash-1'}]});
		const output = await call(registry, 'job_output', {job_id: 'bash-1', wait: true}, {agent});
		expect(textOf(output)).toBe('hello\noops\n[status: completed, exit code: 0]');
		expect(jobs.get('bash-1', agent)).toMatchObject({kind: 'bash', label: 'echo hello; echo oops >&2', status: 'completed', reported: true});
	});

	it('reports a failing command as failed with its exit code', async () => {
		const {registry} = setup();
		await call(registry, 'bash', {command: 'exit 3', description: 'Fail', run_in_background: true}, {agent});
		expect(textOf(await call(registry, 'job_output', {job_id: 'bash-1', wait: true}, {agent}))).toBe('(no new output)\n[status: failed, exit code: 3]');
	});

	it('is not tied to the tool call: cancelling the call afterwards leaves the job running until job_kill', async () => {
		const {registry, jobs} = setup();
		const controller = new AbortController();
		const started = await call(registry, 'bash', {command: 'sleep 30 & echo $!; wait', description: 'Sleep', run_in_background: true}, {
			agent,
			signal: controller.signal,
		});
		expect(started).toMatchObject({isError: false, value: {kind: 'background', jobId: 'bash-1'}});
		const [sleeper] = await readPids(registry, 'bash-1', 1);
		controller.abort();
		expect(jobs.get('bash-1', agent).status).toBe('running');
		expect(isAlive(sleeper)).toBe(true);
		expect(textOf(await call(registry, 'job_kill', {job_id: 'bash-1', reason: 'done with it'}, {agent}))).toBe('requested cancellation of job bash-1');
		expect(textOf(await call(registry, 'job_output', {job_id: 'bash-1', wait: true}, {agent}))).toBe('(no new output)\n[status: killed, signal: SIGTERM]');
		expect(isAlive(sleeper)).toBe(false);
	});

	it('kills the jobs of an owner when the owner is disposed, whole trees included', async () => {
		const {registry, jobs} = setup();
		await call(registry, 'bash', {command: "sleep 30 & echo $!; sh -c 'sleep 30 & echo $!; wait' & wait", description: 'Tree', run_in_background: true}, {agent});
		const pids = await readPids(registry, 'bash-1', 2);
		expect(pids.every((pid) => isAlive(pid))).toBe(true);
		await jobs.disposeOwner(agent);
		expect(pids.filter((pid) => isAlive(pid))).toEqual([]);
		expect(jobs.list(agent)).toEqual([]);
	});

	it('refuses a job over the admission limit without running its command', async () => {
		const {registry, jobs} = setup(1);
		await call(registry, 'bash', {command: 'sleep 30', description: 'Hold the slot', run_in_background: true}, {agent});
		const second = await call(registry, 'bash', {command: 'touch second-ran.txt', description: 'Try again', run_in_background: true}, {agent});
		expect(textOf(second)).toBe(
			'Error: background job limit reached for this owner (limit: 1); use job_kill to stop an unneeded job, wait for it to finish, then retry',
		);
		await jobs.dispose();
		expect(existsSync(join(workspace.path, 'second-ran.txt'))).toBe(false);
	});
});

describe('backgroundOutcome', () => {
	it('maps how the shell ended to a job status', () => {
		expect(backgroundOutcome({exitCode: 0, signal: null}, false)).toEqual({status: 'completed', detail: 'exit code: 0'});
		expect(backgroundOutcome({exitCode: 2, signal: null}, false)).toEqual({status: 'failed', detail: 'exit code: 2'});
		expect(backgroundOutcome({exitCode: null, signal: 'SIGTERM'}, true)).toEqual({status: 'killed', detail: 'signal: SIGTERM'});
		expect(backgroundOutcome({exitCode: 143, signal: null}, true)).toEqual({status: 'killed', detail: 'exit code: 143'});
		expect(backgroundOutcome({exitCode: null, signal: 'SIGKILL'}, false)).toEqual({status: 'killed', detail: 'signal: SIGKILL'});
		expect(backgroundOutcome({exitCode: null, signal: null, error: new Error('EAGAIN')}, false)).toEqual({
			status: 'failed',
			detail: 'could not start the shell: EAGAIN',
		});
	});
});
