/**
@module `ToolRegistry.execute`: the execution pipeline, stage by stage (contract.md §T3.5).

Stages that end the call early return a "final" result, which skips post-execute but still goes
through materialization, `finalizeContent` and `tools/result`. Nothing here rejects: every throw
from a hook, guard, approval service, body or projector becomes an error result.
*/
import type {JsonValue} from '../json/json-value.js';
import {snapshotJsonValue} from '../json/snapshot-json.js';
import type {UserMessage} from './content.js';
import {createSuccess} from './create-success.js';
import {thrownMessage, ToolNotFoundError, type AbortCode} from './errors.js';
import {createExecutionView} from './execution-view.js';
import {cancellationFailure, denialFailure, failureFromThrown} from './failure-result.js';
import {fuseSignals} from './fuse-signals.js';
import {runWaterfall, type HookList} from './hook-list.js';
import {materializeResult} from './materialize-result.js';
import {applyPostDecision} from './post-decision.js';
import {resolveGate, type Gate} from './pre-execute-gate.js';
import type {ExecuteListener, PostExecuteListener, PreExecuteListener, ResultListener, ToolGuard} from './registry-hooks.js';
import {normalizeWrapperResult} from './wrapper-result.js';
import type {
	Agent,
	ApprovalHandler,
	PreToolDecision,
	ToolDefinition,
	ToolDispatchExecution,
	ToolExecutionInput,
	ToolExecutionResult,
	ToolExecutionToken,
	ToolProgress,
	ToolRunContext,
} from './types.js';

/** The name of the Code Mode transport tool. */
export const runCodeToolName = 'run_code';

/** How the model reaches tools: directly, only through `run_code`, or both. */
export type ToolMode = 'native' | 'code' | 'both';

/** What the pipeline needs from its registry. */
export type PipelineHost = {
	readonly mode: ToolMode;
	readonly approval: ApprovalHandler | undefined;
	/** The definition visible under `name` right now (`run_code` only in code modes). */
	resolve(name: string): ToolDefinition | undefined;
	readonly preExecute: HookList<PreExecuteListener>;
	readonly execute: HookList<ExecuteListener>;
	readonly postExecute: HookList<PostExecuteListener>;
	readonly result: HookList<ResultListener>;
	readonly guards: HookList<ToolGuard>;
	/** Where contained observer failures are reported. */
	logError(message: string): void;
};

const argumentsMessage = 'tool execution arguments must be losslessly JSON-serializable';
const allow: PreToolDecision = Object.freeze({kind: 'allow'});
const accept = Object.freeze({kind: 'accept'} as const);

/** The code-mode collapse hint (stage 3). */
function codeModeRouteHint(name: string): string {
	return `only \`${runCodeToolName}\` is callable directly — call \`${name}\` from inside a \`${runCodeToolName}\` program instead`;
}

