/**
@module What the non-tool events say, read once into entry fields: a message's text, a turn's end
reason worded for a person, a notice's one-line summary. The payloads are as their arms declare
(`events.ts`); what is open-ended in them (content blocks, a reason's details, a notice's fields) is
read here, and `undefined` means there is nothing a person would read.
*/
import {isJsonObject} from '../../json/is-plain-record.js';
import type {NoticeEntry, TurnOutcome, Usage} from '../../presentation/entry.js';
import {isReferenceBlock} from '../../presentation/prompt-reference.js';
import type {ImageAttachment} from '../../tools/content.js';
import type {AssistantMessageData, EventFields, TurnEndData, UserMessageData} from '../events/events.js';
import {attachmentOf, imageAttachments} from './image-blocks.js';

type Fields = EventFields;
const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** Characters a one-row field keeps (a row shows far fewer; the rest of a log's huge value is noise). */
export const ONE_ROW_CHARS = 500;

/** A value for a one-row field: its first line, cut to `ONE_ROW_CHARS`. */
export function oneRow(text: string): string {
	const newline = text.indexOf('\n');
	const line = newline === -1 ? text : text.slice(0, newline);
	return line.length > ONE_ROW_CHARS ? `${line.slice(0, ONE_ROW_CHARS)}…` : line;
}

/** Content blocks as text: text joined by blank lines, images as `[image W×H name]`, other blocks as `[type]`. */
export function contentText(content: unknown, only?: 'text' | 'reasoning'): string {
	if (typeof content === 'string') {
		return content;
	}

	if (!Array.isArray(content)) {
		return '';
	}

	const parts: string[] = [];
	for (const block of content) {
		if (!isJsonObject(block) || typeof block.type !== 'string') {
			continue;
		}

		if (only !== undefined) {
			if (block.type === only && typeof block.text === 'string') {
				parts.push(block.text);
			}

			continue;
		}

		if (block.type === 'text' && typeof block.text === 'string') {
			parts.push(block.text);
		} else if (block.type === 'image') {
			parts.push(imagePlaceholder(block));
		} else if (block.type !== 'reasoning' && block.type !== 'tool-call' && block.type !== 'tool-result') {
			parts.push(`[${block.type}]`);
		}
	}

	return parts.join('\n\n');
}

function imagePlaceholder(block: Fields): string {
	const attachment = isJsonObject(block.attachment) ? block.attachment : block;
	const size = Number.isSafeInteger(attachment.width) && Number.isSafeInteger(attachment.height) ? ` ${attachment.width as number}×${attachment.height as number}` : '';
	const name = typeof attachment.name === 'string' ? ` ${attachment.name}` : '';
	return `[image${size}${name}]`;
}

/**
What the model reads of a message (the person's, a note, a tool's result): its text — with what the
person's `@` references attached — and its attached images as parts of their own (an image without a
readable reference stays a placeholder in the text).
*/
export function userMessageFacts(content: unknown): {readonly text: string; readonly images: readonly ImageAttachment[]} {
	const images = imageAttachments(content);
	return {text: contentText(images.length === 0 || !Array.isArray(content) ? content : (content as unknown[]).filter(block => attachmentOf(block) === undefined)), images};
}

/** What the person's message shows: the same, but the text its `@` references attached (their rows say what that was). */
export function shownUserMessage(content: unknown): {readonly text: string; readonly images: readonly ImageAttachment[]} {
	return userMessageFacts(Array.isArray(content) ? content.filter(block => !isReferenceBlock(block)) : content);
}

/** Who sent a `user/message`: the person, a plugin (injected context: a notice), or something else. */
export function userMessageSource(data: UserMessageData): {readonly kind: 'user'} | {readonly kind: 'notice'; readonly source: string} {
	const {source} = data;
	const kind = typeof source?.kind === 'string' ? source.kind : 'user';
	if (kind === 'user') {
		return {kind: 'user'};
	}

	const name = typeof source?.plugin === 'string' ? source.plugin : (typeof source?.name === 'string' ? source.name : kind);
	return {kind: 'notice', source: name};
}

/** The text and reasoning of an `assistant/message`, and whether its stream was cut. */
export function assistantFacts(data: AssistantMessageData): {readonly text: string; readonly reasoning: string; readonly interrupted: boolean; readonly usage?: Usage} {
	const content = data.message?.content;
	const usage = usageOf(data.usage);
	return {
		text: contentText(content, 'text'),
		reasoning: contentText(content, 'reasoning'),
		interrupted: data.interrupted === true,
		...(usage === undefined ? {} : {usage}),
	};
}

/** Token usage, when `value` has any. */
export function usageOf(value: Fields | undefined): Usage | undefined {
	if (value === undefined) {
		return undefined;
	}

	const count = (field: unknown): number => (Number.isSafeInteger(field) && (field as number) > 0 ? field as number : 0);
	const inputTokens = count(value.inputTokens);
	const outputTokens = count(value.outputTokens);
	const reasoningTokens = count(value.reasoningTokens);
	const cacheReadTokens = count(value.cacheReadTokens);
	const cacheWriteTokens = count(value.cacheWriteTokens);
	if (inputTokens === 0 && outputTokens === 0 && reasoningTokens === 0 && cacheReadTokens === 0 && cacheWriteTokens === 0) {
		return undefined;
	}

	return {inputTokens, outputTokens, ...(reasoningTokens === 0 ? {} : {reasoningTokens}), ...(cacheReadTokens === 0 ? {} : {cacheReadTokens}), ...(cacheWriteTokens === 0 ? {} : {cacheWriteTokens})};
}

/** The one summing rule for usage: a turn's end and the status line while it runs both add steps with it. */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
	if (a === undefined || b === undefined) {
		return a ?? b;
	}

	const reasoningTokens = (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0);
	const cacheReadTokens = (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0);
	const cacheWriteTokens = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
	return {
		inputTokens: a.inputTokens + b.inputTokens,
		outputTokens: a.outputTokens + b.outputTokens,
		...(reasoningTokens === 0 ? {} : {reasoningTokens}),
		...(cacheReadTokens === 0 ? {} : {cacheReadTokens}),
		...(cacheWriteTokens === 0 ? {} : {cacheWriteTokens}),
	};
}

