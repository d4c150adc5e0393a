/**
@module The pure projections of `read`: argument rules the schema cannot express, the model text,
the persisted `meta`, and the call and result presenters (contract.md §E2.3).
*/
import type {JsonValue} from '../../json/json-value.js';
import {langFromPath} from '../../presentation/lang-from-path.js';
import type {ContentBlock} from '../../tools/content.js';
import {ToolArgsError} from '../../tools/errors.js';
import type {GenericCallView, ReadFileLine, ReadResultView, ToolResult} from '../../tools/views.js';
import {formatReadEnvelope, readEnvelopeBody, readMetaFromEnvelope, readMetaFromMeta} from './read-window.js';

/** `read` arguments as the schema admits them. */
export type ReadArgs = {readonly file_path: string; readonly offset?: number; readonly limit?: number};

/** `read`'s canonical value. `path` is the absolute display path. */
export type ReadValue = {readonly path: string; readonly offset: number; readonly lines: readonly ReadFileLine[]; readonly totalLines: number};

/** Validated `read` input with defaults applied. */
export type ReadInput = {readonly filePath: string; readonly offset: number; readonly limit: number};

function isPositiveInteger(value: number): boolean {
	return Number.isInteger(value) && value >= 1;
}

/** Apply defaults and the rules the schema cannot express; throws `ToolArgsError` (`INVALID_ARGS`). */
export function parseReadArgs(args: ReadArgs, readLimit: number): ReadInput {
	const violations: string[] = [];
	if (args.file_path.trim() === '') {
		violations.push('"file_path" must not be blank');
	}

	if (args.offset !== undefined && !isPositiveInteger(args.offset)) {
		violations.push('"offset" must be a positive integer');
	}

	if (args.limit !== undefined && !isPositiveInteger(args.limit)) {
		violations.push('"limit" must be a positive integer');
	} else if (args.limit !== undefined && args.limit > readLimit) {
		violations.push(`"limit" must be at most ${readLimit}`);
	}

	if (violations.length > 0) {
		throw new ToolArgsError(violations);
	}

	return {filePath: args.file_path, offset: args.offset ?? 1, limit: args.limit ?? readLimit};
}

/**
The model text. Whether the byte cap stopped the window is derived: fewer lines than the limit while
the file goes on can only mean the cap.
*/
export function renderRead(args: ReadArgs, value: ReadValue, readLimit: number): ContentBlock[] {
	const limit = args.limit ?? readLimit;
	const last = value.lines.at(-1)?.number ?? Math.max(0, value.offset - 1);
	const cappedByBytes = value.lines.length < limit && last < value.totalLines;
	return [{type: 'text', text: formatReadEnvelope({...value, cappedByBytes})}];
}

/** The persisted `meta`: the window plus the `lang` hint when the extension has one. */
export function readPresentationMeta(value: ReadValue): JsonValue {
	const lang = langFromPath(value.path);
	const lines = value.lines.map((line) => ({number: line.number, text: line.text}));
	const meta = {path: value.path, offset: value.offset, lines, totalLines: value.totalLines};
	return lang === undefined ? meta : {...meta, lang};
}

/** Pending card: `Read <file_path>` plus the requested window. */
export function presentReadCall(args: ReadArgs): GenericCallView {
	const {offset, limit} = args;
	const start = offset ?? 1;
	let window = '';
	if (limit !== undefined && limit > 0) {
		window = ` (${start} - ${start + limit - 1})`;
	} else if (offset !== undefined) {
		window = ` (from line ${offset})`;
	}

	return {card: 'generic', title: `Read ${args.file_path}${window}`, kind: 'read', locations: [{path: args.file_path, line: start}]};
}

/**
Completed card: the read window from `meta` — or, for logs whose results carry none, from the
envelope text itself — with the envelope body as fallback text; declines on anything unexpected.
*/
export function presentReadResult(_args: ReadArgs, result: ToolResult): ReadResultView | undefined {
	if (result.isError) {
		return undefined;
	}

	const only = result.content.length === 1 ? result.content[0] : undefined;
	if (only?.type !== 'text') {
		return undefined;
	}

	// Malformed meta declines; only a result without any reads its window from the text.
	const meta = result.meta === undefined ? readMetaFromEnvelope(only.text) : readMetaFromMeta(result.meta);
	if (meta === undefined) {
		return undefined;
	}

	const body = readEnvelopeBody(only.text);
	if (body === undefined) {
		return undefined;
	}

	const view: ReadResultView = {card: 'read', path: meta.path, offset: meta.offset, lines: meta.lines, totalLines: meta.totalLines};
	return {...view, ...(meta.lang === undefined ? {} : {lang: meta.lang}), content: [{type: 'text', text: body}]};
}
