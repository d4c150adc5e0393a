/**
@module The `bash` tool (contract.md §E2.1, §E2.2; contract.md §T4.1, §T5.2): runs a
command in a shell in the session workspace, in the foreground (terminal card) or as a background
job (generic card, output through `job_output`).
*/
import {statSync} from 'node:fs';
import {resolve} from 'node:path';
import type {JobRuntime} from '../jobs/job-runtime.js';
import {textContent} from '../tools/content.js';
import {defineTool, type DefinedTool} from '../tools/define-tool.js';
import {ToolArgsError} from '../tools/errors.js';
import {ToolAbortError} from './bash/abort-error.js';
import {bashOutputSchema, bashParameters, type BashArgs, type BashValue} from './bash/bash-schema.js';
import {presentBashCall, presentBashResult} from './bash/present.js';
import {renderBashText} from './bash/render-text.js';
import type {ShellTiming} from './bash/shell-process.js';

/** How the bash tool is configured. */
export type BashToolOptions = {
	/** The session workspace: the default working directory, and the base of relative `workdir`s. */
	readonly workspace: string;
	/** Background jobs; without it `run_in_background` is neither advertised nor accepted. */
	readonly jobs?: JobRuntime;
	/** Tail kept of each of stdout and stderr, in bytes. Default 64 000. */
	readonly maxOutputBytes?: number;
	/** Default 120 000 ms. */
	readonly defaultTimeoutMs?: number;
	/** Largest accepted `timeoutMs`. Default 600 000 ms. */
	readonly maxTimeoutMs?: number;
	/** When set, a stream that outgrows its tail is written in full to a file here, named by the marker. */
	readonly spillDir?: string;
	/** Cap of one spill file; past it the marker says `(unavailable)`. Default 64 MiB. */
	readonly spillMaxBytes?: number;
	/** What the spill files of this tool (one session) may hold together; past it, `(unavailable)`. Default 256 MiB. */
	readonly spillTotalBytes?: number;
	/** Between SIGTERM and SIGKILL when a command is stopped. Default 2 000 ms. */
	readonly killGraceMs?: number;
	/** How long output pipes may stay open once the shell and every process found of it are gone. Default 200 ms. */
	readonly drainGraceMs?: number;
	/** The environment of commands (default: this process's); the session's leaves out the secrets (`session-secrets.ts`). */
	readonly env?: NodeJS.ProcessEnv;
	/**
	The sandbox a command runs under now (a program and its arguments before the shell), or undefined
	to run it unconfined; asked at every command (the session's mode decides).
	*/
	readonly confine?: () => Promise<readonly string[] | undefined>;
	/** Live output coalescing interval. Default 50 ms. */
	readonly progressIntervalMs?: number;
	/** Live output reported per stream per interval at most (the tail of what arrived). Default 16 384 bytes. */
	readonly progressMaxBytes?: number;
};

/** Defaults where the contract leaves values open. */
const bashDefaults = {
	maxOutputBytes: 64_000,
	defaultTimeoutMs: 120_000,
	maxTimeoutMs: 600_000,
	spillMaxBytes: 64 * 1024 * 1024,
	spillTotalBytes: 256 * 1024 * 1024,
	killGraceMs: 2000,
	drainGraceMs: 200,
	progressIntervalMs: 50,
	progressMaxBytes: 16_384,
} as const;

function toolDescription(maxOutputBytes: number): string {
	return `Run a shell command. Returns stdout, then stderr after a [stderr] line, and the exit code (non-zero is reported, not a failure); each stream keeps its last ${maxOutputBytes} bytes.`;
}

function isBlank(text: string): boolean {
	return text.trim() === '';
}

/** Violations the schema DSL cannot express (non-blank strings, ranges). */
function argumentViolations(args: BashArgs, maxTimeoutMs: number): string[] {
	const violations: string[] = [];
	if (isBlank(args.command)) {
		violations.push('"command" must be a non-blank string');
	}

	if (isBlank(args.description)) {
		violations.push('"description" must be a non-blank string');
	}

	if (args.timeoutMs !== undefined) {
		if (args.timeoutMs <= 0) {
			violations.push('"timeoutMs" must be greater than 0');
		} else if (args.timeoutMs > maxTimeoutMs) {
			violations.push(`"timeoutMs" must be at most ${maxTimeoutMs}`);
		}
	}

	return violations;
}

