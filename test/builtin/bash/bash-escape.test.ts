/**
Processes that leave the command's process group (issue 11 item 17): `setsid`, `setsid -f`,
`setpgrp` from perl, `setpgid` from python, a double fork (reparented to init), one that keeps forking
while it is killed, and one that clears its environment. Each route prints the escaped pid; after a
cancel, a timeout, the end of a finished call (the rule: a command's processes end with it), a job
kill and the end of a session, neither it nor any process carrying the call's marker may be alive.
Linux only (/proc); elsewhere only the process group is stopped.
*/
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {bashTool} from '../../../src/builtin/bash.js';
import {CALL_MARKER_VARIABLE} from '../../../src/builtin/bash/command-processes.js';
import {JobRuntime} from '../../../src/jobs/job-runtime.js';
import {jobTools} from '../../../src/jobs/job-tools.js';
import {ToolRegistry} from '../../../src/tools/registry.js';
import type {Agent} from '../../../src/tools/types.js';
import {call, isAlive, makeWorkspace, pidCollector, textOf} from './bash-exec-helpers.js';

const agent: Agent = {id: 'escape-session'};
let workspace: {path: string; cleanup: () => Promise<void>};
const linux = existsSync('/proc/self/environ');

beforeAll(async () => {
	workspace = await makeWorkspace();
});

afterAll(async () => {
	await workspace.cleanup();
});

/** Each route leaves the group and prints the pid of the process that escaped. */
const routes: Record<string, string> = {
	'setsid': `setsid sh -c 'echo $$; exec sleep 300' &`,
	'setsid -f': `setsid -f sh -c 'echo $$; exec sleep 300'`,
	'perl setpgrp': `perl -e 'setpgrp(0, 0); print "$$\\n"; exec "sleep", "300"' &`,
	'python setpgid': `python3 -c 'import os; os.setpgid(0, 0); print(os.getpid(), flush=True); os.execvp("sleep", ["sleep", "300"])' &`,
	'double fork': `(setsid sh -c 'echo $$; exec sleep 300' &)`,
	'forking while killed': `setsid sh -c 'echo $$; while :; do sleep 300 & sleep 0.01; done' &`,
};

/** Clears its environment: caught by parent chain while its parent (the shell) lives, so only on cancel and timeout. */
const envCleared = {'env -i (parent alive)': `env -i setsid sh -c 'echo $$; exec sleep 300' &`};

function markerOf(pid: number): string | undefined {
	try {
		return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').find(variable => variable.startsWith(`${CALL_MARKER_VARIABLE}=`));
	} catch {
		return undefined;
	}
}

/** Live processes whose environment holds exactly this marker variable. */
function liveWithMarker(marker: string): number[] {
	return readdirSync('/proc').filter(name => /^\d+$/.test(name)).map(Number).filter(pid => isAlive(pid) && markerOf(pid) === marker);
}

function setup() {
	const jobs = new JobRuntime();
	const registry = new ToolRegistry();
	registry.register(bashTool({workspace: workspace.path, jobs, killGraceMs: 500, drainGraceMs: 100}));
	for (const tool of jobTools(jobs)) {
		registry.register(tool);
	}

	return {jobs, registry};
}

/** The escaped pid, once it runs `sleep 300` (or loops), with its marker. */
async function escaped(pid: number): Promise<{pid: number; marker: string | undefined}> {
	expect(isAlive(pid)).toBe(true);
	return {pid, marker: markerOf(pid)};
}

function expectGone(found: {pid: number; marker: string | undefined}): void {
	expect(isAlive(found.pid)).toBe(false);
	if (found.marker !== undefined) {
		expect(liveWithMarker(found.marker)).toEqual([]);
	}
}

async function jobPid(registry: ToolRegistry, jobId: string): Promise<number> {
	let output = '';
	for (let attempt = 0; attempt < 50; attempt++) {
		const result = await call(registry, 'job_output', {job_id: jobId, wait: true, timeout_ms: 200}, {agent});
		output += (result as {value: {text: string}} & typeof result).value.text;
		const pid = output.split('\n').find(line => /^\d+$/.test(line));
		if (pid !== undefined) {
			return Number(pid);
		}
	}

	throw new Error(`no pid in ${JSON.stringify(output)}`);
}

