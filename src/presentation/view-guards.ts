/**
@module Wire guards for views. Presenters of tools cardterm does not ship (plugins, other producers'
hosts) can return anything; a view is used only when its payload is well formed, otherwise it is
treated as absent and the card falls back to its generic form (contract.md §E1.3).
*/
import {isJsonObject} from '../json/is-plain-record.js';
import type {ContentBlock} from '../tools/content.js';
import type {FileDiff, FileLocation, ReadFileLine, SearchFileMatches, ToolCallKind, ToolCallView, ToolResultView, WebSource} from '../tools/views.js';

const callKinds = new Set<ToolCallKind>(['read', 'edit', 'delete', 'move', 'search', 'execute', 'fetch', 'other']);

type Fields = Record<string, unknown>;


const isString = (value: unknown): value is string => typeof value === 'string';
const isOptionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isLineNumber = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1;

function isArrayOf<T>(value: unknown, item: (entry: unknown) => entry is T): value is T[] {
	return Array.isArray(value) && value.every(entry => item(entry));
}

/** A content block we can draw: known blocks are checked, unknown `type`s pass (drawn as placeholders). */
function isContentBlock(value: unknown): value is ContentBlock {
	if (!isJsonObject(value) || !isString(value.type)) {
		return false;
	}

	if (value.type === 'text' || value.type === 'reasoning') {
		return isString(value.text);
	}

	return true;
}

export function isContentBlocks(value: unknown): value is ContentBlock[] {
	return isArrayOf(value, isContentBlock);
}

function isFileLocation(value: unknown): value is FileLocation {
	return isJsonObject(value) && isString(value.path) && (value.line === undefined || isLineNumber(value.line));
}

function isFileDiff(value: unknown): value is FileDiff {
	return isJsonObject(value) && isString(value.path) && (value.oldText === null || isString(value.oldText)) && isString(value.newText);
}

function isReadLine(value: unknown): value is ReadFileLine {
	return isJsonObject(value) && isLineNumber(value.number) && isString(value.text);
}

function isFileMatches(value: unknown): value is SearchFileMatches {
	return isJsonObject(value) && isString(value.path)
		&& isArrayOf(value.matches, (match): match is SearchFileMatches['matches'][number] => isJsonObject(match) && isLineNumber(match.lineNumber) && isString(match.line));
}

function isWebSource(value: unknown): value is WebSource {
	return isJsonObject(value) && isString(value.url) && isOptionalString(value.title) && isOptionalString(value.snippet) && isOptionalString(value.publishedAt);
}

/** `value` as a call view, or undefined when it is not a well-formed one. */
export function asCallView(value: unknown): ToolCallView | undefined {
	if (!isJsonObject(value) || !isString(value.title)) {
		return undefined;
	}

	switch (value.card) {
		case 'generic': {
			const ok = (value.kind === undefined || callKinds.has(value.kind as ToolCallKind))
				&& (value.content === undefined || isContentBlocks(value.content))
				&& (value.locations === undefined || isArrayOf(value.locations, isFileLocation));
			return ok ? value as ToolCallView : undefined;
		}

		case 'terminal': {
			return isOptionalString(value.description) && isOptionalString(value.cwd) ? value as ToolCallView : undefined;
		}

		case 'diff': {
			const ok = isArrayOf(value.diffs, isFileDiff) && value.diffs.length > 0
				&& (value.locations === undefined || isArrayOf(value.locations, isFileLocation));
			return ok ? value as ToolCallView : undefined;
		}

		default: {
			return undefined;
		}
	}
}

/** `value` as a result view, or undefined when it is not a well-formed one (unknown card, shape or kind included). */
export function asResultView(value: unknown): ToolResultView | undefined {
	if (!isJsonObject(value) || !isOptionalString(value.title)) {
		return undefined;
	}

	return isWellFormedResult(value) ? value as ToolResultView : undefined;
}

function isWellFormedResult(value: Fields): boolean {
	switch (value.card) {
		case 'generic': {
			return value.content === undefined || isContentBlocks(value.content);
		}

		case 'terminal': {
			const exit = value.exitCode === undefined || Number.isSafeInteger(value.exitCode);
			return isOptionalString(value.output) && exit && isOptionalString(value.signal) && !(value.exitCode !== undefined && value.signal !== undefined);
		}

		case 'diff': {
			return isArrayOf(value.diffs, isFileDiff) && value.diffs.length > 0;
		}

		case 'search': {
			if (typeof value.truncated !== 'boolean' || !isCount(value.total)) {
				return false;
			}

			if (value.shape === 'matches') {
				return isArrayOf(value.files, isFileMatches);
			}

			return value.shape === 'paths' && isArrayOf(value.paths, isString);
		}

		case 'read': {
			if (!isString(value.path) || !isLineNumber(value.offset) || !isCount(value.totalLines) || !isArrayOf(value.lines, isReadLine)) {
				return false;
			}

			return isOptionalString(value.lang) && (value.content === undefined || isContentBlocks(value.content));
		}

		case 'web': {
			if (typeof value.truncated !== 'boolean') {
				return false;
			}

			if (value.kind === 'search') {
				return isArrayOf(value.sources, isWebSource) && isOptionalString(value.answer);
			}

			return value.kind === 'fetch' && isString(value.url) && Number.isSafeInteger(value.statusCode);
		}

		default: {
			return false;
		}
	}
}