/** Run one execution through every stage. Never rejects; resolves with a deep-frozen result. */
export async function runToolExecution(host: PipelineHost, input: ToolExecutionInput): Promise<ToolExecutionResult> {
	// Stage 1: read every input field exactly once; a throwing getter ends the call like a bad argument.
	let inputError: {readonly thrown: unknown} | undefined;
	const read = <K extends keyof ToolExecutionInput>(key: K): ToolExecutionInput[K] | undefined => {
		if (inputError !== undefined) {
			return undefined;
		}

		try {
			return input[key];
		} catch (error) {
			inputError = {thrown: error};
			return undefined;
		}
	};

	const rawCallId = read('callId');
	const rawRootCallId = read('rootCallId');
	const rawName = read('name');
	const rawAgent = read('agent');
	const rawParent = read('parent');
	const rawSignal = read('signal');
	const rawOnProgress = read('onProgress');
	const callId = typeof rawCallId === 'string' ? rawCallId : '';
	const name = typeof rawName === 'string' ? rawName : '';
	const agent: Agent | undefined = rawAgent ?? undefined;
	const parent: ToolExecutionToken | undefined = rawParent ?? undefined;
	const callerSignal = rawSignal instanceof AbortSignal ? rawSignal : new AbortController().signal;
	const onProgress = typeof rawOnProgress === 'function' ? rawOnProgress : undefined;
	if (inputError === undefined) {
		const problem = inputProblem(rawCallId, rawName, rawSignal);
		if (problem !== undefined) {
			inputError = {thrown: new TypeError(problem)};
		}
	}

	// The finalizer is captured before the arguments are read, so unregistering later cannot skip it.
	const definition = inputError === undefined ? host.resolve(name) : undefined;
	let finalizer = captureFinalizer(definition);

	// Stage 2: materialize the arguments.
	let args: JsonValue | undefined;
	let final: ToolExecutionResult | undefined;
	if (inputError === undefined) {
		try {
			const snapshot = snapshotJsonValue(read('arguments'));
			if (snapshot.ok) {
				args = snapshot.value;
			} else {
				final = failureFromThrown(new TypeError(argumentsMessage));
			}
		} catch (error) {
			final = failureFromThrown(error);
		}
	}

	if (inputError !== undefined) {
		final = failureFromThrown(inputError.thrown);
	}

	const rootCallId = typeof rawRootCallId === 'string' ? rawRootCallId : callId;
	const view = createExecutionView({
		token: Symbol(`tool execution ${callId}`),
		callId,
		rootCallId,
		name,
		arguments: args,
		signal: callerSignal,
		agent,
		parent,
	});
	const {exec} = view;
	const state = {bodyInvoked: false, concluded: false, contextsOpen: true, deferred: [] as UserMessage[]};

	// A success the cancel replaces is kept inside the cancellation (`cancellationFailure`).
	const cancelled = (code: AbortCode, replaced?: ToolExecutionResult) => cancellationFailure(code, replaced);
	const afterDispatchCode = (): AbortCode => (state.bodyInvoked ? 'ABORTED' : 'ABORTED_BEFORE_DISPATCH');

	const runContext = (signal: AbortSignal): ToolRunContext =>
		Object.freeze({
			token: exec.token,
			callId,
			rootCallId,
			name,
			arguments: args,
			signal,
			...(agent === undefined ? {} : {agent}),
			...(parent === undefined ? {} : {parent}),
			deferContext(message: UserMessage) {
				// Contexts deferred after the pipeline collected them would be silently lost anyway.
				if (state.contextsOpen) {
					state.deferred.push(message);
				}
			},
			concludeTurn() {
				state.concluded = true;
			},
			progress(update: ToolProgress) {
				forwardProgress(onProgress, update);
			},
		});

	// Stage 12: the default of the tools/execute waterfall. A retrying wrapper may run it again after
	// a failure, so every result it produced for this execution is canonical (stage 13).
	const dispatched = new WeakSet<ToolExecutionResult>();
	const dispatch = async (): Promise<ToolExecutionResult> => {
		const wrapperSignal = exec.signal;
		const fused = fuseSignals(callerSignal, wrapperSignal);
		// concludeTurn() marks the attempt whose success it is, not a failed one before it.
		state.concluded = false;
		const settle = (result: ToolExecutionResult): ToolExecutionResult => {
			dispatched.add(result);
			return result;
		};

		try {
			if (fused.signal.aborted) {
				return settle(cancelled('ABORTED_BEFORE_DISPATCH'));
			}

			view.setSignal(fused.signal);
			const tool = host.resolve(name);
			if (tool === undefined) {
				return settle(failureFromThrown(new ToolNotFoundError(name)));
			}

			state.bodyInvoked = true;
			let value: unknown;
			try {
				// Never raced against the signal: a started body is always awaited.
				value = await tool.execute(args, runContext(fused.signal));
			} catch (error) {
				return settle(failureFromThrown(error));
			}

			let success: ToolExecutionResult;
			try {
				success = createSuccess(tool, exec, value, {concludesTurn: state.concluded});
			} catch (error) {
				return settle(failureFromThrown(error));
			}

			return settle(fused.signal.aborted ? cancelled('ABORTED', success) : success);
		} finally {
			fused.detach();
			view.setSignal(wrapperSignal);
		}
	};

	const decisionContext = {
		exec,
		resolveTool: () => host.resolve(name),
		concludesTurn: () => state.concluded,
	};

	// Stages 3–17. Returns the result before materialization.
	const stages = async (): Promise<ToolExecutionResult> => {
		if (final !== undefined) {
			return final;
		}

		// Stage 3: under `code`, the model may call only run_code directly.
		if (host.mode === 'code' && parent === undefined && definition !== undefined && name !== runCodeToolName) {
			if (callerSignal.aborted) {
				return cancelled('ABORTED_BEFORE_DISPATCH');
			}

			finalizer = undefined;
			return failureFromThrown(new ToolNotFoundError(name, codeModeRouteHint(name)));
		}

		// Stage 4.
		if (callerSignal.aborted) {
			return cancelled('ABORTED_BEFORE_DISPATCH');
		}

		// Stages 5–10.
		let gate: Gate;
		try {
			const decision = await runWaterfall<PreExecuteListener, PreToolDecision>(
				'tools/pre-execute',
				host.preExecute.snapshot(),
				async (listener, next) => listener(exec, next),
				async () => allow,
			);
			gate = await resolveGate(decision, {exec, agent, approval: host.approval, guards: host.guards, callerSignal});
		} catch (error) {
			return failureFromThrown(error);
		}

		let result: ToolExecutionResult;
		if (gate.kind === 'deny') {
			result = denialFailure(gate.reason);
		} else if (gate.kind === 'aborted' || callerSignal.aborted) {
			result = cancelled('ABORTED_BEFORE_DISPATCH');
		} else {
			// Stages 11–15.
			let wrapped: unknown;
			view.setSignalWritable(true);
			try {
				wrapped = await runWaterfall<ExecuteListener, ToolExecutionResult>(
					'tools/execute',
					host.execute.snapshot(),
					async (listener, next) => listener(exec, next),
					dispatch,
					// A wrapper may retry: call next() again after it resolved with an error result or rejected.
					{mayRetry: isFailedResult},
				);
			} catch (error) {
				return failureFromThrown(error);
			} finally {
				view.setSignalWritable(false);
			}

			try {
				// Stage 13: only what dispatch produced for this execution passes as is.
				result = isDispatched(dispatched, wrapped) ? wrapped : normalizeWrapperResult(wrapped, decisionContext);
			} catch (error) {
				return failureFromThrown(error);
			}

			state.contextsOpen = false;
			if (state.deferred.length > 0) {
				result = Object.freeze({...result, additionalContexts: Object.freeze([...state.deferred, ...(result.additionalContexts ?? [])])});
			}

			if (callerSignal.aborted && !result.isError) {
				result = cancelled(afterDispatchCode(), result);
			}
		}

		// Stage 16.
		const seen = result;
		try {
			const decision = await runWaterfall<PostExecuteListener, unknown>(
				'tools/post-execute',
				host.postExecute.snapshot(),
				async (listener, next) => listener(exec, seen, next as () => Promise<never>),
				async () => accept,
			);
			result = applyPostDecision(seen, decision, decisionContext);
		} catch (error) {
			return failureFromThrown(error);
		}

		// Stage 17.
		if (callerSignal.aborted && !result.isError) {
			result = cancelled(afterDispatchCode(), result);
		}

		return result;
	};

	let result: ToolExecutionResult;
	try {
		result = await stages();
	} catch (error) {
		// Only a bug in the stages above lands here; the call still resolves.
		result = failureFromThrown(error);
	}

	state.contextsOpen = false;
	view.setSignalWritable(false);

	// Stages 18–20.
	result = materializeOrFail(result);
	if (finalizer !== undefined) {
		const {callback, owner} = finalizer;
		finalizer = undefined;
		try {
			const replaced: unknown = callback.call(owner, exec, result);
			if (replaced !== undefined) {
				if (!Array.isArray(replaced)) {
					throw new TypeError(`finalizeContent of tool "${name}" must return an array of content blocks or undefined`);
				}

				result = materializeResult(Object.freeze({...result, content: replaced}) as ToolExecutionResult);
			}
		} catch (error) {
			result = materializeOrFail(failureFromThrown(error));
		}
	}

	// Stage 21.
	publish(host, exec, result);
	return result;
}