describe.skipIf(!linux)('escaping processes (Linux: /proc)', () => {
	it.each(Object.entries({...routes, ...envCleared}))('%s: gone after the call is cancelled', async (_route, command) => {
		const {registry} = setup();
		const controller = new AbortController();
		const collector = pidCollector(1);
		const running = call(registry, 'bash', {command: `${command}\nsleep 300`, description: 'Escape'}, {signal: controller.signal, onProgress: collector.onProgress, agent});
		const found = await escaped((await collector.pids)[0]!);
		controller.abort();
		expect((await running).isError).toBe(true);
		expectGone(found);
	});

	it.each(Object.entries({...routes, ...envCleared}))('%s: gone after the call times out', async (_route, command) => {
		const {registry} = setup();
		const collector = pidCollector(1);
		const result = await call(registry, 'bash', {command: `${command}\nsleep 300`, description: 'Escape', timeoutMs: 1500}, {onProgress: collector.onProgress, agent});
		expect(result).toMatchObject({isError: false, value: {timedOut: true}});
		const found = {pid: (await collector.pids)[0]!, marker: undefined};
		expectGone(found);
	});

	it.each(Object.entries({...routes, 'background child': 'sleep 300 & echo $!'}))('%s: gone once the call finished by itself', async (_route, command) => {
		const {registry} = setup();
		// The shell ends once the escaped process is up (its pid written), leaving it behind.
		const command_ = `{\n${command}\n} > pid-$$.txt\nwhile [ ! -s pid-$$.txt ]; do sleep 0.05; done\ncat pid-$$.txt; echo done`;
		const result = await call(registry, 'bash', {command: command_, description: 'Escape'}, {agent});
		expect(textOf(result)).toMatch(/done\n$/);
		const [pid] = textOf(result).split('\n').filter(line => /^\d+$/.test(line)).map(Number);
		expect(pid).toBeGreaterThan(0);
		expectGone({pid: pid!, marker: undefined});
	});

	it.each(Object.entries(routes))('%s: gone after job_kill of a background job', async (_route, command) => {
		const {registry, jobs} = setup();
		await call(registry, 'bash', {command: `${command}\nsleep 300`, description: 'Escape', run_in_background: true}, {agent});
		const found = await escaped(await jobPid(registry, 'bash-1'));
		expect(textOf(await call(registry, 'job_kill', {job_id: 'bash-1'}, {agent}))).toBe('requested cancellation of job bash-1');
		await call(registry, 'job_output', {job_id: 'bash-1', wait: true}, {agent});
		expect(jobs.get('bash-1', agent).status).toBe('killed');
		expectGone(found);
	});

	it.each(Object.entries(routes))('%s: gone once the session that owns the job ends', async (_route, command) => {
		const {registry, jobs} = setup();
		await call(registry, 'bash', {command: `${command}\nsleep 300`, description: 'Escape', run_in_background: true}, {agent});
		const found = await escaped(await jobPid(registry, 'bash-1'));
		await jobs.disposeOwner(agent);
		expectGone(found);
	});

	it('a background job whose shell finished leaves no process behind either', async () => {
		const {registry, jobs} = setup();
		// The shell ends once the daemon's pid is written, leaving it behind.
		await call(registry, 'bash', {command: `{\n${routes['setsid -f']!}\n} > pid-$$.txt\nwhile [ ! -s pid-$$.txt ]; do sleep 0.05; done\ncat pid-$$.txt`, description: 'Daemonise', run_in_background: true}, {agent});
		const pid = await jobPid(registry, 'bash-1');
		expect(textOf(await call(registry, 'job_output', {job_id: 'bash-1', wait: true}, {agent}))).toMatch(/\[status: completed, exit code: 0\]$/);
		expect(jobs.get('bash-1', agent).status).toBe('completed');
		expect(isAlive(pid)).toBe(false);
	});
});

describe('the call marker', () => {
	it('extends the chain of an outer cardterm, first in the environment, so an outer stop finds an inner command', async () => {
		const {markedEnvironment} = await import('../../../src/builtin/bash/command-processes.js');
		expect(Object.entries(markedEnvironment('inner', {PATH: '/bin', [CALL_MARKER_VARIABLE]: 'outer'}))).toEqual([[CALL_MARKER_VARIABLE, 'outer,inner'], ['PATH', '/bin']]);
		expect(markedEnvironment('only', {PATH: '/bin'})[CALL_MARKER_VARIABLE]).toBe('only');
	});
});
