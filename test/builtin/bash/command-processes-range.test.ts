import {spawn} from 'node:child_process';
import {existsSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {CommandProcesses, markedEnvironment, newCallMarker, pidInRange} from '../../../src/builtin/bash/command-processes.js';

describe('the pids a recent scan reads', () => {
	it('is every pid without a range', () => {
		expect(pidInRange(1, undefined)).toBe(true);
		expect(pidInRange(99_999, undefined)).toBe(true);
	});

	it('is the pids from the shell to the last allocated one', () => {
		const range = {from: 500, to: 700};
		expect([499, 500, 600, 700, 701].map(pid => pidInRange(pid, range))).toEqual([false, true, true, true, false]);
	});

	it('wraps at pid_max: above the shell, and from 1 up to the last one', () => {
		const range = {from: 32_000, to: 40};
		expect([31_999, 32_000, 32_767, 1, 40, 41, 20_000].map(pid => pidInRange(pid, range))).toEqual([false, true, true, true, true, false, false]);
	});
});

describe.runIf(existsSync('/proc/sys/kernel/ns_last_pid'))('a scan reading only the pids allocated since the shell', () => {
	it('finds a process that left the group and the shell that started it', async () => {
		const marker = newCallMarker();
		// The sleeper has its own session: only the marker ties it to the command. A window of a minute
		// makes every scan of this test a recent-pids scan.
		const shell = spawn('/bin/sh', ['-c', 'setsid sleep 30 >/dev/null 2>&1 & echo started; sleep 30'], {detached: true, stdio: ['ignore', 'pipe', 'ignore'], env: markedEnvironment(marker)});
		const processes = new CommandProcesses(shell.pid!, marker, 60_000);
		await new Promise(resolve => shell.stdout!.once('data', resolve));
		let found: number[] = [];
		for (let attempt = 0; attempt < 100 && found.length < 3; attempt++) {
			found = processes.find();
		}

		try {
			// The shell, its `sleep 30` and the setsid sleeper (a `setsid` that forks adds one more).
			expect(found).toContain(shell.pid);
			expect(found.length).toBeGreaterThanOrEqual(3);
		} finally {
			await processes.stop(100);
		}

		expect(processes.find()).toEqual([]);
	});
});
