/**
@module The agent's own view of a model: the conversation it sends, the stream parts it gets back,
and the errors it can see. Only `model-client.ts` knows which library streams; everything else in
`src/agent/` speaks these types.
*/
import type {JsonValue} from '../json/json-value.js';
import type {ToolSchema} from '../tools/types.js';

/**
What a provider needs to be sent a block back as it streamed it: Anthropic's thinking signature,
Gemini's thought signature, an OpenAI reasoning item's id and encrypted content. Opaque to
cardterm, keyed by the provider that gave it (`{anthropic: {signature}}`), and recorded in the log
on the block so that a resumed session sends what a live one does.
*/
export type ProviderMetadata = {readonly [provider: string]: {readonly [key: string]: JsonValue}};

/** One tool call the model made, its arguments as the raw text it emitted. */
export type ModelToolCall = {readonly id: string; readonly name: string; readonly arguments: string; readonly providerMetadata?: ProviderMetadata};

/** A block of what the model said in one step, in stream order. */
export type AssistantPart =
	| {readonly type: 'text' | 'reasoning'; readonly text: string; readonly providerMetadata?: ProviderMetadata}
	| ({readonly type: 'tool-call'} & ModelToolCall);

/** A message of the conversation sent with every request (the system prompt travels apart). */
export type ConversationMessage =
	| {readonly role: 'user'; readonly text: string}
	| {readonly role: 'assistant'; readonly content: readonly AssistantPart[]}
	| {readonly role: 'tool'; readonly callId: string; readonly name: string; readonly text: string; readonly isError: boolean};

/** Token counts of one model call (absent counts are 0). `inputTokens` includes the cached ones. */
export type ModelUsage = {
	readonly inputTokens: number;
	readonly outputTokens: number;
	/** Input read from the provider's prompt cache. */
	readonly cacheReadTokens: number;
	/** Input written to the provider's prompt cache (Anthropic bills these apart). */
	readonly cacheWriteTokens: number;
	readonly reasoningTokens: number;
};

/** Why the model stopped: `tool-calls`, `stop`, `length` (max tokens), `content-filter`, `error`, `other`. */
export type ModelFinishReason = 'tool-calls' | 'stop' | 'length' | 'content-filter' | 'error' | 'other';

/** A failure of a model call, classified for the retry rule. */
export type ModelError = {
	readonly message: string;
	/** HTTP status when the server answered. */
	readonly status?: number;
	/** Rate limit, overload, 5xx or network: worth another attempt. */
	readonly retryable: boolean;
	/** The server's `Retry-After`, in ms, when it sent one. */
	readonly retryAfterMs?: number;
};

/**
What a model stream yields. Ids name blocks: each text, reasoning or tool-call block starts,
streams deltas and ends; a tool call then arrives whole.
*/
export type ModelStreamPart =
	| {readonly type: 'text-start' | 'reasoning-start' | 'text-end' | 'reasoning-end'; readonly id: string; readonly providerMetadata?: ProviderMetadata}
	| {readonly type: 'text-delta' | 'reasoning-delta'; readonly id: string; readonly text: string; readonly providerMetadata?: ProviderMetadata}
	| {readonly type: 'tool-input-start'; readonly id: string; readonly name: string}
	| {readonly type: 'tool-input-delta'; readonly id: string; readonly delta: string}
	| ({readonly type: 'tool-call'} & ModelToolCall)
	/** A tool the provider ran itself (Anthropic's web search and fetch): shown, never run here, not sent back. */
	| {readonly type: 'provider-tool-call'; readonly id: string; readonly name: string; readonly arguments: string}
	| {readonly type: 'provider-tool-result'; readonly id: string; readonly name: string; readonly result: JsonValue; readonly isError: boolean}
	| {readonly type: 'finish'; readonly reason: ModelFinishReason; readonly usage: ModelUsage}
	| {readonly type: 'error'; readonly error: ModelError};

/** One request: one step of a turn. */
export type ModelRequest = {
	readonly system: string;
	readonly messages: readonly ConversationMessage[];
	readonly tools: readonly ToolSchema[];
	readonly signal: AbortSignal;
};

/** A configured model. `stream` never throws: failures arrive as an `error` part. */
export type ModelClient = {
	/** Provider name as logged (`openai`, `anthropic`, `openai-compatible`, …). */
	readonly provider: string;
	/** Model id as the provider knows it. */
	readonly model: string;
	/** The server requests go to when it is not the provider's own (a base URL): the status line names it. */
	readonly endpoint?: string;
	stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
	/** Load what the first request needs (the model library) ahead of it; a failure is the first request's to report. */
	preload?(): Promise<unknown>;
};
