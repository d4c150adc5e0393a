/**
@module Payload checks for the event types the card layer consumes, so that every event the reader
yields has the shape `events.ts` declares and the fold never meets a wrong-typed field. A failed
check names the first bad field; the line is then reported as malformed and skipped.
*/
import {isPlainRecord} from '../json/is-plain-record.js';

type Record_ = Record<string, unknown>;

/** Returns the first problem with `data` for `type`, or `undefined` when it is well-formed. */
export function checkEventData(type: string, data: Record_): string | undefined {
	switch (type) {
		case 'turn/start':
			return integer(data, 'turn');
		case 'turn/end':
			return integer(data, 'turn') ?? optionalReason(data);
		case 'step/start':
		case 'step/end':
			return integer(data, 'turn') ?? integer(data, 'step');
		case 'tool/call':
			return optionalInteger(data, 'turn') ?? optionalInteger(data, 'step') ?? string(data, 'callId') ?? string(data, 'name') ?? string(data, 'arguments');
		case 'tool/result':
			return optionalInteger(data, 'turn') ?? optionalInteger(data, 'step') ?? toolResultMessage(data.message) ?? optionalError(data.error);
		case 'tool/code-dispatch-start':
			return codeDispatch(data);
		case 'tool/code-dispatch':
			return codeDispatch(data) ?? boolean(data, 'isError') ?? array(data, 'content');
		case 'todo/write':
			return todos(data.todos);
		case 'approval/asked':
			return string(data, 'id') ?? string(data, 'toolName') ?? optionalString(data, 'callId') ?? optionalString(data, 'reason');
		case 'approval/decided':
			return string(data, 'id') ?? string(data, 'outcome');
		case 'assistant/chunk':
			return isPlainRecord(data.chunk) && typeof data.chunk.type === 'string' ? undefined : '"chunk" must be an object with a string "type"';
		default:
			// Other types carry payloads the card layer does not read.
			return undefined;
	}
}

function integer(data: Record_, key: string): string | undefined {
	return Number.isSafeInteger(data[key]) ? undefined : `"${key}" must be an integer`;
}

function optionalInteger(data: Record_, key: string): string | undefined {
	return data[key] === undefined ? undefined : integer(data, key);
}

function string(data: Record_, key: string): string | undefined {
	return typeof data[key] === 'string' ? undefined : `"${key}" must be a string`;
}

function optionalString(data: Record_, key: string): string | undefined {
	return data[key] === undefined ? undefined : string(data, key);
}

function boolean(data: Record_, key: string): string | undefined {
	return typeof data[key] === 'boolean' ? undefined : `"${key}" must be a boolean`;
}

function array(data: Record_, key: string): string | undefined {
	return Array.isArray(data[key]) ? undefined : `"${key}" must be an array`;
}

function optionalReason(data: Record_): string | undefined {
	const reason = data.reason;
	if (reason === undefined || (isPlainRecord(reason) && typeof reason.kind === 'string')) {
		return undefined;
	}

	return '"reason" must be an object with a string "kind"';
}

function optionalError(error: unknown): string | undefined {
	if (error === undefined || (isPlainRecord(error) && typeof error.name === 'string' && typeof error.code === 'string')) {
		return undefined;
	}

	return '"error" must be {name, code} with string fields';
}

function toolResultMessage(message: unknown): string | undefined {
	if (!isPlainRecord(message)) {
		return '"message" must be an object';
	}

	if (!isPlainRecord(message.source) || typeof message.source.callId !== 'string') {
		return '"message.source.callId" must be a string';
	}

	if (!Array.isArray(message.content)) {
		return '"message.content" must be an array';
	}

	for (const [index, block] of message.content.entries()) {
		if (!isPlainRecord(block) || block.type !== 'tool-result') {
			return `"message.content[${index}]" must be a tool-result block`;
		}

		if (typeof block.toolCallId !== 'string' || !Array.isArray(block.content) || typeof block.isError !== 'boolean') {
			return `"message.content[${index}]" needs a string toolCallId, a content array and a boolean isError`;
		}
	}

	return undefined;
}

function codeDispatch(data: Record_): string | undefined {
	return optionalString(data, 'rootCallId') ?? string(data, 'parentCallId') ?? string(data, 'subCallId') ?? string(data, 'name');
}

const TODO_STATUSES = new Set(['pending', 'in_progress', 'completed']);

function todos(value: unknown): string | undefined {
	if (!Array.isArray(value)) {
		return '"todos" must be an array';
	}

	for (const [index, item] of value.entries()) {
		if (!isPlainRecord(item) || typeof item.content !== 'string' || typeof item.status !== 'string' || !TODO_STATUSES.has(item.status)) {
			return `"todos[${index}]" must be {content, status} with status pending, in_progress or completed`;
		}
	}

	return undefined;
}
