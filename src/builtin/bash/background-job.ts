/**
@module A bash command as a background job (contract.md §T5.1, §T5.2): its output goes to a
bounded buffer read through `job_output`, `cancel` stops the whole process group, and `done`
resolves once the shell exited and its pipes are closed. The job is not tied to the tool call.
*/
import type {JobHooks, JobOutcome} from '../../jobs/job-types.js';
import {startShell, type ShellExit, type ShellTiming} from './shell-process.js';
import {TailBuffer} from './tail-buffer.js';
import {decodeUtf8, dropLeadingPartial, splitCompleteUtf8} from './utf8.js';

/** What a background command needs. */
export type BackgroundCommand = {
	readonly command: string;
	readonly cwd: string;
	/** Unread output kept per read, in bytes (older unread output is dropped with a notice). */
	readonly maxOutputBytes: number;
	readonly timing: ShellTiming;
	/** The command's environment (default: this process's). */
	readonly env?: NodeJS.ProcessEnv;
	/** The sandbox the shell runs under (`startShell`'s `confine`). */
	readonly confine?: readonly string[];
};

/** Job status from how the shell ended. A cancelled job is `killed`; a non-zero exit `failed`. */
export function backgroundOutcome(exit: ShellExit, cancelled: boolean): JobOutcome {
	if (exit.error !== undefined) {
		return {status: 'failed', detail: `could not start the shell: ${exit.error.message}`};
	}

	const detail = exit.signal === null ? `exit code: ${exit.exitCode ?? 'unknown'}` : `signal: ${exit.signal}`;
	if (cancelled || exit.signal !== null) {
		return {status: 'killed', detail};
	}

	return {status: exit.exitCode === 0 ? 'completed' : 'failed', detail};
}

/** Start the command now; the hooks go to `JobRuntime.start`. */
export function startBackgroundCommand(run: BackgroundCommand): JobHooks {
	const unread = new TailBuffer(run.maxOutputBytes);
	/** An incomplete character held back from the previous read. */
	let carry = Buffer.alloc(0);
	let finished = false;
	let cancelled = false;
	const onOutput = (chunk: Buffer) => {
		unread.push(chunk);
	};

	const shell = startShell(run.command, run.cwd, {onStdout: onOutput, onStderr: onOutput}, run.timing, run.env, run.confine);
	const done = shell.exited.then((exit) => {
		finished = true;
		return backgroundOutcome(exit, cancelled);
	});

	return {
		cancel() {
			cancelled = true;
			shell.terminate();
		},
		done,
		readOutput() {
			const dropped = unread.truncated ? unread.totalBytes - unread.length : 0;
			let bytes = unread.bytes();
			unread.clear();
			bytes = dropped > 0 ? dropLeadingPartial(bytes) : Buffer.concat([carry, bytes]);
			const {complete, rest} = finished ? {complete: bytes, rest: Buffer.alloc(0)} : splitCompleteUtf8(bytes);
			carry = Buffer.from(rest);
			const text = decodeUtf8(complete);
			return dropped > 0 ? `[output truncated: ${dropped} earlier bytes dropped]\n${text}` : text;
		},
	};
}
