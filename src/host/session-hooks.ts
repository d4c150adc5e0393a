/**
@module The config's hooks on a session (`hooks-config.ts` reads them): each is a shell command
given the event as JSON on stdin (Claude Code's fields: `hook_event_name`, `session_id`, `cwd`,
`tool_name`, `tool_input`, …), with its timeout, its output captured (bounded).
- `PreToolUse` runs through the registry's `tools/pre-execute` hook before a matching call: a
  non-zero exit (Claude Code blocks on 2; here every failure blocks, so a broken guard fails closed)
  or a timeout refuses the call, and the hook's stderr (else stdout) is the reason the model reads
  and the card shows;
- `PostToolUse` runs after a matching call's result (`tools/result`), `Stop` when a turn ends,
  `Notification` when an approval question waits; their exit changes nothing.
A run that refuses, fails, times out or writes to stderr is recorded as a `hook/result` notice (a
quiet success is not: a hook on every call would fill the transcript). Its text is sanitized before
it reaches the model, the log or the screen.
*/
import {spawn} from 'node:child_process';
import type {HookEntry, HookEvent} from '../config/hooks-config.js';
import type {JsonValue} from '../json/json-value.js';
import {sanitizeText} from '../layout/text/sanitize.js';
import {compileLinearRegex, type LinearRegex} from '../regex/linear-regex.js';
import type {EventLog} from '../session/events/event-log.js';
import type {PreExecuteListener, ResultListener} from '../tools/registry-hooks.js';

/** Bytes of a hook's stdout and of its stderr kept; the rest is counted. */
const OUTPUT_CAP = 64 * 1024;
/** Characters of a hook's message a refusal and a notice carry. */
const MESSAGE_CAP = 2000;
/** A matcher's compiled program may hold this many instructions (a tool-name pattern is short). */
const MATCHER_PROGRAM = 10_000;

/** How one hook run ended. */
export type HookRun = {
	readonly exitCode: number | null;
	readonly timedOut: boolean;
	readonly stdout: string;
	readonly stderr: string;
	readonly durationMs: number;
	/** It could not be started (the shell missing, …). */
	readonly error?: string;
};

