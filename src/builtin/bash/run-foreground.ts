/**
@module One foreground command: run it, keep a bounded tail of each stream, report live output,
enforce the timeout, and stop the whole process group on timeout or cancellation.
*/
import type {ToolProgress} from '../../tools/types.js';
import type {BashForegroundValue} from './bash-schema.js';
import {ProgressCoalescer} from './progress-coalescer.js';
import {startShell, type ShellTiming} from './shell-process.js';
import {StreamCapture, type SpillOptions} from './stream-capture.js';

/** What a foreground run needs. */
export type ForegroundRun = {
	readonly command: string;
	readonly cwd: string;
	readonly timeoutMs: number;
	readonly maxOutputBytes: number;
	readonly spill?: SpillOptions;
	readonly timing: ShellTiming;
	/** The sandbox the shell runs under (`startShell`'s `confine`). */
	readonly confine?: readonly string[];
	/** The command's environment (default: this process's). */
	readonly env?: NodeJS.ProcessEnv;
	/** Live output; coalesced every `progressIntervalMs`, each flush bounded to `progressMaxBytes` per stream. */
	readonly progress?: (update: ToolProgress) => void;
	readonly progressIntervalMs: number;
	readonly progressMaxBytes: number;
	readonly signal: AbortSignal;
};

/**
Run a command to completion, or until the caller's signal stops it: the value then says `aborted`
and holds what the command printed before. Rejects only when the shell cannot be started.
*/
export async function runForeground(run: ForegroundRun): Promise<BashForegroundValue> {
	const stdout = new StreamCapture('stdout', run.maxOutputBytes, run.spill);
	const stderr = new StreamCapture('stderr', run.maxOutputBytes, run.spill);
	const live = run.progress === undefined
		? undefined
		: new ProgressCoalescer(run.progress, {intervalMs: run.progressIntervalMs, maxBytesPerFlush: run.progressMaxBytes});
	const shell = startShell(
		run.command,
		run.cwd,
		{
			onStdout(chunk) {
				stdout.push(chunk);
				live?.push('stdout', chunk);
			},
			onStderr(chunk) {
				stderr.push(chunk);
				live?.push('stderr', chunk);
			},
		},
		run.timing,
		run.env,
		run.confine,
	);

	let timedOut = false;
	let aborted = false;
	const timer = setTimeout(() => {
		timedOut = true;
		shell.terminate();
	}, run.timeoutMs);
	const onAbort = () => {
		aborted = true;
		shell.terminate();
	};

	if (run.signal.aborted) {
		onAbort();
	} else {
		run.signal.addEventListener('abort', onAbort, {once: true});
	}

	try {
		const exit = await shell.exited;
		if (exit.error !== undefined) {
			throw new Error(`bash: could not start the shell in ${run.cwd}: ${exit.error.message}`);
		}

		live?.close();
		return {
			kind: 'foreground',
			exitCode: exit.exitCode,
			signal: exit.signal,
			timedOut,
			aborted,
			timeoutMs: run.timeoutMs,
			stdout: stdout.finish(),
			stderr: stderr.finish(),
		};
	} finally {
		clearTimeout(timer);
		run.signal.removeEventListener('abort', onAbort);
		live?.close();
		stdout.finish();
		stderr.finish();
	}
}
