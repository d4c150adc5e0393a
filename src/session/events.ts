/**
@module Session events and the log header (presentation-events.md §3). Events are the only input of
the UI: a live session produces exactly what its log records, and replay reads it back.
*/
import type {ContentBlock} from '../tools/content.js';

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

/** Envelope shared by every event. */
export type EventEnvelope<Type extends string, Data> = {
	readonly type: Type;
	readonly seq: number;
	readonly time: number;
	readonly data: Data;
	/** A reader may skip an unknown type only when this is set. */
	readonly ignorable?: true;
	readonly surfaceOp?: 'append' | {readonly op: 'replace'; readonly start: number; readonly end: number};
	readonly sourceEventSeqs?: readonly number[];
};

/** The `tool-result` block inside a `tool/result` message. */
export type ToolResultBlock = {
	readonly type: 'tool-result';
	readonly toolCallId: string;
	readonly content: readonly ContentBlock[];
	readonly isError: boolean;
};

export type TurnStartEvent = EventEnvelope<'turn/start', {readonly turn: number}>;
export type TurnEndEvent = EventEnvelope<'turn/end', {readonly turn: number; readonly reason?: {readonly kind: string; readonly [key: string]: unknown}}>;
export type StepStartEvent = EventEnvelope<'step/start', {readonly turn: number; readonly step: number}>;
export type StepEndEvent = EventEnvelope<'step/end', {readonly turn: number; readonly step: number}>;

/** A call starts: creates a pending card. `arguments` is the raw JSON string. */
export type ToolCallEvent = EventEnvelope<'tool/call', {
	readonly turn?: number;
	readonly step?: number;
	readonly callId: string;
	readonly name: string;
	readonly arguments: string;
}>;

/** A call settles: completes its card. */
export type ToolResultEvent = EventEnvelope<'tool/result', {
	readonly turn?: number;
	readonly step?: number;
	readonly message: {
		readonly id?: string;
		readonly role: 'user';
		readonly source: {readonly kind: 'tool'; readonly callId: string};
		readonly content: readonly ToolResultBlock[];
	};
	readonly error?: {readonly name: string; readonly code: string};
	readonly meta?: unknown;
}>;

type CodeDispatchData = {
	readonly rootCallId: string;
	readonly parentCallId: string;
	readonly subCallId: string;
	readonly name: string;
	readonly arguments: unknown;
};

/** A Code Mode sub-call started. */
export type CodeDispatchStartEvent = EventEnvelope<'tool/code-dispatch-start', CodeDispatchData>;
/** A Code Mode sub-call settled (always follows its start). */
export type CodeDispatchEvent = EventEnvelope<'tool/code-dispatch', CodeDispatchData & {readonly isError: boolean; readonly content: readonly ContentBlock[]}>;

/** A todo item. */
export type TodoItem = {readonly content: string; readonly status: 'pending' | 'in_progress' | 'completed'};
export type TodoWriteEvent = EventEnvelope<'todo/write', {readonly todos: readonly TodoItem[]}>;

export type ApprovalAskedEvent = EventEnvelope<'approval/asked', {readonly id: string; readonly toolName: string; readonly callId?: string; readonly reason?: string}>;
export type ApprovalDecidedEvent = EventEnvelope<'approval/decided', {readonly id: string; readonly outcome: string}>;

/** cardterm extension: live output of a running call. Ignorable; replay never needs it. */
export type ToolProgressEvent = EventEnvelope<'cardterm/tool-progress', {
	readonly callId: string;
	readonly stream: 'stdout' | 'stderr';
	readonly text: string;
}> & {readonly ignorable: true};

/** Title of the session, when a producer sets one. */
export type SessionTitleEvent = EventEnvelope<'session/title', {readonly title: string; readonly [key: string]: unknown}>;

/** The events the card layer understands. */
export type KnownEvent =
	| TurnStartEvent
	| TurnEndEvent
	| StepStartEvent
	| StepEndEvent
	| ToolCallEvent
	| ToolResultEvent
	| CodeDispatchStartEvent
	| CodeDispatchEvent
	| TodoWriteEvent
	| ApprovalAskedEvent
	| ApprovalDecidedEvent
	| ToolProgressEvent
	| SessionTitleEvent;

/** Any well-enveloped event, known or not (`user/message`, `assistant/message`, `request/header`, …). */
export type SessionEvent = KnownEvent | EventEnvelope<string, unknown>;
