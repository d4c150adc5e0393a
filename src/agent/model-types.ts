/**
@module The agent's own view of a model: the conversation it sends, the stream parts it gets back,
and the errors it can see. Only `model-client.ts` knows which library streams; everything else in
`src/agent/` speaks these types.
*/
import type {JsonValue} from '../json/json-value.js';
import type {ImageAttachment} from '../tools/content.js';
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

/** An image the person attached (or a tool returned), with its bytes read from the session's attachments. */
export type UserImage = {readonly attachment: ImageAttachment; readonly data: Uint8Array};

/** A message of the conversation sent with every request (the system prompt travels apart). */
export type ConversationMessage =
	| {readonly role: 'user'; readonly text: string; readonly images?: readonly UserImage[]}
	| {readonly role: 'assistant'; readonly content: readonly AssistantPart[]}
	| {readonly role: 'tool'; readonly callId: string; readonly name: string; readonly text: string; readonly isError: boolean; readonly images?: readonly UserImage[]};

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

/**
Why the model stopped: `tool-calls`, `stop`, `length` (max tokens), `content-filter` (a refusal, a
filter or a safety block), `error`, `other`. A `finish` part also carries the provider's own
reason (`raw`: `refusal`, `SAFETY`, `MALFORMED_FUNCTION_CALL`, `content_filter`, …) and what it said
about it (`detail`: Anthropic's refusal explanation, Gemini's finish message or prompt block reason).
*/
export type ModelFinishReason = 'tool-calls' | 'stop' | 'length' | 'content-filter' | 'error' | 'other';

/**
What went wrong with a model call (`model-errors.ts` decides): worth another attempt (`rate-limit`,
`overloaded`, `server`, `network`, `stall`), or not (`quota`, `auth`, `context-overflow` — the
conversation outgrew the model's window —, `invalid-request`, `other`).
*/
export type ModelErrorKind = 'rate-limit' | 'overloaded' | 'server' | 'network' | 'stall' | 'quota' | 'auth' | 'context-overflow' | 'invalid-request' | 'other';

/** A failure of a model call, classified for the retry rule. */
export type ModelError = {
	/** The line a person reads: the provider's message, and its error code or type when that adds something. */
	readonly message: string;
	readonly kind: ModelErrorKind;
	/** HTTP status when the server answered. */
	readonly status?: number;
	/** The provider's error type and code, as it sent them. */
	readonly type?: string;
	readonly code?: string;
	/** Whether another attempt may succeed (by `kind`). */
	readonly retryable: boolean;
	/** How long the provider asked to wait, in ms (`Retry-After`, Gemini's RetryInfo), when it said. */
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
	| {readonly type: 'finish'; readonly reason: ModelFinishReason; readonly usage: ModelUsage; readonly raw?: string; readonly detail?: string}
	| {readonly type: 'error'; readonly error: ModelError};

/** One request: one step of a turn. */
type ModelRequest = {
	readonly system: string;
	readonly messages: readonly ConversationMessage[];
	readonly tools: readonly ToolSchema[];
	/** Aborted by a cancel, or by the loop when the stream stalls: the stream then ends without an error part. */
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
	/** The variable its API key is read from (`OPENAI_API_KEY`, a config's `apiKeyEnv`): a refused key's advice names it. */
	readonly keyVariable?: string;
	stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
	/** Load what the first request needs (the model library) ahead of it; a failure is the first request's to report. */
	preload?(): Promise<unknown>;
};
