/**
@module The agent's process: `CMD ARGS…` started in a process group of its own and marked like a
bash command (`command-processes.ts`), so stopping it stops every process it started, also those
that left its group. Its stdio is the ACP transport; stderr keeps a tail for when it dies.
*/
import {spawn} from 'node:child_process';
import type {Readable, Writable} from 'node:stream';
import {CommandProcesses, markedEnvironment, newCallMarker} from '../builtin/bash/command-processes.js';
import {TailBuffer} from '../builtin/bash/tail-buffer.js';

/** How the agent ended. `error` is set when it could not be started. */
export type AgentExit = {readonly exitCode: number | null; readonly signal: string | null; readonly error?: Error};

export type AgentProcess = {
	readonly pid: number | undefined;
	/** What we write to the agent (its stdin). */
	readonly input: Writable;
	/** What the agent writes to us (its stdout). */
	readonly output: Readable;
	/** The last bytes the agent wrote to stderr. */
	stderrTail(): string;
	readonly exited: Promise<AgentExit>;
	/** Stop the agent's whole process tree: SIGTERM, SIGKILL after `graceMs`. Resolves when none is left. */
	kill(graceMs?: number): Promise<void>;
};

/** Bytes of stderr kept for the exit notice. */
const STDERR_TAIL_BYTES = 8 * 1024;

/** Agents still running when this process exits are killed (nothing of theirs outlives cardterm). */
const live = new Set<CommandProcesses>();
let exitHook = false;

export function spawnAgent(command: string, args: readonly string[], options: {readonly cwd: string; readonly env?: NodeJS.ProcessEnv}): AgentProcess {
	const marker = newCallMarker();
	const child = spawn(command, [...args], {cwd: options.cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: markedEnvironment(marker, options.env ?? process.env)});
	const processes = child.pid === undefined ? undefined : new CommandProcesses(child.pid, marker);
	if (processes !== undefined) {
		live.add(processes);
		if (!exitHook) {
			exitHook = true;
			process.once('exit', () => {
				for (const each of live) {
					each.killSync();
				}
			});
		}
	}

	const stderr = new TailBuffer(STDERR_TAIL_BYTES);
	child.stderr.on('data', (chunk: Buffer) => {
		stderr.push(chunk);
	});
	// A write after the agent died must not crash cardterm; the exit is reported instead.
	child.stdin.on('error', () => {});
	const exited = new Promise<AgentExit>(resolve => {
		child.once('error', error => {
			if (child.pid === undefined) {
				resolve({exitCode: null, signal: null, error});
			}
		});
		child.once('exit', (exitCode, signal) => {
			resolve({exitCode, signal});
		});
	});
	void exited.then(() => {
		if (processes !== undefined) {
			live.delete(processes);
		}
	});
	return {
		pid: child.pid,
		input: child.stdin,
		output: child.stdout,
		stderrTail: () => stderr.text(),
		exited,
		async kill(graceMs = 2000) {
			await processes?.stop(graceMs);
		},
	};
}