/** What an `llm/retry` says: which attempt comes, of how many, after how long, and why. */
export function retryFacts(fields: Fields): {readonly attempt?: number; readonly maxAttempts?: number; readonly delayMs?: number; readonly reason?: string} {
	const int = (value: unknown): number | undefined => (Number.isSafeInteger(value) && (value as number) >= 0 ? value as number : undefined);
	const attempt = int(fields.attempt);
	const maxAttempts = int(fields.maxAttempts);
	const delayMs = int(fields.delayMs);
	const reason = firstText(fields, ['reason', 'message']) ?? (isJsonObject(fields.error) ? firstText(fields.error, ['message', 'code']) : undefined);
	return {...(attempt === undefined ? {} : {attempt}), ...(maxAttempts === undefined ? {} : {maxAttempts}), ...(delayMs === undefined ? {} : {delayMs}), ...(reason === undefined ? {} : {reason})};
}

const abortedBy: Readonly<Record<string, string>> = {
	user: 'cancelled by you',
	parent: 'cancelled by the parent agent',
	hook: 'stopped by a hook',
	disposed: 'stopped: the session closed',
	legacy: 'cancelled',
};

/**
Characters of a turn's end reason kept: a provider's whole error (the agent keeps 2 000 of it,
`error-facts.ts`) with room for what cardterm adds; a log's huge value is cut with `…`.
*/
export const REASON_CHARS = 4000;