/** The finalizer callback and its definition (`this`), read once. */
type CapturedFinalizer = {
	readonly callback: NonNullable<ToolDefinition['finalizeContent']>;
	readonly owner: ToolDefinition;
};

function captureFinalizer(definition: ToolDefinition | undefined): CapturedFinalizer | undefined {
	if (definition === undefined) {
		return undefined;
	}

	const callback = definition.finalizeContent;
	return typeof callback === 'function' ? {callback, owner: definition} : undefined;
}

function inputProblem(callId: unknown, name: unknown, signal: unknown): string | undefined {
	if (typeof callId !== 'string' || callId === '') {
		return 'tool execution input callId must be a non-empty string';
	}

	if (typeof name !== 'string' || name === '') {
		return `tool execution input name of call "${callId}" must be a non-empty string`;
	}

	if (!(signal instanceof AbortSignal)) {
		return `tool execution input signal of call "${callId}" must be an AbortSignal`;
	}

	return undefined;
}

function forwardProgress(onProgress: ((update: ToolProgress) => void) | undefined, update: ToolProgress): void {
	if (onProgress === undefined) {
		return;
	}

	try {
		const returned: unknown = onProgress(update);
		if (isThenable(returned)) {
			returned.then(undefined, () => undefined);
		}
	} catch {
		// A broken progress consumer must not break the tool body.
	}
}

function materializeOrFail(result: ToolExecutionResult): ToolExecutionResult {
	try {
		return materializeResult(result);
	} catch (error) {
		return materializeResult(failureFromThrown(error));
	}
}

/** Stage 21: every `tools/result` observer sees the frozen exec and result; their failures are only logged. */
function publish(host: PipelineHost, exec: Readonly<ToolDispatchExecution>, result: ToolExecutionResult): void {
	const report = (error: unknown): void => {
		try {
			host.logError(`tools/result listener failed for tool call "${exec.callId}" (${exec.name}): ${thrownMessage(error)}`);
		} catch {
			// A broken logger must not change the result either.
		}
	};

	for (const listener of host.result.snapshot()) {
		try {
			const returned: unknown = listener(exec, result);
			if (isThenable(returned)) {
				returned.then(undefined, report);
			}
		} catch (error) {
			report(error);
		}
	}
}

/** An error result, as a retrying `tools/execute` wrapper sees it from `next()`. */
function isFailedResult(result: ToolExecutionResult): boolean {
	return typeof result === 'object' && result !== null && result.isError === true;
}

function isDispatched(dispatched: WeakSet<ToolExecutionResult>, value: unknown): value is ToolExecutionResult {
	return typeof value === 'object' && value !== null && dispatched.has(value as ToolExecutionResult);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
	try {
		return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as {then?: unknown}).then === 'function';
	} catch {
		return false;
	}
}
