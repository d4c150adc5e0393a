/**
@module SIGTERM, SIGHUP (the terminal closed) and SIGINT sent from outside to a command that runs
tools. The first aborts `signal`: the command cancels its calls, which stops their process trees,
ends background jobs, flushes and closes the log (releasing its lock) and restores the terminal,
then exits with 128 + the signal's number. A second signal during that exits at once; the `exit`
handlers still write the log's pending lines, remove its lock and SIGKILL every running command.

A closed terminal may show as EIO on a read or write before (or instead of) SIGHUP: with
`terminal: true` that counts as SIGHUP. Node restores the terminal's mode at exit and aborts
(exit 134) when that fails on a terminal that is gone, so after a hangup the standard descriptors
are closed last thing at exit (Node skips descriptors that are closed).
*/
import {closeSync} from 'node:fs';
import {constants} from 'node:os';
import {onOutputError} from '../../layout/terminal/terminal-sink.js';

const TERMINATION_SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;

/** How long an orderly shutdown may take before the process exits anyway. */
const SHUTDOWN_LIMIT_MS = 15_000;

type Termination = {
	/** Aborted at the first signal. */
	readonly signal: AbortSignal;
	/** 128 + the signal's number once one came. */
	readonly exitCode: number | undefined;
	/** Stops listening; returns `code`, or 128 + N when a signal came. */
	release(code: number): number;
};

/** Errors of stdin and of the outputs (the latter through the sink module, which owns those streams). */
function onStdioError(listener: (error: NodeJS.ErrnoException) => void): () => void {
	process.stdin.on('error', listener);
	const stopOutputs = onOutputError(listener);
	return () => {
		process.stdin.off('error', listener);
		stopOutputs();
	};
}

/** Errors of the standard streams once the terminal is gone. */
const HANGUP_CODES = new Set(['EIO', 'EPIPE', 'ENXIO', 'EBADF']);

function releaseDeadTerminal(): void {
	for (const fd of [0, 1, 2]) {
		try {
			closeSync(fd);
		} catch {
			// Already closed.
		}
	}
}

function trapTerminationSignals(options: {readonly terminal?: boolean} = {}): Termination {
	const controller = new AbortController();
	let exitCode: number | undefined;
	let hungUp = false;
	const onSignal = (signal: NodeJS.Signals): void => {
		if (signal === 'SIGHUP') {
			// EIO and SIGHUP of one closed terminal are one event, whichever comes first.
			if (hungUp) {
				return;
			}

			hungUp = true;
			process.once('exit', releaseDeadTerminal);
		}

		if (exitCode !== undefined) {
			process.exit(exitCode);
		}

		exitCode = 128 + constants.signals[signal];
		// Also when the process ends before the command returns (a write to a closed terminal that never completes).
		process.exitCode = exitCode;
		// Past a signal, failing reads and writes of a closed terminal are expected, not a crash.
		onStdioError(() => undefined);

		setTimeout(() => {
			process.exit(exitCode);
		}, SHUTDOWN_LIMIT_MS).unref();
		controller.abort(new Error(`received ${signal}`));
	};

	const onStreamError = (error: NodeJS.ErrnoException): void => {
		if (HANGUP_CODES.has(error.code ?? '')) {
			onSignal('SIGHUP');
			return;
		}

		throw error;
	};

	const stopListening = options.terminal === true ? onStdioError(onStreamError) : () => undefined;

	for (const name of TERMINATION_SIGNALS) {
		process.on(name, onSignal);
	}

	return {
		signal: controller.signal,
		get exitCode() {
			return exitCode;
		},
		release(code) {
			for (const name of TERMINATION_SIGNALS) {
				process.off(name, onSignal);
			}

			stopListening();

			return exitCode ?? code;
		},
	};
}

/** Runs `listener` once `signal` aborts (at once when it already has). */
export function whenAborted(signal: AbortSignal, listener: () => void): void {
	if (signal.aborted) {
		listener();
	} else {
		signal.addEventListener('abort', listener, {once: true});
	}
}

/**
Runs `body` with the signals trapped; resolves with its exit code, or 128 + N when a signal came —
also when `body` rejects with the signal's own reason (a wait it gave up on: a plugin's start).
*/
export async function withTerminationSignals(body: (signal: AbortSignal) => Promise<number>, options: {readonly terminal?: boolean} = {}): Promise<number> {
	const termination = trapTerminationSignals(options);
	try {
		return termination.release(await body(termination.signal));
	} catch (error) {
		if (termination.exitCode !== undefined && error === termination.signal.reason) {
			return termination.release(termination.exitCode);
		}

		throw error;
	} finally {
		termination.release(0);
	}
}
