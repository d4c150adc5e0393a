/**
@module The payload check of each event arm (`events.ts`), done once by the reader (and by the log
writer, so a live event is what a replay reads): past it, every field an arm declares has its type.

Two kinds of field. One the arm needs (a call's `callId`, a step's `turn`): when it is missing or of
another kind the line is malformed and skipped, and the problem names the first bad field. One the
readers have always taken when present and passed over otherwise (a message's `turn`, its `source`,
a chunk's `step`): one of another kind is left out of the payload — a copy, made only then — so the
event still shows what it can, as before the check moved here.
*/
import {isJsonObject} from '../../json/is-plain-record.js';

type Fields = Record<string, unknown>;
type Kind = (value: unknown) => boolean;

/** The first problem with an envelope's optional fields (`seq`, `time` and `data` are the caller's), or `undefined`. */
export function checkEnvelope(value: Fields): string | undefined {
	const {surfaceOp, sourceEventSeqs, ignorable} = value;
	if (surfaceOp !== undefined && surfaceOp !== 'append' && !(isJsonObject(surfaceOp) && surfaceOp.op === 'replace' && isSeq(surfaceOp.start) && isSeq(surfaceOp.end))) {
		return 'invalid "surfaceOp" (must be "append" or {"op": "replace", "start", "end"} with seqs)';
	}

	if (sourceEventSeqs !== undefined && !(Array.isArray(sourceEventSeqs) && sourceEventSeqs.every(isSeq))) {
		return 'invalid "sourceEventSeqs" (must be an array of seqs)';
	}

	return ignorable === undefined || typeof ignorable === 'boolean' ? undefined : 'invalid "ignorable" (must be true or false)';
}

/** `data` as `type`'s arm declares it (itself, or a copy without fields of the wrong kind), or the first problem. Types without an arm pass as they are. */
export function checkEventData(type: string, data: Fields): Fields | string {
	switch (type) {
		case 'turn/start':
			return integer(data, 'turn') ?? data;
		case 'turn/end':
			return integer(data, 'turn') ?? optionalReason(data) ?? data;
		case 'step/start':
		case 'step/end':
			return integer(data, 'turn') ?? integer(data, 'step') ?? data;
		case 'tool/call':
			return optionalInteger(data, 'turn') ?? optionalInteger(data, 'step') ?? string(data, 'callId') ?? string(data, 'name') ?? string(data, 'arguments') ?? data;
		case 'tool/result':
			return optionalInteger(data, 'turn') ?? optionalInteger(data, 'step') ?? toolResultMessage(data.message) ?? optionalError(data.error) ?? data;
		case 'tool/code-dispatch-start':
			return codeDispatch(data) ?? withRootCallId(data);
		case 'tool/code-dispatch':
			return codeDispatch(data) ?? boolean(data, 'isError') ?? array(data, 'content') ?? withRootCallId(data);
		case 'todo/write':
			return todos(data.todos) ?? data;
		case 'approval/asked':
			return string(data, 'id') ?? string(data, 'toolName') ?? optionalString(data, 'callId') ?? optionalString(data, 'reason') ?? data;
		case 'approval/decided':
			return string(data, 'id') ?? string(data, 'outcome') ?? kept(data, APPROVAL_DECIDED);
		case 'assistant/chunk':
			return isJsonObject(data.chunk) && typeof data.chunk.type === 'string' ? kept(data, STREAM_PLACE) : '"chunk" must be an object with a string "type"';
		case 'assistant/message':
			return assistantMessage(data);
		case 'user/message':
		case 'steering/message':
			return withBlocks(kept(data, USER_MESSAGE));
		case 'cardterm/tool-progress':
			return kept(data, TOOL_PROGRESS);
		case 'session/title':
			return kept(data, TITLE);
		case 'llm/retry':
			return kept(data, TURN);
		case 'compaction/start':
			return kept(data, COMPACTION_START);
		case 'compaction/prune':
			return kept(data, COMPACTION_PRUNE);
		case 'compaction/summary':
			return kept(data, COMPACTION_SUMMARY);
		case 'compaction/end':
			return kept(data, COMPACTION_END);
		default:
			// Other types carry payloads read field by field, if at all.
			return data;
	}
}

