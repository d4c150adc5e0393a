/**
@module Starting a command in a shell and stopping every process it started.

The shell leads a process group of its own (`detached: true`) and carries a marker in its
environment (`command-processes.ts`), so its processes are found also when they leave the group.
When the call is cancelled or times out, and also when the shell ends by itself, every one of them
is stopped (SIGTERM, then SIGKILL after the grace period) before the command counts as ended.
*/
import {accessSync, constants} from 'node:fs';
import {delimiter, join} from 'node:path';
import {CommandProcesses, markedEnvironment, newCallMarker} from './command-processes.js';
import {spawnCommand} from './spawner.js';

/** How a command ended. `error` is set when the shell could not be started. */
export type ShellExit = {readonly exitCode: number | null; readonly signal: string | null; readonly error?: Error};

/** Callbacks for output as it arrives. */
export type ShellOutput = {
	readonly onStdout: (chunk: Buffer) => void;
	readonly onStderr: (chunk: Buffer) => void;
};

/** A started command. */
export type ShellProcess = {
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
Started through the spawner when it runs (spawner.ts).
*/
export function startShell(command: string, cwd: string, output: ShellOutput, timing: ShellTiming, env: NodeJS.ProcessEnv = process.env, confine?: readonly string[]): ShellProcess {
	const marker = newCallMarker();
	const child = spawnCommand({program: resolveShell(), args: ['-c', command], cwd, env: markedEnvironment(marker, env), ...(confine === undefined ? {} : {sandbox: confine})}, output);
	let processes: CommandProcesses | undefined;
	let settled = false;
	let stopWanted = false;
	const stopAll = async (): Promise<void> => processes?.stop(timing.killGraceMs);

	const exited = (async (): Promise<ShellExit> => {
		const pid = await child.started;
		if (pid !== undefined) {
			processes = new CommandProcesses(pid, marker);
			liveCommands.add(processes);
			killLiveCommandsOnExit();
			if (stopWanted) {
				void stopAll();
			}
		}

		const end = await child.ended;
		if ('error' in end) {
			settled = true;
			return {exitCode: null, signal: null, error: end.error};
		}

		// However the shell ended, nothing it started outlives the command (a `sleep 300 &` left
		// behind included): stop every process of it, then let the pipes drain.
		await stopAll();
		if (processes !== undefined) {
			liveCommands.delete(processes);
		}

		// Pipes still open after that are held by a process nothing could find: abandon them.
		let drainTimer: NodeJS.Timeout | undefined;
		await Promise.race([child.closed, new Promise<void>((done) => {
			drainTimer = setTimeout(done, timing.drainGraceMs);
		})]);
		clearTimeout(drainTimer);
		child.abandon();
		settled = true;
		return end;
	})();

	return {
		terminate() {
			if (!settled) {
				stopWanted = true;
				void stopAll();
			}
		},
		exited,
	};
}
