/**
@module Starting a command in a shell and stopping every process it started.

The shell leads a process group of its own (`detached: true`) and carries a marker in its
environment (`command-processes.ts`), so its processes are found also when they leave the group.
When the call is cancelled or times out, and also when the shell ends by itself, every one of them
is stopped (SIGTERM, then SIGKILL after the grace period) before the command counts as ended.
*/
import {spawn, type ChildProcess} from 'node:child_process';
import {accessSync, constants} from 'node:fs';
import {delimiter, join} from 'node:path';
import {CommandProcesses, markedEnvironment, newCallMarker} from './command-processes.js';

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
	/** Stop every process of the command: SIGTERM now, SIGKILL after the grace period. Idempotent. */
	terminate(): void;
	/** Resolves once the shell exited, every process it started is gone, and its output is drained (or abandoned after a drain grace). */
	readonly exited: Promise<ShellExit>;
};

/** Timing knobs. */
export type ShellTiming = {
	/** Between SIGTERM and SIGKILL. */
	readonly killGraceMs: number;
	/** How long output pipes may stay open once the shell and every process found of it are gone (held by one nothing found). */
	readonly drainGraceMs: number;
};

let cachedShell: string | undefined;

/** Commands whose processes may still be running. */
const liveCommands = new Set<CommandProcesses>();
let exitHookInstalled = false;

/** SIGKILL every process of every command that has not ended yet, synchronously (run when this process exits). */
export function killLiveCommands(): void {
	for (const processes of liveCommands) {
		processes.killSync();
	}
}

/** Last resort when this process exits with commands still running: none of their processes outlives it. */
function killLiveCommandsOnExit(): void {
	if (exitHookInstalled) {
		return;
	}

	exitHookInstalled = true;
	process.once('exit', killLiveCommands);
}

/** `bash` when it is on PATH (or in /bin), else `/bin/sh`. */
function resolveShell(): string {
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

/**
Start `command` in a shell in `cwd`, in a new process group, marked, with stdin closed, in `env`
(default: this process's); `confine`: the program and arguments the shell runs under (a sandbox).
*/
export function startShell(command: string, cwd: string, output: ShellOutput, timing: ShellTiming, env: NodeJS.ProcessEnv = process.env, confine?: readonly string[]): ShellProcess {
	const marker = newCallMarker();
	const [program, ...args] = [...confine ?? [], resolveShell(), '-c', command];
	const child: ChildProcess = spawn(program!, args, {
		cwd,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: markedEnvironment(marker, env),
	});
	const {pid} = child;
	const processes = pid === undefined ? undefined : new CommandProcesses(pid, marker);
	if (processes !== undefined) {
		liveCommands.add(processes);
		killLiveCommandsOnExit();
	}

	let settled = false;
	const stopAll = async (): Promise<void> => processes?.stop(timing.killGraceMs);

	child.stdout?.on('data', output.onStdout);
	child.stderr?.on('data', output.onStderr);

	const closed = new Promise<void>((resolve) => {
		child.once('close', () => {
			resolve();
		});
	});
	const exited = new Promise<ShellExit>((resolve) => {
		let exit: ShellExit | undefined;
		child.on('error', (error) => {
			// A spawn failure emits no 'exit'; a later error (a failed kill) does not end anything.
			if (pid === undefined && !settled) {
				settled = true;
				resolve({exitCode: null, signal: null, error});
			}
		});
		child.once('exit', (exitCode, signal) => {
			exit = {exitCode, signal};
			void (async () => {
				// However the shell ended, nothing it started outlives the command (a `sleep 300 &` left
				// behind included): stop every process of it, then let the pipes drain.
				await stopAll();
				liveCommands.delete(processes!);
				// Pipes still open after that are held by a process nothing could find: abandon them.
				let drainTimer: NodeJS.Timeout | undefined;
				await Promise.race([closed, new Promise<void>((done) => {
					drainTimer = setTimeout(done, timing.drainGraceMs);
				})]);
				clearTimeout(drainTimer);
				child.stdout?.destroy();
				child.stderr?.destroy();
				settled = true;
				resolve(exit);
			})();
		});
	});

	return {
		pid,
		terminate() {
			if (!settled) {
				void stopAll();
			}
		},
		exited,
	};
}
