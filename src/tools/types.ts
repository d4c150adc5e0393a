/**
@module The tool contract's runtime shapes: definitions the registry accepts, the execution views
handed to hooks and bodies, and the results it returns. Spec: contract.md §T3.
*/
import type {JsonValue} from '../json/json-value.js';
import type {JsonSchemaNode} from '../schema/json-schema-node.js';
import type {ContentBlock, UserMessage} from './content.js';
import type {ToolCallView, ToolResult, ToolResultView} from './views.js';

/** A raw JSON Schema node of the supported subset (contract.md §T1.6); defined by the schema layer. */
export type {JsonSchemaNode};

/** Identifies one model tool call. */
export type CallId = string;

/** The agent a call runs for. cardterm's session is the only agent; the field is a seam for more. */
export type Agent = {
	readonly id: string;
	readonly sessionId?: string;
	/**
	Add a durable context message (a `user/message`, usually `source.kind: 'plugin'`) that the next
	model request sees. Not a wake-up: an idle agent stays idle. Throws once the agent is disposed.
	*/
	readonly inject?: (message: AgentInjection) => void;
};

/** What `agent.inject` takes. */
export type AgentInjection = {readonly content: readonly ContentBlock[]; readonly source: UserMessage['source']};

/** An opaque identity for one execution, minted by the registry. Never serialized. */
export type ToolExecutionToken = symbol;

/** What reaches the model for a tool: exactly these three keys. */
export type ToolSchema = {readonly name: string; readonly description: string; readonly parameters: Record<string, unknown>};

/** What a caller passes to `ToolRegistry.execute`. Each field is read exactly once. */
export type ToolExecutionInput = {
	readonly callId: CallId;
	readonly rootCallId?: CallId;
	readonly name: string;
	readonly arguments: unknown;
	readonly agent?: Agent;
	readonly parent?: ToolExecutionToken;
	readonly signal: AbortSignal;
	/** cardterm extension: receives the body's live progress (`ToolRunContext.progress`). */
	readonly onProgress?: (update: ToolProgress) => void;
};

/** The pipeline's view of one execution (hooks receive it frozen). */
export type ToolExecution = {
	readonly token: ToolExecutionToken;
	readonly callId: CallId;
	readonly rootCallId: CallId;
	readonly name: string;
	/** Lossless deep-frozen snapshot; `undefined` when materialization failed. */
	readonly arguments: JsonValue | undefined;
	readonly signal: AbortSignal;
	readonly agent?: Agent;
	readonly parent?: ToolExecutionToken;
};

/** What `tools/execute` wrappers receive: identical, except the signal slot may be replaced (and must be restored). */
export type ToolDispatchExecution = Omit<ToolExecution, 'signal'> & {signal: AbortSignal};

/** Progress a running tool reports (live output); never part of the result. */
export type ToolProgress = {readonly kind: 'output'; readonly stream: 'stdout' | 'stderr'; readonly text: string};

/** What a tool body receives. */
export type ToolRunContext = ToolExecution & {
	/** Queue a context message that rides this call's result (`additionalContexts`). */
	deferContext(message: UserMessage): void;
	/** Mark this execution; a successful result then carries `concludesTurn: true`. */
	concludeTurn(): void;
	/** Report live progress (for example bash output) to whoever executes the call; a no-op when nobody listens. */
	progress(update: ToolProgress): void;
};

/** A classed error's identity on a failed result. */
export type ToolErrorInfo = {readonly name: string; readonly code: string};

/** A successful result. Optional keys are absent, never `undefined`. */
export type ToolExecutionSuccess = {
	readonly isError: false;
	readonly value: JsonValue;
	readonly content: readonly ContentBlock[];
	readonly meta?: JsonValue;
	readonly additionalContexts?: readonly UserMessage[];
	readonly concludesTurn?: true;
};

/** A failed result. Never has `value`. */
export type ToolExecutionFailure = {
	readonly isError: true;
	readonly error: {readonly message: string; readonly info?: ToolErrorInfo};
	readonly content: readonly ContentBlock[];
	readonly meta?: JsonValue;
	readonly additionalContexts?: readonly UserMessage[];
};

/** What `ToolRegistry.execute` resolves with: deep-frozen. */
export type ToolExecutionResult = ToolExecutionSuccess | ToolExecutionFailure;

/** The output declaration every tool must make (contract.md §T4). */
export type ToolOutputDeclaration = {
	readonly schema: JsonSchemaNode;
	render(args: unknown, value: JsonValue): ContentBlock[];
	presentationMeta?(args: unknown, value: JsonValue): JsonValue;
};

/** What the registry accepts: a `defineTool` result or a raw definition that validates its own input. */
export type ToolDefinition = ToolSchema & {
	/**
	Why the tool cannot work in this session (`web_search` without a search backend), when it cannot:
	a model is not offered it, while people and replay still find it (and its clear error).
	*/
	readonly unavailable?: string;
	readonly output: ToolOutputDeclaration;
	execute(args: unknown, exec: ToolRunContext): Promise<unknown>;
	finalizeContent?(exec: Readonly<ToolExecution>, result: Readonly<ToolExecutionResult>): ContentBlock[] | undefined;
	readonly timeoutMs?: number;
	isConcurrencySafe?(args: unknown): boolean;
	presentCall?(args: unknown): ToolCallView | undefined;
	presentResult?(args: unknown, result: ToolResult): ToolResultView | undefined;
};

/** `tools/pre-execute` decision. */
export type PreToolDecision = {readonly kind: 'allow'} | {readonly kind: 'deny'; readonly reason: string} | {readonly kind: 'ask'; readonly reason?: string};

/** `tools/post-execute` decision. */
export type PostToolDecision =
	| {readonly kind: 'accept'; readonly content?: readonly ContentBlock[]; readonly value?: JsonValue; readonly additionalContexts?: readonly UserMessage[]}
	| {readonly kind: 'block'; readonly feedback: readonly ContentBlock[]; readonly additionalContexts?: readonly UserMessage[]};

/** Answer of the approval service for an `ask` decision. */
export type ApprovalOutcome = 'allowed-once' | 'rejected' | 'cancelled' | 'unavailable';

/** What the approval service is asked. */
export type ApprovalRequest = {
	readonly agent: Agent;
	readonly toolName: string;
	readonly callId: CallId;
	readonly reason?: string;
	readonly signal: AbortSignal;
};

/** The approval service a UI provides. */
export type ApprovalHandler = (request: ApprovalRequest) => Promise<ApprovalOutcome>;
