/**
@module Session events and the log header (contract.md §E3). Events are the only input of
the UI: a live session produces exactly what its log records, and replay reads it back.

`SessionEvent` is a union whose `type` narrows `data`: one arm per type cardterm reads, and one
branded arm (`OtherEvent`) for every other type — those it knows by name only (notices, request
headers, compaction, hooks, …) and an ignorable type of a newer producer. Only the reader
(`event-decoder.ts`) makes events out of log lines, and it checks each arm's payload once
(`event-shape.ts`): past it, no consumer checks a shape again. Producers write `EventDraft`s
(`event-log.ts`), whose arms are these, so an ill-shaped event is a compile error.

Each `…Data` type declares what the card layer, the conversation and the ACP screen read; the
index signature stands for the fields a producer writes and nobody here reads (ids, roles, timing).
*/
/** The log's first line. */
export type SessionHeader = {
	readonly type: 'session';
	readonly version: 0;
	readonly id: string;
	readonly createdAt: number;
	readonly cwd?: string;
	readonly title?: string;
	readonly [key: string]: unknown;
};

/** The only session-log version this reader supports. */
export const SESSION_LOG_VERSION = 0;

/** The fields of a JSON object: a payload, or part of one, read field by field. */
export type EventFields = {readonly [key: string]: unknown};

/**
How a message enters the model's context (§E3.1): appended, or replacing the context's messages from
seq `start` to seq `end` (a compaction). `surface-op.ts` says what each does.
*/
export type SurfaceOp = 'append' | {readonly op: 'replace'; readonly start: number; readonly end: number};

/** Envelope shared by every event. */
export type EventEnvelope<Type extends string, Data> = {
	readonly type: Type;
	readonly seq: number;
	readonly time: number;
	readonly data: Data;
	/** A reader may skip an unknown type only when this is `true`. */
	readonly ignorable?: boolean;
	readonly surfaceOp?: SurfaceOp;
	readonly sourceEventSeqs?: readonly number[];
};

export type TurnStartData = {readonly turn: number; readonly [key: string]: unknown};
/** `reason.kind`: `completed`, `aborted`, `blocked`, `error`, `max-tokens`, `interrupted` (§E3.2), or another producer's word. */
export type TurnEndData = {readonly turn: number; readonly reason?: {readonly kind: string; readonly [key: string]: unknown}; readonly [key: string]: unknown};
export type StepData = {readonly turn: number; readonly step: number; readonly [key: string]: unknown};

export type TurnStartEvent = EventEnvelope<'turn/start', TurnStartData>;
export type TurnEndEvent = EventEnvelope<'turn/end', TurnEndData>;
export type StepStartEvent = EventEnvelope<'step/start', StepData>;
export type StepEndEvent = EventEnvelope<'step/end', StepData>;

/** A block of a message's content: `text`, `reasoning`, `image`, `tool-call`, … (what else it holds depends on the type). */
export type MessageBlock = {readonly type: string; readonly [key: string]: unknown};
/** A message's content: text, or blocks. */
export type MessageContent = string | readonly MessageBlock[];

/**
What the person said (`user/message`, §E3.2), a plugin injected (`source.kind` other than `user`), or
was sent while the model worked (`steering/message`). Older producers nest it in `data.message`;
the reader lifts it out.
*/
export type UserMessageData = {
	readonly content?: MessageContent;
	/** `kind` (`user`, `plugin`, …) and the plugin's `plugin` or `name`. */
	readonly source?: EventFields;
	readonly turn?: number;
	readonly [key: string]: unknown;
};

/** The model's message of a step. */
export type AssistantMessageBody = {readonly content?: MessageContent; readonly [key: string]: unknown};

/**
A step's final message (§E3.2): its blocks in stream order, the step's usage, and `interrupted` when
the stream was cut. Older producers write the message's fields in `data` itself; the reader nests them.
*/
export type AssistantMessageData = {
	readonly turn?: number;
	readonly step?: number;
	readonly message?: AssistantMessageBody;
	/** Token counts (`usageOf` reads them). */
	readonly usage?: EventFields;
	readonly interrupted?: boolean;
	readonly [key: string]: unknown;
};

/** A stream chunk (§E3.2): `block-start`, `text-delta`, `reasoning-delta`, `tool-call-delta`, `block-end`, `usage`, `finish`, … */
export type StreamChunk = {readonly type: string; readonly [key: string]: unknown};
/** `turn` and `step` are left out when they are not integers: such a chunk belongs to no stream. */
export type ChunkData = {readonly turn?: number; readonly step?: number; readonly chunk: StreamChunk; readonly [key: string]: unknown};

