/**
@module An ACP tool call as the client knows it so far. ACP sends a call as `tool_call` and then
partial `tool_call_update`s: a field an update carries replaces the one before (`content` and
`locations` are lists replaced whole), a field it leaves out (or sends as `null`) stays. Agents'
payloads are narrowed here field by field, never trusted whole.
*/
import {isJsonObject} from '../json/is-plain-record.js';

type Fields = Record<string, unknown>;

/** One item of a call's `content`, narrowed: text of a content block, a diff, or a terminal reference. */
export type AcpContentItem =
	| {readonly type: 'text'; readonly text: string}
	| {readonly type: 'diff'; readonly path: string; readonly oldText: string | null; readonly newText: string}
	| {readonly type: 'terminal'; readonly terminalId: string}
	| {readonly type: 'other'; readonly label: string};

export type AcpLocation = {readonly path: string; readonly line?: number};

/** Output of a command the card shows as a terminal: ours (`terminal/*`) or the agent's `_meta` extension. */
export type AcpTerminalOutput = {readonly output: string; readonly exitCode?: number; readonly signal?: string; readonly truncated?: boolean};

/** The merged state of one call. */
export type AcpToolCallState = {
	readonly toolCallId: string;
	readonly title: string;
	readonly kind: string;
	readonly status: string;
	readonly rawInput?: unknown;
	readonly rawOutput?: unknown;
	readonly content: readonly AcpContentItem[];
	readonly locations: readonly AcpLocation[];
	/** `_meta` of the latest update that had one (agent extensions; kept, not interpreted beyond the terminal keys). */
	readonly meta?: Fields;
};

/** The text of an ACP content block (`text`, or a placeholder naming another block type). */
export function contentBlockText(block: unknown): AcpContentItem | undefined {
	if (!isJsonObject(block)) {
		return undefined;
	}

	if (block.type === 'text' && typeof block.text === 'string') {
		return {type: 'text', text: block.text};
	}

	if (block.type === 'resource_link' && typeof block.uri === 'string') {
		return {type: 'other', label: `[resource ${block.uri}]`};
	}

	if (block.type === 'resource' && isJsonObject(block.resource)) {
		return typeof block.resource.text === 'string' ? {type: 'text', text: block.resource.text} : {type: 'other', label: `[resource ${String(block.resource.uri ?? '')}]`};
	}

	return {type: 'other', label: `[${typeof block.type === 'string' ? block.type : 'content'}]`};
}

function contentItem(item: unknown): AcpContentItem | undefined {
	if (!isJsonObject(item)) {
		return undefined;
	}

	switch (item.type) {
		case 'content': {
			return contentBlockText(item.content);
		}

		case 'diff': {
			if (typeof item.path !== 'string' || typeof item.newText !== 'string') {
				return undefined;
			}

			// A new file's diff comes with oldText absent, null or "": all mean no before-image.
			const oldText = typeof item.oldText === 'string' && item.oldText !== '' ? item.oldText : null;
			return {type: 'diff', path: item.path, oldText, newText: item.newText};
		}

		case 'terminal': {
			return typeof item.terminalId === 'string' ? {type: 'terminal', terminalId: item.terminalId} : undefined;
		}

		default: {
			return undefined;
		}
	}
}

function contentList(value: unknown): AcpContentItem[] | undefined {
	if (!Array.isArray(value)) {
		return undefined;
	}

	const items: AcpContentItem[] = [];
	for (const item of value) {
		const narrowed = contentItem(item);
		if (narrowed !== undefined) {
			items.push(narrowed);
		}
	}

	return items;
}

function locationList(value: unknown): AcpLocation[] | undefined {
	if (!Array.isArray(value)) {
		return undefined;
	}

	const locations: AcpLocation[] = [];
	for (const item of value) {
		if (isJsonObject(item) && typeof item.path === 'string') {
			locations.push(Number.isSafeInteger(item.line) && (item.line as number) >= 1 ? {path: item.path, line: item.line as number} : {path: item.path});
		}
	}

	return locations;
}

const text = (value: unknown): string | undefined => typeof value === 'string' ? value : undefined;

/** A call first seen in `update` (a `tool_call`, or an update or permission request for an unknown id). */
export function newToolCall(toolCallId: string, update: Fields): AcpToolCallState {
	return mergeToolCall({toolCallId, title: '', kind: 'other', status: 'pending', content: [], locations: []}, update);
}

/** `state` patched by the fields `update` carries. */
export function mergeToolCall(state: AcpToolCallState, update: Fields): AcpToolCallState {
	const content = contentList(update.content);
	const locations = locationList(update.locations);
	return {
		toolCallId: state.toolCallId,
		title: text(update.title) ?? state.title,
		kind: text(update.kind) ?? state.kind,
		status: text(update.status) ?? state.status,
		...(update.rawInput === undefined || update.rawInput === null ? (state.rawInput === undefined ? {} : {rawInput: state.rawInput}) : {rawInput: update.rawInput}),
		...(update.rawOutput === undefined || update.rawOutput === null ? (state.rawOutput === undefined ? {} : {rawOutput: state.rawOutput}) : {rawOutput: update.rawOutput}),
		content: content ?? state.content,
		locations: locations ?? state.locations,
		...(isJsonObject(update._meta) ? {meta: {...state.meta, ...update._meta}} : (state.meta === undefined ? {} : {meta: state.meta})),
	};
}

/** Whether a status ends the call. */
export function isFinalStatus(status: string): boolean {
	return status === 'completed' || status === 'failed';
}

/** The text items of a call's content, joined. */
export function contentText(content: readonly AcpContentItem[]): string {
	const parts: string[] = [];
	for (const item of content) {
		if (item.type === 'text') {
			parts.push(item.text);
		} else if (item.type === 'other') {
			parts.push(item.label);
		}
	}

	return parts.join('\n');
}

/** The terminal ids a call's content names. */
export function terminalIds(content: readonly AcpContentItem[]): string[] {
	const ids: string[] = [];
	for (const item of content) {
		if (item.type === 'terminal') {
			ids.push(item.terminalId);
		}
	}

	return ids;
}

/**
Output an agent put in Zed's `_meta.terminal_output` / `_meta.terminal_exit` extension (pi-acp does,
for a terminal the client never created); `undefined` when there is none.
*/
export function metaTerminalOutput(meta: Fields | undefined): AcpTerminalOutput | undefined {
	const output = isJsonObject(meta?.terminal_output) ? meta.terminal_output : undefined;
	const exit = isJsonObject(meta?.terminal_exit) ? meta.terminal_exit : undefined;
	if (output === undefined && exit === undefined) {
		return undefined;
	}

	return {
		output: typeof output?.data === 'string' ? output.data : '',
		...(typeof exit?.signal === 'string' && exit.signal !== '' ? {signal: exit.signal} : Number.isSafeInteger(exit?.exit_code) ? {exitCode: exit!.exit_code as number} : {}),
	};
}
