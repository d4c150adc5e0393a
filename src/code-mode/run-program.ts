/**
@module One `run_code` execution: run the program in a worker, dispatch its `tools.<name>(args)`
calls through the registry as nested calls (contract.md §T6.3–§T6.5), and settle.

Per call, in order: a run that is over rejects (`… not dispatched`); the arguments are snapshotted
losslessly twice (one copy dispatched, one logged), a lossy value rejecting with no event and no
sub-call number; the call gets `<callId>:code:<n>` and is scheduled; when it starts, a
`tool/code-dispatch-start` event; when it settles, in submission order: a `tool/code-dispatch`
event, deferred contexts, and the program's promise (the final canonical value, or a rejection
with the failure message). At the end the run signal aborts, queued calls are abandoned, in-flight
ones are awaited, and only then does `run_code` return.
*/
import type {JsonValue} from '../json/json-value.js';
import {snapshotJsonValue} from '../json/snapshot-json.js';
import {CodeRunFailedError, thrownMessage} from '../tools/errors.js';
import type {ToolExecutionResult, ToolRunContext} from '../tools/types.js';
import type {ContentBlock} from '../tools/content.js';
import type {CodeDispatchData, CodeDispatchEvent, CodeDispatchStartData, CodeModeExecutor} from './code-mode-types.js';
import {ProgramWorker, type CallSettlement, type ProgramCall, type ProgramEnd} from './program-worker.js';
import type {RunCodeValue} from './render-run-code.js';
import {SubCallScheduler} from './sub-call-scheduler.js';

/** Limits and sinks of one run. */
export type RunProgramOptions = {
	readonly executor: CodeModeExecutor;
	readonly timeoutMs: number;
	readonly maxParallelSubCalls: number;
	readonly maxLogChars: number;
	readonly maxResultChars: number;
	readonly memoryLimitMb: number;
	readonly onDispatch?: (event: CodeDispatchEvent) => void;
	readonly env?: NodeJS.ProcessEnv;
};

/** How long a worker may take to boot before the run fails. */
const startupTimeoutMs = 30_000;

const losslessHint = 'tool arguments must be lossless JSON (call the tool with an arguments object, e.g. `{}`)';