export type UserMessageEvent = EventEnvelope<'user/message', UserMessageData>;
export type SteeringMessageEvent = EventEnvelope<'steering/message', UserMessageData>;
export type AssistantMessageEvent = EventEnvelope<'assistant/message', AssistantMessageData>;
export type AssistantChunkEvent = EventEnvelope<'assistant/chunk', ChunkData>;

/** A call starts: creates a pending card. `arguments` is the raw JSON string. */
export type ToolCallData = {
	readonly turn?: number;
	readonly step?: number;
	readonly callId: string;
	readonly name: string;
	readonly arguments: string;
	readonly [key: string]: unknown;
};

/** The `tool-result` block inside a `tool/result` message. Its `content` is an array; whether of content blocks, the result's facts say. */
export type ToolResultBlock = {
	readonly type: 'tool-result';
	readonly toolCallId: string;
	readonly content: readonly unknown[];
	readonly isError: boolean;
	readonly [key: string]: unknown;
};

/** A call settles: completes its card. Older producers' flat shape is nested by the reader. */
export type ToolResultData = {
	readonly turn?: number;
	readonly step?: number;
	readonly message: {
		readonly source: {readonly callId: string; readonly [key: string]: unknown};
		readonly content: readonly ToolResultBlock[];
		readonly [key: string]: unknown;
	};
	readonly error?: {readonly name: string; readonly code: string; readonly [key: string]: unknown};
	readonly meta?: unknown;
	readonly [key: string]: unknown;
};

export type ToolCallEvent = EventEnvelope<'tool/call', ToolCallData>;
export type ToolResultEvent = EventEnvelope<'tool/result', ToolResultData>;

/** A Code Mode sub-call. Old logs have no `rootCallId`: the reader fills it with `parentCallId`. */
export type CodeDispatchStartData = {
	readonly rootCallId: string;
	readonly parentCallId: string;
	readonly subCallId: string;
	readonly name: string;
	readonly arguments?: unknown;
	readonly [key: string]: unknown;
};

export type CodeDispatchData = CodeDispatchStartData & {readonly isError: boolean; readonly content: readonly unknown[]};

/** A Code Mode sub-call started. */
export type CodeDispatchStartEvent = EventEnvelope<'tool/code-dispatch-start', CodeDispatchStartData>;
/** A Code Mode sub-call settled (always follows its start). */
export type CodeDispatchEvent = EventEnvelope<'tool/code-dispatch', CodeDispatchData>;

/** A todo item. */
export type TodoItem = {readonly content: string; readonly status: 'pending' | 'in_progress' | 'completed'};
export type TodoWriteEvent = EventEnvelope<'todo/write', {readonly todos: readonly TodoItem[]}>;

export type ApprovalAskedEvent = EventEnvelope<'approval/asked', {readonly id: string; readonly toolName: string; readonly callId?: string; readonly reason?: string}>;
/**
The answer to an approval. `outcome` is the contract's (`allowed-once`, `rejected`, `cancelled`,
`unavailable`) or what was granted beyond the call: `allowed-session` (cardterm), an ACP agent's
`allowed-always` / `rejected-always`. cardterm's fields: `standing` (a grant given earlier answered,
nobody was asked), `feedback` (the person's words to the model with a refusal).
*/
export type ApprovalDecidedEvent = EventEnvelope<'approval/decided', {readonly id: string; readonly outcome: string; readonly standing?: boolean; readonly feedback?: string}>;

/** cardterm extension: live output of a running call. Ignorable; replay never needs it. Fields of the wrong kind are left out. */
export type ToolProgressEvent = EventEnvelope<'cardterm/tool-progress', {
	readonly callId?: string;
	readonly stream?: string;
	readonly text?: string;
}>;

/** Title of the session, when a producer sets one. */
export type SessionTitleEvent = EventEnvelope<'session/title', {readonly title?: string; readonly [key: string]: unknown}>;

/** The model request failed and is retried: `retryFacts` words the rest (attempt, delay, reason). */
export type LlmRetryEvent = EventEnvelope<'llm/retry', {readonly turn?: number; readonly [key: string]: unknown}>;