const isInteger: Kind = value => Number.isSafeInteger(value);
const isSeq: Kind = value => Number.isSafeInteger(value) && (value as number) >= 0;
const isString: Kind = value => typeof value === 'string';
const isBoolean: Kind = value => typeof value === 'boolean';

/** A message's content: text, or an array of blocks (its other items are left out: `withBlocks`). */
const isContent: Kind = value => typeof value === 'string' || Array.isArray(value);

const TURN: ReadonlyArray<[string, Kind]> = [['turn', isInteger]];
const STREAM_PLACE: ReadonlyArray<[string, Kind]> = [['turn', isInteger], ['step', isInteger]];
const USER_MESSAGE: ReadonlyArray<[string, Kind]> = [['content', isContent], ['source', isJsonObject], ['turn', isInteger]];
const ASSISTANT_MESSAGE: ReadonlyArray<[string, Kind]> = [['turn', isInteger], ['step', isInteger], ['message', isJsonObject], ['usage', isJsonObject], ['interrupted', isBoolean]];
const MESSAGE_BODY: ReadonlyArray<[string, Kind]> = [['content', isContent]];
const TOOL_PROGRESS: ReadonlyArray<[string, Kind]> = [['callId', isString], ['stream', isString], ['text', isString]];
const TITLE: ReadonlyArray<[string, Kind]> = [['title', isString]];
const isCount: Kind = value => Number.isSafeInteger(value) && (value as number) >= 0;
const isRange: Kind = value => isJsonObject(value) && isSeq(value.start) && isSeq(value.end);
const isSeqs: Kind = value => Array.isArray(value) && value.every(isSeq);
const isTurnOrNull: Kind = value => value === null || Number.isSafeInteger(value);
// Compaction payloads differ between producers (and their versions): a field is read only when of its kind.
const COMPACTION_START: ReadonlyArray<[string, Kind]> = [['compactionId', isString], ['turn', isTurnOrNull], ['trigger', isString]];
const COMPACTION_PRUNE: ReadonlyArray<[string, Kind]> = [['shadowedRange', isRange], ['shadowedSeqs', isSeqs], ['shadowedTokenCount', isCount]];
const COMPACTION_FACTS: ReadonlyArray<[string, Kind]> = [
	['compactionId', isString], ['trigger', isString], ['tokensBefore', isCount], ['tokensAfter', isCount], ['prunedCount', isCount], ['prunedTokens', isCount],
	['prunedRange', isRange], ['focus', isString], ['evidence', isJsonObject], ['note', isString],
];
const COMPACTION_SUMMARY: ReadonlyArray<[string, Kind]> = [...COMPACTION_PRUNE, ...COMPACTION_FACTS, ['summary', isContent], ['provider', isString], ['model', isString]];
const COMPACTION_END: ReadonlyArray<[string, Kind]> = [...COMPACTION_FACTS, ['turn', isTurnOrNull], ['error', isString]];
const APPROVAL_DECIDED: ReadonlyArray<[string, Kind]> = [['standing', isBoolean], ['feedback', isString]];

/** `data` without its `fields` of the wrong kind: itself when none is. */
function kept(data: Fields, fields: ReadonlyArray<[string, Kind]>): Fields {
	let wrong: string[] | undefined;
	for (const [key, kind] of fields) {
		const value = data[key];
		if (value !== undefined && !kind(value)) {
			(wrong ??= []).push(key);
		}
	}

	return wrong === undefined ? data : withoutKeys(data, wrong);
}

/** A message's fields with only the items of its `content` that are blocks (objects with a string `type`): itself when all are. */
function withBlocks(message: Fields): Fields {
	const {content} = message;
	return !Array.isArray(content) || content.every(isBlock) ? message : {...message, content: content.filter(isBlock)};
}

