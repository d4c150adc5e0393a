/**
@module What the `run_code` transport needs from the registry, and the sub-call events it reports.
*/
import type {JsonValue} from '../json/json-value.js';
import type {ContentBlock} from '../tools/content.js';
import type {ToolExecutionInput, ToolExecutionResult, ToolExecutionToken} from '../tools/types.js';

/**
The registry seen from Code Mode. `ToolRegistry` satisfies it: `execute` runs the full pipeline,
`executionMode` classifies a call (absent: every call is exclusive), `schemas` lists the visible
tools (read once per run; `run_code` itself is never bound), `maxParallelSubCalls` is the default
overlap bound, `codeDispatchLogContent` shapes the logged content of settled sub-calls.
*/
export type CodeModeExecutor = {
	execute(input: ToolExecutionInput): Promise<ToolExecutionResult>;
	executionMode?(input: {readonly name: string; readonly arguments: unknown; readonly parent?: ToolExecutionToken}): {readonly kind: 'parallel' | 'exclusive'};
	schemas(): ReadonlyArray<{readonly name: string}>;
	readonly maxParallelSubCalls?: number;
	/** The `tools/code-dispatch-log` waterfall: the content to log for a settled sub-call (absent: its content). */
	codeDispatchLogContent?(log: CodeDispatchData): Promise<readonly ContentBlock[]>;
};

/** Data of `tool/code-dispatch-start` (contract.md §E3.2). */
export type CodeDispatchStartData = {
	readonly rootCallId: string;
	readonly parentCallId: string;
	readonly subCallId: string;
	readonly name: string;
	readonly arguments: JsonValue;
};

/** Data of `tool/code-dispatch`: the start data plus the settled content. */
export type CodeDispatchData = CodeDispatchStartData & {readonly isError: boolean; readonly content: readonly ContentBlock[]};

/** A sub-call event, for a UI or the session log (which adds `seq` and `time`). */
export type CodeDispatchEvent =
	| {readonly type: 'tool/code-dispatch-start'; readonly data: CodeDispatchStartData}
	| {readonly type: 'tool/code-dispatch'; readonly data: CodeDispatchData};
