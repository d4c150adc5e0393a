import {describe, expect, it, vi} from 'vitest';
import {boundJobText} from '../../src/jobs/bound-text.js';
import {JobRuntime} from '../../src/jobs/job-runtime.js';
import {jobTools} from '../../src/jobs/job-tools.js';
import {formatJobCompletionNotice} from '../../src/jobs/status-line.js';
import {ToolRegistry} from '../../src/tools/registry.js';
import type {Agent, ToolExecutionResult} from '../../src/tools/types.js';
import {fakeJob, flushMicrotasks} from './fake-job.js';

const alice: Agent = {id: 'agent-a', sessionId: 'session-a'};
const bob: Agent = {id: 'agent-b', sessionId: 'session-b'};

function setup() {
	let clock = 1_790_000_010_010;
	const jobs = new JobRuntime({now: () => clock++});
	const registry = new ToolRegistry();
	const tools = jobTools(jobs);
	for (const tool of tools) {
		registry.register(tool);
	}

	let n = 0;
	const call = async (name: string, args: unknown, agent: Agent | undefined = alice, signal = new AbortController().signal) =>
		registry.execute({callId: `c${++n}`, name, arguments: args, signal, ...(agent === undefined ? {} : {agent})});
	return {jobs, registry, tools, call};
}

function textOf(result: ToolExecutionResult): string {
	const [block] = result.content;
	return block?.type === 'text' ? block.text : `<${JSON.stringify(result.content)}>`;
}

describe('job tools: definitions and cards', () => {
	it('returns job_output, job_list and job_kill with the §E2.11 call views and no result view', () => {
		const {tools} = setup();
		expect(tools.map((tool) => tool.name)).toEqual(['job_output', 'job_list', 'job_kill']);
		const [output, list, kill] = tools;
		expect(output.presentCall?.({job_id: 'bash-1', wait: true})).toEqual({
			card: 'generic',
			title: 'Read output from background job bash-1',
			kind: 'read',
			rawInput: 'bash-1',
		});
		expect(list.presentCall?.({})).toEqual({card: 'generic', title: 'List background jobs', kind: 'read'});
		expect(kill.presentCall?.({job_id: 'bash-1', reason: 'done'})).toEqual({
			card: 'generic',
			title: 'Kill background job bash-1',
			kind: 'execute',
			rawInput: 'bash-1',
		});
		expect(tools.map((tool) => tool.presentResult)).toEqual([undefined, undefined, undefined]);
		expect(output.presentCall?.({wait: true})).toBeUndefined();
	});

	it('attaches a controller so producers may start jobs', () => {
		const jobs = new JobRuntime();
		expect(() => jobs.start({kind: 'bash', label: 'x', run: () => fakeJob().hooks})).toThrow('background jobs unavailable');
		jobTools(jobs);
		expect(jobs.start({kind: 'bash', label: 'x', run: () => fakeJob().hooks})).toBe('bash-1');
	});

	it('refuses a default wait above the cap at load', () => {
		expect(() => jobTools(new JobRuntime(), {waitTimeoutMs: 10, maxWaitTimeoutMs: 5})).toThrow(
			'jobTools: waitTimeoutMs (10) must be positive and at most maxWaitTimeoutMs (5)',
		);
	});
});

