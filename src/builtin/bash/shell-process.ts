/**
@module Starting a command in a shell, in its own process group, and stopping the whole group.

The shell is the group leader (`detached: true`), so every process it starts, and theirs, share
its process group unless they leave it on purpose. Signals go to the negative pid: the group, not
just the shell.
*/
import {spawn, type ChildProcess} from 'node:child_process';
import {accessSync, constants, readdirSync, readFileSync} from 'node:fs';
import {delimiter, join} from 'node:path';

/** How a command ended. `error` is set when the shell could not be started. */
export type ShellExit = {readonly exitCode: number | null; readonly signal: string | null; readonly error?: Error};

/** Callbacks for output as it arrives. */
export type ShellOutput = {
	readonly onStdout: (chunk: Buffer) => void;
	readonly onStderr: (chunk: Buffer) => void;
};

/** A started command. */
export type ShellProcess = {
	readonly pid: number | undefined;
	/** Signal the whole group now and SIGKILL it after the grace period. Idempotent per signal escalation. */
	terminate(): void;
	/** Resolves once the shell exited and its output is drained (or abandoned after a drain grace). */
	readonly exited: Promise<ShellExit>;
};

/** Timing knobs. */
export type ShellTiming = {
	/** Between SIGTERM and SIGKILL. */
	readonly killGraceMs: number;
	/** How long output pipes may stay open after the shell exited (held by a process it left behind). */
	readonly drainGraceMs: number;
};

let cachedShell: string | undefined;

/** Process groups of commands that have not ended yet. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** SIGKILL the process group of every command that has not ended yet (synchronous). */
export function killLiveGroups(): void {
	for (const pgid of liveGroups) {
		signalGroup(pgid, 'SIGKILL');
	}
}

/** Last resort when this process exits with commands still running: no group outlives it. */
function killLiveGroupsOnExit(): void {
	if (exitHookInstalled) {
		return;
	}

	exitHookInstalled = true;
	process.once('exit', killLiveGroups);
}

/** `bash` when it is on PATH (or in /bin), else `/bin/sh`. */
export function resolveShell(): string {
	if (cachedShell !== undefined) {
		return cachedShell;
	}

	const candidates = [...(process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '').map((dir) => join(dir, 'bash')), '/bin/bash'];
	for (const candidate of candidates) {
		try {
			accessSync(candidate, constants.X_OK);
			cachedShell = candidate;
			return candidate;
		} catch {
			// Not here; try the next one.
		}
	}

	cachedShell = '/bin/sh';
	return cachedShell;
}

/** Send `signal` to the process group led by `pid`; a group that is already gone is fine. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
	if (pid === undefined) {
		return;
	}

	try {
		process.kill(-pid, signal);
	} catch {
		// ESRCH: nothing left in the group.
	}
}

/** Pids of the live (not zombie) members of process group `pgid`, from /proc; `undefined` without /proc. */
function liveGroupMembers(pgid: number): number[] | undefined {
	let entries: string[];
	try {
		entries = readdirSync('/proc');
	} catch {
		return undefined;
	}

	const members: number[] = [];
	for (const entry of entries) {
		if (!/^\d+$/.test(entry)) {
			continue;
		}

		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			// Fields after the parenthesised command: state, ppid, pgrp, ...
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') {
				members.push(Number(entry));
			}
		} catch {
			// The process ended while we looked.
		}
	}

	return members;
}

/**
Resolve once no live process is left in group `pgid` (signals are delivered asynchronously: a killed
process may still be exiting), or after `limitMs`. Without /proc, resolves at once.
*/
export async function waitForGroupExit(pgid: number | undefined, limitMs: number): Promise<void> {
	if (pgid === undefined) {
		return;
	}

	const deadline = Date.now() + limitMs;
	for (;;) {
		const members = liveGroupMembers(pgid);
		if (members === undefined || members.length === 0 || Date.now() >= deadline) {
			return;
		}

		await new Promise((resolve) => {
			setTimeout(resolve, 5);
		});
	}
}

/** Start `command` in a shell in `cwd`, in a new process group, with stdin closed. */
export function startShell(command: string, cwd: string, output: ShellOutput, timing: ShellTiming): ShellProcess {
	const child: ChildProcess = spawn(resolveShell(), ['-c', command], {
		cwd,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: process.env,
	});
	const {pid} = child;
	if (pid !== undefined) {
		liveGroups.add(pid);
		killLiveGroupsOnExit();
	}

	let terminating = false;
	let settled = false;
	let killTimer: NodeJS.Timeout | undefined;

	child.stdout?.on('data', output.onStdout);
	child.stderr?.on('data', output.onStderr);

	const exited = new Promise<ShellExit>((resolve) => {
		let exit: ShellExit | undefined;
		let drainTimer: NodeJS.Timeout | undefined;
		const settle = (value: ShellExit) => {
			if (settled) {
				return;
			}

			settled = true;
			clearTimeout(drainTimer);
			if (pid !== undefined) {
				liveGroups.delete(pid);
			}

			if (terminating) {
				// The command was stopped: nothing of its group may outlive the call.
				clearTimeout(killTimer);
				signalGroup(pid, 'SIGKILL');
				void waitForGroupExit(pid, timing.killGraceMs).then(() => {
					resolve(value);
				});
				return;
			}

			resolve(value);
		};

		child.on('error', (error) => {
			// A spawn failure emits no 'exit'; a later error (a failed kill) does not end anything.
			if (pid === undefined || exit === undefined) {
				settle({exitCode: null, signal: null, error});
			}
		});
		child.once('exit', (exitCode, signal) => {
			exit = {exitCode, signal};
			drainTimer = setTimeout(() => {
				child.stdout?.destroy();
				child.stderr?.destroy();
				settle(exit!);
			}, timing.drainGraceMs);
		});
		child.once('close', (exitCode: number | null, signal: NodeJS.Signals | null) => {
			settle(exit ?? {exitCode, signal});
		});
	});

	return {
		pid,
		terminate() {
			if (terminating || settled) {
				return;
			}

			terminating = true;
			signalGroup(pid, 'SIGTERM');
			killTimer = setTimeout(() => {
				signalGroup(pid, 'SIGKILL');
			}, timing.killGraceMs);
		},
		exited,
	};
}
