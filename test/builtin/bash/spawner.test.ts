/**
Commands started through the spawner (src/builtin/bash/spawner.ts): a small process of its own
starts them once it runs and hands their pipes over, output and exits arrive as from a direct start,
and when it dies the commands it ran end, their processes are stopped, and later commands start directly.
*/
import {describe, expect, it} from 'vitest';
import {startShell} from '../../../src/builtin/bash/shell-process.js';
import {spawnerPid} from '../../../src/builtin/bash/spawner.js';
import {isAlive} from './bash-exec-helpers.js';

const timing = {killGraceMs: 500, drainGraceMs: 200};

async function run(command: string): Promise<{stdout: string; stderr: string; exit: Awaited<ReturnType<typeof startShell>['exited']>}> {
	const out: Buffer[] = [];
	const err: Buffer[] = [];
	const shell = startShell(command, process.cwd(), {onStdout: chunk => out.push(chunk), onStderr: chunk => err.push(chunk)}, timing);
	const exit = await shell.exited;
	return {stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), exit};
}

async function spawnerReady(): Promise<number> {
	for (let attempt = 0; attempt < 500; attempt++) {
		const pid = spawnerPid();
		if (pid !== undefined) {
			return pid;
		}

		await run('true');
	}

	throw new Error('the spawner never became ready');
}

describe.runIf(process.platform === 'linux')('the spawner', () => {
	it('starts commands once it runs: their parent is the spawner, not this process', async () => {
		const pid = await spawnerReady();
		const {stdout, exit} = await run('echo $PPID; echo err >&2; exit 3');
		expect(Number(stdout.trim())).toBe(pid);
		expect(pid).not.toBe(process.pid);
		expect(exit).toEqual({exitCode: 3, signal: null});
	});

	it('relays output whole and in order, stdout and stderr apart', async () => {
		await spawnerReady();
		const {stdout, stderr} = await run('head -c 3000000 /dev/zero | tr "\\0" x; seq 1 2000 >&2');
		expect(stdout).toBe('x'.repeat(3_000_000));
		expect(stderr).toBe(`${Array.from({length: 2000}, (_, index) => index + 1).join('\n')}\n`);
	});

	it('loses no byte a command writes before its pipes reach this process (stderr first: its pipe is sent after stdout\'s receipt)', async () => {
		await spawnerReady();
		for (let round = 0; round < 10; round++) {
			const {stdout, stderr} = await run('head -c 100000 /dev/zero | tr "\\0" e >&2; head -c 200000 /dev/zero | tr "\\0" o');
			expect([stdout.length, stderr.length]).toEqual([200_000, 100_000]);
		}
	});

	it('reports a command Node refuses to start, and goes on serving', async () => {
		const pid = await spawnerReady();
		const refused = await run('echo a\u0000b');
		expect(refused.exit.error?.message).toMatch(/null bytes/);
		expect(spawnerPid()).toBe(pid);
		expect((await run('echo $PPID')).stdout.trim()).toBe(String(pid));
	});

	it('when it dies, its command ends as killed, the command\'s processes are stopped, and later commands start directly', async () => {
		const pid = await spawnerReady();
		let sleeper = 0;
		const shell = startShell('sleep 30 & echo $!; wait', process.cwd(), {
			onStdout(chunk) {
				sleeper = Number(chunk.toString().trim());
				process.kill(pid, 'SIGKILL');
			},
			onStderr() {},
		}, timing);
		const exit = await shell.exited;
		expect(exit).toEqual({exitCode: null, signal: 'SIGKILL'});
		expect(sleeper).toBeGreaterThan(0);
		expect(isAlive(sleeper)).toBe(false);
		expect(spawnerPid()).toBeUndefined();
		expect((await run('echo $PPID')).stdout.trim()).toBe(String(process.pid));
	});
});

describe('a command Node refuses to start, before the spawner runs', () => {
	it('is a failed start, not a throw', async () => {
		const {startShell: start} = await import('../../../src/builtin/bash/shell-process.js');
		const shell = start('echo a\u0000b', process.cwd(), {onStdout() {}, onStderr() {}}, timing);
		expect((await shell.exited).error?.message).toMatch(/null bytes/);
	});
});
