/**
@module The fields of tool events that pairing and cards need, read once from an event's `data`.
Each reader returns the facts, or a string saying why the event cannot be used.
Older producers' shapes are normalised by the reader (`event-decoder.ts`) before they get here.
*/
import {isContentBlocks} from '../presentation/view-guards.js';
import type {ContentBlock} from '../tools/content.js';

type Fields = Record<string, unknown>;
const isRecord = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isInt = (value: unknown): value is number => Number.isSafeInteger(value);

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
export type ApprovalAskedFacts = {readonly id: string; readonly callId?: string; readonly reason?: string};
export type ApprovalDecidedFacts = {readonly id: string; readonly outcome: string};

export function callFacts(data: unknown): CallFacts | string {
	if (!isRecord(data) || typeof data.callId !== 'string' || typeof data.name !== 'string' || typeof data.arguments !== 'string') {
		return 'tool/call needs string callId, name and arguments';
	}

	// Fields are added, not spread in: a spread of objects of several shapes is a slow generic copy.
	const facts: Mutable<CallFacts> = {callId: data.callId, name: data.name, argsRaw: data.arguments};
	if (isInt(data.turn)) {
		facts.turn = data.turn;
	}

	if (isInt(data.step)) {
		facts.step = data.step;
	}

	return facts;
}

/** The result a `tool/result` carries. */
export function resultFacts(data: unknown): ResultFacts | string {
	if (!isRecord(data) || !isRecord(data.message)) {
		return 'tool/result without a message';
	}

	const error = isRecord(data.error) && typeof data.error.name === 'string' && typeof data.error.code === 'string'
		? {name: data.error.name, code: data.error.code}
		: undefined;
	const hasMeta = Object.prototype.hasOwnProperty.call(data, 'meta');
	const {message} = data;
	const block = Array.isArray(message.content) ? message.content.find(item => isRecord(item) && item.type === 'tool-result') as Fields | undefined : undefined;
	const source = isRecord(message.source) ? message.source : undefined;
	const callId = typeof source?.callId === 'string' ? source.callId : (typeof block?.toolCallId === 'string' ? block.toolCallId : undefined);
	if (callId === undefined) {
		return 'tool/result without a callId (message.source.callId or a tool-result block)';
	}

	if (block === undefined || !isContentBlocks(block.content)) {
		return `tool/result for ${callId} has no tool-result block with content blocks`;
	}

	const facts: Mutable<ResultFacts> = {callId, content: block.content, isError: block.isError === true, hasMeta};
	if (error !== undefined) {
		facts.error = error;
	}

	if (hasMeta) {
		facts.meta = data.meta;
	}

	return facts;
}

export function childStartFacts(data: unknown): ChildStartFacts | string {
	if (!isRecord(data) || typeof data.parentCallId !== 'string' || typeof data.subCallId !== 'string' || typeof data.name !== 'string') {
		return 'code dispatch needs string parentCallId, subCallId and name';
	}

	return {parentCallId: data.parentCallId, subCallId: data.subCallId, name: data.name, argsRaw: safeStringify(data.arguments)};
}

export function childSettleFacts(data: unknown): ChildSettleFacts | string {
	if (!isRecord(data) || typeof data.subCallId !== 'string' || typeof data.isError !== 'boolean' || !isContentBlocks(data.content)) {
		return 'code dispatch settle needs subCallId, boolean isError and content blocks';
	}

	return {subCallId: data.subCallId, content: data.content, isError: data.isError};
}

export function approvalAskedFacts(data: unknown): ApprovalAskedFacts | string {
	if (!isRecord(data) || typeof data.id !== 'string') {
		return 'approval/asked without a string id';
	}

	return {
		id: data.id,
		...(typeof data.callId === 'string' ? {callId: data.callId} : {}),
		...(typeof data.reason === 'string' ? {reason: data.reason} : {}),
	};
}

export function approvalDecidedFacts(data: unknown): ApprovalDecidedFacts | string {
	if (!isRecord(data) || typeof data.id !== 'string' || typeof data.outcome !== 'string') {
		return 'approval/decided without string id and outcome';
	}

	return {id: data.id, outcome: data.outcome};
}

export function progressFacts(data: unknown): {readonly callId: string; readonly text: string} | undefined {
	return isRecord(data) && typeof data.callId === 'string' && typeof data.text === 'string' ? {callId: data.callId, text: data.text} : undefined;
}

/** The tool calls an `assistant/message` names, in order. */
export function announcedCalls(data: unknown): Array<{readonly id: string; readonly name: string; readonly argsRaw: string}> {
	if (!isRecord(data) || !isRecord(data.message) || !Array.isArray(data.message.content)) {
		return [];
	}

	const calls: Array<{id: string; name: string; argsRaw: string}> = [];
	for (const block of data.message.content) {
		if (isRecord(block) && block.type === 'tool-call' && typeof block.id === 'string' && typeof block.name === 'string') {
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