function assistantMessage(data: Fields): Fields {
	const checked = kept(data, ASSISTANT_MESSAGE);
	if (!isJsonObject(checked.message)) {
		return checked;
	}

	const message = withBlocks(kept(checked.message, MESSAGE_BODY));
	return message === checked.message ? checked : {...checked, message};
}

function isBlock(value: unknown): boolean {
	return isJsonObject(value) && typeof value.type === 'string';
}

function withoutKeys(data: Fields, keys: readonly string[]): Fields {
	const copy: Fields = {};
	for (const key of Object.keys(data)) {
		if (!keys.includes(key)) {
			copy[key] = data[key];
		}
	}

	return copy;
}

function integer(data: Fields, key: string): string | undefined {
	return Number.isSafeInteger(data[key]) ? undefined : `"${key}" must be an integer`;
}

function optionalInteger(data: Fields, key: string): string | undefined {
	return data[key] === undefined ? undefined : integer(data, key);
}

function string(data: Fields, key: string): string | undefined {
	return typeof data[key] === 'string' ? undefined : `"${key}" must be a string`;
}

function optionalString(data: Fields, key: string): string | undefined {
	return data[key] === undefined ? undefined : string(data, key);
}

function boolean(data: Fields, key: string): string | undefined {
	return typeof data[key] === 'boolean' ? undefined : `"${key}" must be a boolean`;
}

function array(data: Fields, key: string): string | undefined {
	return Array.isArray(data[key]) ? undefined : `"${key}" must be an array`;
}

function optionalReason(data: Fields): string | undefined {
	const reason = data.reason;
	if (reason === undefined || (isJsonObject(reason) && typeof reason.kind === 'string')) {
		return undefined;
	}

	return '"reason" must be an object with a string "kind"';
}

function optionalError(error: unknown): string | undefined {
	if (error === undefined || (isJsonObject(error) && typeof error.name === 'string' && typeof error.code === 'string')) {
		return undefined;
	}

	return '"error" must be {name, code} with string fields';
}

function toolResultMessage(message: unknown): string | undefined {
	if (!isJsonObject(message)) {
		return '"message" must be an object';
	}

	if (!isJsonObject(message.source) || typeof message.source.callId !== 'string') {
		return '"message.source.callId" must be a string';
	}

	if (!Array.isArray(message.content)) {
		return '"message.content" must be an array';
	}

	for (const [index, block] of message.content.entries()) {
		if (!isJsonObject(block) || block.type !== 'tool-result') {
			return `"message.content[${index}]" must be a tool-result block`;
		}

		if (typeof block.toolCallId !== 'string' || !Array.isArray(block.content) || typeof block.isError !== 'boolean') {
			return `"message.content[${index}]" needs a string toolCallId, a content array and a boolean isError`;
		}
	}

	return undefined;
}

function codeDispatch(data: Fields): string | undefined {
	return optionalString(data, 'rootCallId') ?? string(data, 'parentCallId') ?? string(data, 'subCallId') ?? string(data, 'name');
}

/** Older logs have no `rootCallId`: the one nesting level their producers had makes it the `parentCallId`. */
function withRootCallId(data: Fields): Fields {
	return data.rootCallId === undefined ? {...data, rootCallId: data.parentCallId} : data;
}

const TODO_STATUSES = new Set(['pending', 'in_progress', 'completed']);

function todos(value: unknown): string | undefined {
	if (!Array.isArray(value)) {
		return '"todos" must be an array';
	}

	for (const [index, item] of value.entries()) {
		if (!isJsonObject(item) || typeof item.content !== 'string' || typeof item.status !== 'string' || !TODO_STATUSES.has(item.status)) {
			return `"todos[${index}]" must be {content, status} with status pending, in_progress or completed`;
		}
	}

	return undefined;
}