/** A reason as one paragraph: every line of it (a person reads why the turn ended, not its first line), bounded. */
function reasonText(text: string): string {
	const bounded = text.length > REASON_CHARS * 2 ? text.slice(0, REASON_CHARS * 2) : text;
	const line = bounded.replace(/\s+/g, ' ').trim();
	return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS)}…` : line;
}

/** A `turn/end` reason, worded for a person (contract.md §E3.2). */
export function turnOutcome(reason: TurnEndData['reason']): TurnOutcome {
	const kind = reason === undefined ? 'completed' : oneRow(reason.kind);
	switch (kind) {
		case 'completed': {
			return {text: 'completed', failed: false};
		}

		case 'aborted': {
			const by = isJsonObject(reason?.reason) && typeof reason.reason.kind === 'string' ? reason.reason.kind : 'legacy';
			return {text: abortedBy[by] ?? `cancelled (${oneRow(by)})`, failed: false};
		}

		case 'blocked': {
			const why = reason === undefined ? undefined : firstText(reason, ['message', 'reason', 'detail']);
			return {text: why === undefined ? 'blocked' : `blocked: ${reasonText(why)}`, failed: true};
		}

		case 'error': {
			const error = isJsonObject(reason?.error) ? reason.error : undefined;
			const message = error === undefined ? undefined : firstText(error, ['message', 'code']);
			const status = error !== undefined && Number.isSafeInteger(error.status) && (error.status as number) >= 100 && (error.status as number) <= 599 ? ` (HTTP ${error.status as number})` : '';
			const advice = error === undefined ? undefined : firstText(error, ['advice']);
			return {text: message === undefined ? `error${status}` : `error${status}: ${reasonText(message)}`, failed: true, ...(advice === undefined ? {} : {advice: reasonText(advice)})};
		}

		case 'max-tokens': {
			const why = reason === undefined ? undefined : firstText(reason, ['message']);
			return {text: why === undefined ? 'max tokens' : `max tokens: ${reasonText(why)}`, failed: true};
		}

		case 'interrupted': {
			return {text: 'interrupted (crash)', failed: true};
		}

		default: {
			return {text: kind, failed: false};
		}
	}
}

/** The event types that are notices, and how each reads. */
const NOTICE_TYPES = new Set([
	'session/title', 'llm/retry', 'hook/result', 'goal/change', 'plan/mode', 'sandbox/mode', 'approval/policy',
	'permission/preset', 'command/run', 'command/done', 'subagent/descriptor',
]);

/** Whether events of `type` are notices (besides plugin messages). */
export function isNoticeType(type: string): boolean {
	return NOTICE_TYPES.has(type) || type.startsWith('compaction/') || type.startsWith('tool-workflow/');
}

/**
The notice an event makes: a known notice type worded from its fields, or an unknown type that
carries readable text (`text`, `message`, `summary`). `undefined`: nothing to show.
*/
export function noticeFacts(type: string, fields: Fields): Pick<NoticeEntry, 'source' | 'summary' | 'detail'> | undefined {
	if (!isNoticeType(type)) {
		const text = firstText(fields, ['text', 'message', 'summary']);
		return text === undefined ? undefined : withDetail(type, text);
	}

	switch (type) {
		case 'session/title': {
			return isText(fields.title) ? {source: 'title', summary: fields.title} : undefined;
		}

		case 'llm/retry': {
			const retry = retryFacts(fields);
			const attempt = retry.attempt === undefined ? '' : ` (attempt ${retry.attempt})`;
			return {source: type, summary: `retrying the model${attempt}${retry.reason === undefined ? '' : `: ${retry.reason}`}`};
		}

		case 'hook/result': {
			const point = firstText(fields, ['point']) ?? 'hook';
			const decision = firstText(fields, ['decision']);
			const exit = Number.isSafeInteger(fields.exitCode) ? ` (exit ${fields.exitCode as number})` : '';
			const said = firstText(fields, ['stderrSummary', 'message', 'reason']);
			return {source: type, summary: `hook ${point}${decision === undefined ? '' : `: ${decision}`}${exit}${said === undefined ? '' : ` — ${said}`}`};
		}

		case 'permission/preset': {
			// cardterm's mode changes (Shift+Tab, /mode) carry their label; an older producer's presets read as their fields.
			const label = firstText(fields, ['label']);
			const by = firstText(fields, ['by']);
			return label === undefined ? {source: type, summary: `${type}${scalarSummary(fields)}`} : {source: 'mode', summary: `mode: ${label}${by === 'key' ? ' (Shift+Tab)' : by === 'command' ? ' (/mode)' : ''}`};
		}

		case 'subagent/descriptor': {
			// A child session's first event: what the parent delegated to it.
			const label = firstText(fields, ['label', 'name', 'description']);
			const how = [firstText(fields, ['mode']), firstText(fields, ['provider'])].filter(part => part !== undefined).join(', ');
			return {source: 'subagent', summary: `${label ?? 'subagent'}${how === '' ? '' : ` (${how})`}`};
		}

		default: {
			return {source: type, summary: `${type}${scalarSummary(fields)}`};
		}
	}
}

function withDetail(source: string, text: string): Pick<NoticeEntry, 'source' | 'summary' | 'detail'> {
	const trimmed = text.trim();
	const summary = oneRow(trimmed);
	// The whole text is the detail when the summary does not hold it all.
	return summary === trimmed ? {source, summary} : {source, summary, detail: trimmed};
}

/** A plugin's injected message as a notice: its first line, the whole text as detail. */
export function pluginNotice(source: string, data: UserMessageData): Pick<NoticeEntry, 'source' | 'summary' | 'detail'> | undefined {
	const text = contentText(data.content);
	return text.trim() === '' ? undefined : withDetail(source, text);
}

function firstText(fields: Fields, keys: readonly string[]): string | undefined {
	for (const key of keys) {
		const value = fields[key];
		if (isText(value)) {
			return value;
		}
	}

	return undefined;
}

/** ` · key value, …` of a payload's short scalar fields (ids left out), for notices without a wording of their own. */
function scalarSummary(fields: Fields): string {
	const parts: string[] = [];
	for (const [key, value] of Object.entries(fields)) {
		if (parts.length === 4) {
			break;
		}

		if (/id$/i.test(key) || key === 'seq' || key === 'turn' || key === 'step') {
			continue;
		}

		if ((typeof value === 'string' && value.length <= 80 && value !== '') || typeof value === 'number' || typeof value === 'boolean') {
			parts.push(`${key} ${String(value)}`);
		}
	}

	return parts.length === 0 ? '' : ` · ${parts.join(', ')}`;
}