describe('job_output', () => {
	it('reproduces the §E2.11 example: new output then the running status line', async () => {
		const {jobs, call} = setup();
		const job = fakeJob();
		jobs.start({kind: 'bash', label: 'npm run dev', owner: alice, run: () => job.hooks});
		job.emit('ready on :5173\n');
		const result = await call('job_output', {job_id: 'bash-1'});
		expect(result).toEqual({
			isError: false,
			value: {text: 'ready on :5173\n', job: {id: 'bash-1', kind: 'bash', label: 'npm run dev', status: 'running', startedAt: 1_790_000_010_010}},
			content: [{type: 'text', text: 'ready on :5173\n[status: running]'}],
		});
		expect(textOf(await call('job_output', {job_id: 'bash-1'}))).toBe('(no new output)\n[status: running]');
	});

	it('waits for completion and shows the detail in the status line', async () => {
		const {jobs, call} = setup();
		const job = fakeJob();
		jobs.start({kind: 'bash', label: 'make', owner: alice, run: () => job.hooks});
		const reading = call('job_output', {job_id: 'bash-1', wait: true});
		job.emit('built');
		job.finish({status: 'completed', detail: 'exit code: 0'});
		expect(textOf(await reading)).toBe('built\n[status: completed, exit code: 0]');
		expect(jobs.get('bash-1', alice).reported).toBe(true);
	});

	it('returns the live status when the wait times out, as a success', async () => {
		vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']});
		try {
			const {jobs, call} = setup();
			jobs.start({kind: 'bash', label: 'x', owner: alice, run: () => fakeJob().hooks});
			const reading = call('job_output', {job_id: 'bash-1', wait: true, timeout_ms: 1000});
			await vi.advanceTimersByTimeAsync(1000);
			const result = await reading;
			expect([result.isError, textOf(result)]).toEqual([false, '(no new output)\n[status: running]']);
		} finally {
			vi.useRealTimers();
		}
	});

	it('turns a cancelled wait into the ABORTED result', async () => {
		const {jobs, call} = setup();
		jobs.start({kind: 'bash', label: 'x', owner: alice, run: () => fakeJob().hooks});
		const controller = new AbortController();
		const reading = call('job_output', {job_id: 'bash-1', wait: true}, alice, controller.signal);
		await flushMicrotasks();
		controller.abort();
		expect(await reading).toEqual({
			isError: true,
			error: {message: 'tool call aborted', info: {name: 'AbortError', code: 'ABORTED'}},
			content: [{type: 'text', text: 'Error: tool call aborted'}],
		});
	});

	it('names an empty, unknown or foreign job id', async () => {
		const {jobs, call} = setup();
		jobs.start({kind: 'bash', label: 'x', owner: alice, run: () => fakeJob().hooks});
		expect(textOf(await call('job_output', {job_id: ''}))).toBe('Error: invalid job_id: expected a non-empty string, got ""');
		expect(textOf(await call('job_output', {job_id: 'bash-7'}))).toBe('Error: unknown job bash-7');
		expect(textOf(await call('job_output', {job_id: 'bash-1'}, bob))).toBe('Error: job bash-1 belongs to another session');
		expect(textOf(await call('job_kill', {job_id: 'bash-1'}, bob))).toBe('Error: job bash-1 belongs to another session');
	});

	it('bounds its content to the job\'s outputLimitBytes, keeping the tail and the status line', async () => {
		const {jobs, call} = setup();
		const job = fakeJob();
		jobs.start({kind: 'bash', label: 'x', owner: alice, outputLimitBytes: 60, run: () => job.hooks});
		job.emit(`${'a'.repeat(100)}END\n`);
		const text = textOf(await call('job_output', {job_id: 'bash-1'}));
		expect(text).toBe(`${'a'.repeat(20)}END\n[output truncated]\n[status: running]`);
		expect(Buffer.byteLength(text)).toBe(60);
	});
});

describe('job_list and job_kill', () => {
	it('lists the visible jobs, one line each, or says there are none', async () => {
		const {jobs, call} = setup();
		expect(textOf(await call('job_list', {}))).toBe('(no background jobs)');
		jobs.start({kind: 'bash', label: 'npm run dev', owner: alice, run: () => fakeJob().hooks});
		jobs.start({kind: 'bash', label: 'theirs', owner: bob, run: () => fakeJob().hooks});
		jobs.start({kind: 'build', label: 'tsc -w', run: () => fakeJob().hooks});
		const result = await call('job_list', {});
		expect(textOf(result)).toBe('bash-1 [bash] running — npm run dev\nbuild-1 [build] running — tsc -w');
		expect(result).toMatchObject({value: [{id: 'bash-1'}, {id: 'build-1'}]});
	});

	it('requests cancellation of a live job and reports an already finished one with its status', async () => {
		const {jobs, call} = setup();
		const job = fakeJob();
		jobs.start({kind: 'bash', label: 'x', owner: alice, run: () => job.hooks});
		job.emit('pending output');
		const killed = await call('job_kill', {job_id: 'bash-1', reason: 'not needed'});
		expect(killed).toMatchObject({
			isError: false,
			value: {outcome: 'cancellation-requested', job: {id: 'bash-1', status: 'stopping'}},
			content: [{type: 'text', text: 'requested cancellation of job bash-1'}],
		});
		expect(job.cancelReasons).toEqual(['not needed']);
		job.finish({status: 'killed', detail: 'signal: SIGTERM'});
		await flushMicrotasks();
		expect(textOf(await call('job_kill', {job_id: 'bash-1'}))).toBe('job bash-1 had already finished [status: killed, signal: SIGTERM]');
		// The kill did not consume pending output.
		expect(textOf(await call('job_output', {job_id: 'bash-1'}))).toBe('pending output\n[status: killed, signal: SIGTERM]');
	});
});

describe('job text helpers', () => {
	it('leaves text within the limit alone and does not repeat a marker', () => {
		expect(boundJobText('short\n[status: running]', 100, '[output truncated]')).toBe('short\n[status: running]');
		expect(boundJobText(`${'x'.repeat(50)}\n[result truncated]`, 30, '[result truncated]')).toBe(`${'x'.repeat(11)}\n[result truncated]`);
	});

	it('formats the completion notice', () => {
		expect(
			formatJobCompletionNotice({id: 'bash-1', kind: 'bash', label: 'npm test', status: 'completed', detail: 'exit code: 0', startedAt: 1}),
		).toBe('background job bash-1 (bash: npm test) finished [status: completed, exit code: 0]. Read its output with job_output.');
	});
});
