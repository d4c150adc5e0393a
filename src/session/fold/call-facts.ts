/**
@module The facts of tool events that pairing and cards need, read from payloads the reader checked
(`event-shape.ts`): what is left to decide is whether a result's content is content blocks. A
reader returns the facts, or a string saying why the event cannot be used.
*/
import {isContentBlocks} from '../../presentation/view-guards.js';
import type {ContentBlock} from '../../tools/content.js';
import type {CodeDispatchData, CodeDispatchStartData, MessageContent, ToolCallData, ToolResultData} from '../events/events.js';

export type CallFacts = {
	readonly callId: string;
	readonly name: string;
	readonly argsRaw: string;
	readonly turn?: number;
	readonly step?: number;
};

export type ResultFacts = {
	readonly callId: string;
	readonly content: readonly ContentBlock[];
	readonly isError: boolean;
	readonly error?: {readonly name: string; readonly code: string};
	readonly meta?: unknown;
	/** Whether the result carried `meta` at all (an explicit `undefined`/`null` differs from none). */
	readonly hasMeta: boolean;
};

export type ChildStartFacts = {readonly parentCallId: string; readonly subCallId: string; readonly name: string; readonly argsRaw: string};
export type ChildSettleFacts = {readonly subCallId: string; readonly content: readonly ContentBlock[]; readonly isError: boolean};

export function callFacts(data: ToolCallData): CallFacts {
	// Fields are added, not spread in: a spread of objects of several shapes is a slow generic copy.
	const facts: Mutable<CallFacts> = {callId: data.callId, name: data.name, argsRaw: data.arguments};
	if (data.turn !== undefined) {
		facts.turn = data.turn;
	}

	if (data.step !== undefined) {
		facts.step = data.step;
	}

	return facts;
}

/** The result a `tool/result` carries. */
export function resultFacts(data: ToolResultData): ResultFacts | string {
	const {message, error} = data;
	const callId = message.source.callId;
	const block = message.content[0];
	if (block === undefined || !isContentBlocks(block.content)) {
		return `tool/result for ${callId} has no tool-result block with content blocks`;
	}

	const hasMeta = Object.prototype.hasOwnProperty.call(data, 'meta');
	const facts: Mutable<ResultFacts> = {callId, content: block.content, isError: block.isError, hasMeta};
	if (error !== undefined) {
		facts.error = {name: error.name, code: error.code};
	}

	if (hasMeta) {
		facts.meta = data.meta;
	}

	return facts;
}

export function childStartFacts(data: CodeDispatchStartData): ChildStartFacts {
	return {parentCallId: data.parentCallId, subCallId: data.subCallId, name: data.name, argsRaw: safeStringify(data.arguments)};
}

export function childSettleFacts(data: CodeDispatchData): ChildSettleFacts | string {
	if (!isContentBlocks(data.content)) {
		return 'code dispatch settle needs content blocks';
	}

	return {subCallId: data.subCallId, content: data.content, isError: data.isError};
}

/** The tool calls a message's content names, in order. */
export function announcedCalls(content: MessageContent | undefined): Array<{readonly id: string; readonly name: string; readonly argsRaw: string}> {
	if (content === undefined || typeof content === 'string') {
		return [];
	}

	const calls: Array<{id: string; name: string; argsRaw: string}> = [];
	for (const block of content) {
		if (block.type === 'tool-call' && typeof block.id === 'string' && typeof block.name === 'string') {
			calls.push({id: block.id, name: block.name, argsRaw: typeof block.arguments === 'string' ? block.arguments : safeStringify(block.arguments)});
		}
	}

	return calls;
}

export function safeStringify(value: unknown): string {
	try {
		return JSON.stringify(value) ?? '';
	} catch {
		return '';
	}
}

type Mutable<T> = {-readonly [K in keyof T]: T[K]};
