/**
@module The listener types of the registry's hooks (contract.md §T3.6).
*/
import type {JsonValue} from '../json/json-value.js';
import type {ContentBlock} from './content.js';
import type {PostToolDecision, PreToolDecision, ToolDispatchExecution, ToolExecution, ToolExecutionResult} from './types.js';

/** `tools/pre-execute` waterfall listener: decide allow / deny / ask; `next()` asks the inner listeners (default allow). */
export type PreExecuteListener = (
	exec: Readonly<ToolExecution>,
	next: () => Promise<PreToolDecision>,
) => PreToolDecision | Promise<PreToolDecision>;

/**
`tools/execute` waterfall listener around dispatch. It may replace `exec.signal` around `next()`
(and must restore it), or short-circuit by returning a result without calling `next()`. To retry,
it may call `next()` again after one resolved with an error result or rejected: the inner
listeners and the body run again. Never while a `next()` is still running, nor after one succeeded.
*/
export type ExecuteListener = (
	exec: ToolDispatchExecution,
	next: () => Promise<ToolExecutionResult>,
) => ToolExecutionResult | Promise<ToolExecutionResult>;

/** `tools/post-execute` waterfall listener: sees every result (errors and denials too); default accept. */
export type PostExecuteListener = (
	exec: Readonly<ToolExecution>,
	result: Readonly<ToolExecutionResult>,
	next: () => Promise<PostToolDecision>,
) => PostToolDecision | Promise<PostToolDecision>;

/** `tools/result` observer: the frozen execution and its frozen final result. Return value ignored; failures contained. */
export type ResultListener = (exec: Readonly<ToolExecution>, result: ToolExecutionResult) => unknown;

/** `tools/change` listener: the visible tool set changed. A throw rolls back a `register()`. */
export type ChangeListener = () => void;

/** The durable log copy of one Code Mode sub-call's settlement (contract.md §T6.5). */
export type CodeDispatchLog = {
	readonly rootCallId: string;
	readonly parentCallId: string;
	readonly subCallId: string;
	readonly name: string;
	readonly arguments: JsonValue;
	readonly isError: boolean;
	readonly content: readonly ContentBlock[];
};

/** `tools/code-dispatch-log` waterfall listener: the content to log for a sub-call (default `log.content`). */
export type CodeDispatchLogListener = (
	log: CodeDispatchLog,
	next: () => Promise<readonly ContentBlock[]>,
) => readonly ContentBlock[] | Promise<readonly ContentBlock[]>;

/** A monotonic guard: a string denies the call (first reason wins), `undefined` lets it through. */
export type ToolGuard = (exec: Readonly<ToolExecution>) => string | undefined;

/** Every hook `ToolRegistry.on` accepts, with its listener type. */
export type ToolHookListeners = {
	'tools/pre-execute': PreExecuteListener;
	'tools/execute': ExecuteListener;
	'tools/post-execute': PostExecuteListener;
	'tools/result': ResultListener;
	'tools/change': ChangeListener;
	'tools/code-dispatch-log': CodeDispatchLogListener;
};

/** A hook name. */
export type ToolHookName = keyof ToolHookListeners;