/** Run `code` for the `run_code` call `exec`; resolves with the value or throws `CodeRunFailedError`. */
export async function runProgram(code: string, exec: ToolRunContext, options: RunProgramOptions): Promise<RunCodeValue> {
	exec.signal.throwIfAborted();
	const {executor} = options;
	const toolNames = [...new Set(executor.schemas().map(schema => schema.name))].filter(name => name !== 'run_code');
	const logs: string[] = [];
	const runController = new AbortController();
	const scheduler = new SubCallScheduler(options.maxParallelSubCalls);
	let overReason: string | undefined;
	let subCallCount = 0;
	// Ordered commits: a call's settle event, contexts and answer wait for every earlier call's.
	let lastCommit: Promise<void> = Promise.resolve();
	const emit = (event: CodeDispatchEvent) => {
		try {
			options.onDispatch?.(event);
		} catch {
			// A failing observer must not change the run.
		}
	};

	let resolveEnd!: (end: ProgramEnd) => void;
	const ended = new Promise<ProgramEnd>(resolve => {
		resolveEnd = resolve;
	});
	let timer: NodeJS.Timeout | undefined;
	const worker = new ProgramWorker({
		code,
		toolNames,
		maxLogChars: options.maxLogChars,
		memoryLimitMb: options.memoryLimitMb,
		...(options.env === undefined ? {} : {env: options.env}),
		onStart() {
			clearTimeout(timer);
			timer = setTimeout(() => {
				worker.fail('timeout', `the program did not finish within ${options.timeoutMs}ms`);
			}, options.timeoutMs);
		},
		onLog(text) {
			logs.push(text);
		},
		onCall(call) {
			dispatch(call);
		},
		onEnd: resolveEnd,
	});

	function dispatch(call: ProgramCall): void {
		const {id, name} = call;
		const answer = (settlement: CallSettlement) => {
			worker.settle(id, settlement);
		};

		if (overReason !== undefined) {
			answer({ok: false, message: `run_code run is over (${overReason}); ${name} not dispatched`});
			return;
		}

		let dispatched: JsonValue;
		let logged: JsonValue;
		try {
			const first = snapshotJsonValue(call.args);
			const second = snapshotJsonValue(call.args);
			if (!first.ok || !second.ok) {
				answer({ok: false, message: losslessHint});
				return;
			}

			dispatched = first.value;
			logged = second.value;
		} catch (error) {
			answer({ok: false, message: `tool arguments must be lossless JSON: ${thrownMessage(error)}`});
			return;
		}

		const index = subCallCount++;
		const subCallId = `${exec.callId}:code:${index + 1}`;
		const startData: CodeDispatchStartData = {rootCallId: exec.rootCallId, parentCallId: exec.callId, subCallId, name, arguments: logged};
		let provideCommit!: (commit: () => Promise<void> | void) => void;
		const commitReady = new Promise<() => Promise<void> | void>(resolve => {
			provideCommit = resolve;
		});
		const committed = Promise.all([lastCommit, commitReady]).then(async ([, commit]) => {
			try {
				await commit();
			} catch {
				// A commit never fails the lane; the program's promise is settled by `answer`, which does not throw.
			}
		});
		lastCommit = committed;
		const complete = async (commit: () => Promise<void> | void) => {
			provideCommit(commit);
			await committed;
		};

		scheduler.submit({
			classify() {
				return executor.executionMode?.({name, arguments: dispatched, parent: exec.token}).kind ?? 'exclusive';
			},
			abandon() {
				// Never started: no events, just the rejection.
				void complete(() => {
					answer({ok: false, message: `run_code run is over (run_code settled); ${name} tool call abandoned`});
				});
			},
			async run() {
				emit({type: 'tool/code-dispatch-start', data: startData});
				const result = await executeSafely(executor, {
					callId: subCallId,
					rootCallId: exec.rootCallId,
					name,
					arguments: dispatched,
					...(exec.agent === undefined ? {} : {agent: exec.agent}),
					parent: exec.token,
					signal: runController.signal,
				});
				await complete(async () => {
					const content = await logContent(executor, {...startData, isError: result.isError, content: result.content});
					emit({type: 'tool/code-dispatch', data: {...startData, isError: result.isError, content}});
					deferContexts(exec, subCallId, result);
					if (overReason !== undefined) {
						answer({ok: false, message: `run_code run is over (${overReason}); ${name} result discarded`});
					} else if (result.isError) {
						answer({ok: false, message: result.error.message});
					} else {
						if (result.concludesTurn === true) {
							exec.concludeTurn();
						}

						answer({ok: true, value: result.value});
					}
				});
			},
		});
	}

	// Booting a worker is not the program's time; the deadline starts with the program. A worker
	// that never boots is still bounded.
	timer = setTimeout(() => {
		worker.fail('worker-exit', `the program's worker did not start within ${startupTimeoutMs}ms`);
	}, startupTimeoutMs);
	const onAbort = () => {
		worker.fail('abort', 'the run_code call was cancelled');
	};

	exec.signal.addEventListener('abort', onAbort, {once: true});
	let end: ProgramEnd;
	try {
		end = await ended;
	} finally {
		clearTimeout(timer);
		exec.signal.removeEventListener('abort', onAbort);
	}

	const cancelled = end.kind === 'failed' && end.failure === 'abort';
	overReason = cancelled ? 'run_code cancelled' : 'run_code settled';
	// In-flight sub-calls see the caller's own reason when the outer call was cancelled.
	runController.abort(cancelled ? exec.signal.reason : new DOMException(overReason, 'AbortError'));
	scheduler.close();
	await worker.terminate();
	await scheduler.drain();
	await lastCommit;
	return settle(end, logs, options.maxResultChars);
}

function settle(end: ProgramEnd, logs: readonly string[], maxResultChars: number): RunCodeValue {
	if (end.kind === 'failed') {
		throw new CodeRunFailedError(end.failure, end.message, logs);
	}

	if (!end.hasResult) {
		return {logs};
	}

	const snapshot = snapshotJsonValue(end.result);
	if (!snapshot.ok) {
		throw new CodeRunFailedError('invalid-output', 'the program returned a value that is not lossless JSON', logs);
	}

	const size = JSON.stringify(snapshot.value).length;
	if (size > maxResultChars) {
		throw new CodeRunFailedError('output-limit', `the returned value is ${size} characters of JSON, over the limit of ${maxResultChars}`, logs);
	}

	return {logs, result: snapshot.value};
}

/** The durable copy of a settled sub-call's content: the registry's `tools/code-dispatch-log` waterfall when it has one. */
async function logContent(executor: CodeModeExecutor, log: CodeDispatchData): Promise<readonly ContentBlock[]> {
	if (executor.codeDispatchLogContent === undefined) {
		return log.content;
	}

	try {
		return await executor.codeDispatchLogContent(log);
	} catch {
		return log.content;
	}
}

/** The registry never rejects; a hand-written executor might, and that must still settle the call. */
async function executeSafely(executor: CodeModeExecutor, input: Parameters<CodeModeExecutor['execute']>[0]): Promise<ToolExecutionResult> {
	try {
		return await executor.execute(input);
	} catch (error) {
		const message = thrownMessage(error);
		return {isError: true, error: {message}, content: [{type: 'text', text: `Error: ${message}`}]};
	}
}

/** Images in a successful sub-result, then its additional contexts, ride the outer result (§T6.5). */
function deferContexts(exec: ToolRunContext, subCallId: string, result: ToolExecutionResult): void {
	if (!result.isError && result.content.some(block => block.type === 'image')) {
		exec.deferContext({id: `${subCallId}:images`, role: 'user', content: result.content, source: {kind: 'plugin', plugin: 'tools-code-mode'}});
	}

	for (const context of result.additionalContexts ?? []) {
		exec.deferContext(context);
	}
}