/** The absolute working directory of a call; it must exist and be a directory. */
function resolveWorkdir(workspace: string, workdir: string | undefined): string {
	const directory = workdir === undefined ? workspace : resolve(workspace, workdir);
	let isDirectory: boolean;
	try {
		// One stat of a directory the person works in: the promise form cost ~0.2 ms of the main thread a
		// call in a 400-call session's profile (its request object and hand-off), the call itself ~1 µs.
		isDirectory = statSync(directory).isDirectory();
	} catch {
		throw new Error(`workdir does not exist: ${directory}`);
	}

	if (!isDirectory) {
		throw new Error(`workdir is not a directory: ${directory}`);
	}

	return directory;
}

/** Build the `bash` tool. */
export function bashTool(options: BashToolOptions): DefinedTool<typeof bashOutputSchema> {
	const workspace = resolve(options.workspace);
	const {jobs, env} = options;
	const maxOutputBytes = options.maxOutputBytes ?? bashDefaults.maxOutputBytes;
	const defaultTimeoutMs = options.defaultTimeoutMs ?? bashDefaults.defaultTimeoutMs;
	const maxTimeoutMs = options.maxTimeoutMs ?? bashDefaults.maxTimeoutMs;
	const progressIntervalMs = options.progressIntervalMs ?? bashDefaults.progressIntervalMs;
	const progressMaxBytes = options.progressMaxBytes ?? bashDefaults.progressMaxBytes;
	const timing: ShellTiming = {
		killGraceMs: options.killGraceMs ?? bashDefaults.killGraceMs,
		drainGraceMs: options.drainGraceMs ?? bashDefaults.drainGraceMs,
	};
	const spill = options.spillDir === undefined
		? undefined
		: {directory: resolve(options.spillDir), maxBytes: options.spillMaxBytes ?? bashDefaults.spillMaxBytes, budget: {remaining: options.spillTotalBytes ?? bashDefaults.spillTotalBytes}};
	if (!Number.isSafeInteger(maxOutputBytes) || maxOutputBytes < 1) {
		throw new Error(`bashTool: maxOutputBytes must be a positive integer, got ${maxOutputBytes}`);
	}

	if (!(defaultTimeoutMs > 0 && defaultTimeoutMs <= maxTimeoutMs)) {
		throw new Error(`bashTool: defaultTimeoutMs must be in (0, ${maxTimeoutMs}], got ${defaultTimeoutMs}`);
	}

	// Only advertise run_in_background when it can work; an undeclared key still passes the open root, so execute checks too.
	const {run_in_background: _background, ...foregroundOnly} = bashParameters;
	const parameters = (jobs === undefined ? foregroundOnly : bashParameters) as typeof bashParameters;

	return defineTool({
		name: 'bash',
		description: toolDescription(maxOutputBytes),
		parameters,
		output: {
			schema: bashOutputSchema,
			render: (_args, value: BashValue) => textContent(renderBashText(value)),
		},
		async execute(args, exec): Promise<BashValue> {
			const violations = argumentViolations(args, maxTimeoutMs);
			if (violations.length > 0) {
				throw new ToolArgsError(violations);
			}

			const cwd = resolveWorkdir(workspace, args.workdir);
			const confine = await options.confine?.();
			if (args.run_in_background === true) {
				if (jobs === undefined) {
					throw new Error('bash: run_in_background is not available in this session (no job runtime)');
				}

				// The shell's modules load on the first command: building the tool (replay's presenters) does not load them.
				const {startBackgroundCommand} = await import('./bash/background-job.js');
				if (exec.signal.aborted) {
					throw new ToolAbortError();
				}

				const jobId = jobs.start({
					kind: 'bash',
					label: args.command,
					owner: exec.agent,
					outputLimitBytes: maxOutputBytes,
					run: () => startBackgroundCommand({command: args.command, cwd, maxOutputBytes, timing, ...(env === undefined ? {} : {env}), ...(confine === undefined ? {} : {confine})}),
				});
				return {kind: 'background', jobId};
			}

			const {runForeground} = await import('./bash/run-foreground.js');
			if (exec.signal.aborted) {
				throw new ToolAbortError();
			}

			// Cancelled, the value says `aborted` with the output so far: the registry keeps it inside its cancellation result.
			return runForeground({
				command: args.command,
				cwd,
				timeoutMs: args.timeoutMs ?? defaultTimeoutMs,
				maxOutputBytes,
				...(spill === undefined ? {} : {spill}),
				timing,
				...(env === undefined ? {} : {env}),
				...(confine === undefined ? {} : {confine}),
				progress: (update) => {
					exec.progress(update);
				},
				progressIntervalMs,
				progressMaxBytes,
				signal: exec.signal,
			});
		},
		presentCall: presentBashCall,
		presentResult: presentBashResult,
	});
}