/** Run `entry`'s command with `input` as JSON on stdin; never rejects. The whole process group ends with it. */
export async function runHook(entry: Pick<HookEntry, 'command' | 'timeoutMs'>, input: JsonValue, options: {readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly signal?: AbortSignal}): Promise<HookRun> {
	const started = performance.now();
	return new Promise(resolve => {
		const child = spawn('/bin/sh', ['-c', entry.command], {cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe']});
		const output = {stdout: collector(), stderr: collector()};
		let timedOut = false;
		let error: string | undefined;
		const killGroup = (): void => {
			try {
				if (child.pid !== undefined) {
					process.kill(-child.pid, 'SIGKILL');
				}
			} catch {
				// Already gone.
			}
		};

		const timer = setTimeout(() => {
			timedOut = true;
			killGroup();
		}, entry.timeoutMs);
		const abort = (): void => {
			killGroup();
		};

		options.signal?.addEventListener('abort', abort, {once: true});
		child.stdout.on('data', (chunk: Buffer) => {
			output.stdout.add(chunk);
		});
		child.stderr.on('data', (chunk: Buffer) => {
			output.stderr.add(chunk);
		});
		child.on('error', failure => {
			error = failure.message;
		});
		// A hook that does not read its stdin must not fail the run.
		child.stdin.on('error', () => {});
		child.stdin.end(JSON.stringify(input));
		// What the hook left running must not hold its pipes open.
		child.on('exit', killGroup);
		child.on('close', (code: number | null) => {
			clearTimeout(timer);
			options.signal?.removeEventListener('abort', abort);
			resolve({exitCode: code, timedOut, stdout: output.stdout.text(), stderr: output.stderr.text(), durationMs: Math.round(performance.now() - started), ...(error === undefined ? {} : {error})});
		});
	});
}

/** The first `OUTPUT_CAP` bytes of a stream, and how many more there were. */
function collector(): {add(chunk: Buffer): void; text(): string} {
	const chunks: Buffer[] = [];
	let kept = 0;
	let dropped = 0;
	return {
		add(chunk) {
			const room = OUTPUT_CAP - kept;
			if (room > 0) {
				chunks.push(chunk.subarray(0, room));
			}

			kept += Math.min(room, chunk.length);
			dropped += Math.max(0, chunk.length - Math.max(room, 0));
		},
		text: () => `${Buffer.concat(chunks).toString('utf8')}${dropped > 0 ? `\n… ${dropped} more bytes` : ''}`,
	};
}

/** What a run said, sanitized and bounded: its stderr, else its stdout, else how it ended. */
export function hookMessage(run: HookRun, entry: Pick<HookEntry, 'timeoutMs'>): string {
	if (run.timedOut) {
		return `timed out after ${entry.timeoutMs / 1000}s`;
	}

	const said = (run.stderr.trim() === '' ? run.stdout : run.stderr).trim();
	const text = sanitizeText(said === '' ? (run.error ?? `exit ${run.exitCode ?? 'by a signal'}`) : said);
	return text.length > MESSAGE_CAP ? `${text.slice(0, MESSAGE_CAP)}…` : text;
}

export type SessionHooksOptions = {
	readonly hooks: readonly HookEntry[];
	readonly cwd: string;
	/** The hooks' environment (the session's commands' one: secrets kept out). */
	readonly env: NodeJS.ProcessEnv;
};

type Attached = {
	/** The `tools/pre-execute` listener of the `PreToolUse` hooks. */
	readonly preExecute: PreExecuteListener;
	/** The `tools/result` observer of the `PostToolUse` hooks. */
	readonly onResult: ResultListener;
	/** Stop every running hook; nothing is recorded after. */
	dispose(): void;
};

/** The session's hooks on its log (turn ends, questions) and, through the listeners it returns, on its registry. */
export function sessionHooks(log: EventLog, sessionId: string, options: SessionHooksOptions): Attached {
	const stop = new AbortController();
	const matchers = new Map<string, LinearRegex | undefined>();
	const matches = (entry: HookEntry, tool: string): boolean => {
		if (entry.matcher === undefined) {
			return true;
		}

		if (!matchers.has(entry.matcher)) {
			let compiled: LinearRegex | undefined;
			try {
				compiled = compileLinearRegex(`(?i)^(?:${entry.matcher})$`, MATCHER_PROGRAM);
			} catch {
				// A pattern that does not compile is matched as a name.
				compiled = undefined;
			}

			matchers.set(entry.matcher, compiled);
		}

		const compiled = matchers.get(entry.matcher);
		return compiled === undefined ? entry.matcher.toLowerCase() === tool.toLowerCase() : compiled.test(tool);
	};

	const of = (event: HookEvent, tool?: string): HookEntry[] => options.hooks.filter(entry => entry.event === event && (tool === undefined || matches(entry, tool)));
	const base = {session_id: sessionId, cwd: options.cwd};
	const record = (entry: HookEntry, run: HookRun, decision: string): void => {
		if (stop.signal.aborted || (decision === 'ran' && run.stderr.trim() === '')) {
			return;
		}

		log.emit({type: 'hook/result', data: {point: entry.event, command: sanitizeText(entry.command), decision, ...(run.exitCode === null ? {} : {exitCode: run.exitCode}), stderrSummary: hookMessage(run, entry), durationMs: run.durationMs}, ignorable: true});
	};

	const runAll = async (event: HookEvent, input: Record<string, JsonValue>, tool?: string): Promise<void> => {
		for (const entry of of(event, tool)) {
			// eslint-disable-next-line no-await-in-loop -- hooks run in the order the config lists them
			const run = await runHook(entry, {...base, hook_event_name: event, ...input}, {cwd: options.cwd, env: options.env, signal: stop.signal});
			record(entry, run, run.timedOut ? 'timeout' : (run.exitCode === 0 ? 'ran' : 'failed'));
		}
	};

	const quietly = (work: Promise<void>): void => {
		void work.catch(() => {});
	};

	log.listen(event => {
		if (event.type === 'turn/end') {
			quietly(runAll('Stop', {stop_hook_active: false}));
		} else if (event.type === 'approval/asked') {
			quietly(runAll('Notification', {message: `cardterm needs your permission to use ${event.data.toolName}`}));
		}
	});
	return {
		async preExecute(exec, next) {
			for (const entry of of('PreToolUse', exec.name)) {
				// eslint-disable-next-line no-await-in-loop -- hooks run in the order the config lists them; the first refusal wins
				const run = await runHook(entry, {...base, hook_event_name: 'PreToolUse', tool_name: exec.name, tool_input: exec.arguments ?? null, tool_use_id: exec.callId}, {cwd: options.cwd, env: options.env, signal: AbortSignal.any([stop.signal, exec.signal])});
				if (run.timedOut || run.exitCode !== 0) {
					record(entry, run, run.timedOut ? 'timeout' : 'block');
					return {kind: 'deny', reason: `a PreToolUse hook refused ${exec.name} (${sanitizeText(entry.command)}): ${hookMessage(run, entry)}`};
				}

				record(entry, run, 'ran');
			}

			return next();
		},
		onResult(exec, result) {
			quietly(runAll('PostToolUse', {tool_name: exec.name, tool_input: exec.arguments ?? null, tool_use_id: exec.callId, tool_response: {isError: result.isError, content: result.content as unknown as JsonValue}}, exec.name));
		},
		dispose() {
			stop.abort();
		},
	};
}