/**
A compaction (the DeepSeek harness's vocabulary, which cardterm writes too): `compaction/start`
opens one, `compaction/prune` and `compaction/summary` each precede the replacement message that
rewrites the model's context (`surfaceOp: {op: 'replace'}`), `compaction/end` closes it (`error` when
it failed). Other producers write fewer fields (or others): each is read only when of its kind.
`CompactionFacts` are cardterm's own fields, on the event its card is anchored on.
*/
export type CompactionRange = {readonly start: number; readonly end: number};

/** What cardterm records of a compaction for its card: the tokens before and after, what was pruned and summarised, the evidence from the log's cards. */
export type CompactionFacts = {
	/** `auto` (before a request, at the window less the reserve), `manual` (`/compact`), `overflow` (the provider refused the request). */
	readonly trigger?: string;
	readonly tokensBefore?: number;
	readonly tokensAfter?: number;
	/** Tool results whose bodies were replaced by a stub, and the tokens they held. */
	readonly prunedCount?: number;
	readonly prunedTokens?: number;
	readonly prunedRange?: CompactionRange;
	/** The focus text of `/compact FOCUS`. */
	readonly focus?: string;
	/** Files read, changed, commands run, failing tests: generated from the cards, accumulated across compactions. */
	readonly evidence?: EventFields;
	/** What went otherwise than planned (a summary request that failed, so only pruning was done). */
	readonly note?: string;
};

export type CompactionStartData = {readonly compactionId?: string; readonly turn?: number | null; readonly [key: string]: unknown};
export type CompactionPruneData = {readonly shadowedRange?: CompactionRange; readonly shadowedSeqs?: readonly number[]; readonly shadowedTokenCount?: number; readonly [key: string]: unknown};
export type CompactionSummaryData = CompactionFacts & CompactionPruneData & {
	readonly compactionId?: string;
	readonly summary?: MessageContent;
	readonly provider?: string;
	readonly model?: string;
};
export type CompactionEndData = CompactionFacts & {readonly compactionId?: string; readonly turn?: number | null; readonly error?: string; readonly [key: string]: unknown};

export type CompactionStartEvent = EventEnvelope<'compaction/start', CompactionStartData>;
export type CompactionPruneEvent = EventEnvelope<'compaction/prune', CompactionPruneData>;
export type CompactionSummaryEvent = EventEnvelope<'compaction/summary', CompactionSummaryData>;
export type CompactionEndEvent = EventEnvelope<'compaction/end', CompactionEndData>;

/** A session's permission mode changed (`ask`, `edits`, `plan`, `bypass`; an older producer's presets too): a notice. */
export type PermissionPresetEvent = EventEnvelope<'permission/preset', {readonly mode?: string; readonly [key: string]: unknown}>;

/** A hook ran and refused, failed, timed out or wrote to stderr (its point, decision, exit code and message): a notice. */
export type HookResultEvent = EventEnvelope<'hook/result', {readonly point?: string; readonly [key: string]: unknown}>;

/** cardterm's notes of an ACP session (the agent's commands, mode, usage, …): ignorable, read by the ACP screen. */
export type AcpNoteEvent = EventEnvelope<`acp/${string}`, EventFields>;

/**
The `type` of an event without an arm of its own. A brand: no type is spelled this way, so only the
reader makes one, a `switch (event.type)` narrows the arms, and comparing with a type that has no
arm does not compile (declare an arm instead).
*/
export type OtherEventType = `\u0000${string}`;

/** An event of a type without an arm: known by name only (notices, request headers, compaction, hooks) or not at all (ignorable). */
export type OtherEvent = EventEnvelope<OtherEventType, EventFields>;

/** The events cardterm reads the fields of. */
export type KnownEvent =
	| TurnStartEvent
	| TurnEndEvent
	| StepStartEvent
	| StepEndEvent
	| UserMessageEvent
	| SteeringMessageEvent
	| AssistantMessageEvent
	| AssistantChunkEvent
	| ToolCallEvent
	| ToolResultEvent
	| CodeDispatchStartEvent
	| CodeDispatchEvent
	| TodoWriteEvent
	| ApprovalAskedEvent
	| ApprovalDecidedEvent
	| ToolProgressEvent
	| SessionTitleEvent
	| LlmRetryEvent
	| CompactionStartEvent
	| CompactionPruneEvent
	| CompactionSummaryEvent
	| CompactionEndEvent
	| PermissionPresetEvent
	| HookResultEvent
	| AcpNoteEvent;

/** Any event the reader yields or a producer records. */
export type SessionEvent = KnownEvent | OtherEvent;
