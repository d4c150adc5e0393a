/**
@module The evidence a compaction keeps, generated from the log's calls and results rather than
asked of the model (which forgets paths, commands and numbers first): files read, files changed with
their `+`/`−` line counts, commands run with their exit codes, failing tests seen. It accumulates
across compactions: each one adds what it pruned or summarised to what the ones before it kept.
*/
import {isJsonObject} from '../json/is-plain-record.js';
import {diffPackage} from '../presentation/diff-package.js';
import type {EventFields} from '../session/events/events.js';
import {evidenceRows} from '../session/fold/compaction-facts.js';
import type {SurfaceItem} from './conversation.js';

export type Evidence = {
	readonly filesRead: readonly string[];
	/** `path` → lines added and removed. */
	readonly filesChanged: ReadonlyArray<{readonly path: string; readonly added: number; readonly removed: number}>;
	readonly commands: ReadonlyArray<{readonly command: string; readonly exitCode: number | null}>;
	readonly failingTests: readonly string[];
};

export const NO_EVIDENCE: Evidence = {filesRead: [], filesChanged: [], commands: [], failingTests: []};

/** Items per list: the newest are kept (a summary that lists a thousand commands helps nobody). */
const LIST_MAX = 40;
const COMMAND_MAX_CHARS = 200;
/** A test runner's line for a failing test: vitest/jest `FAIL`, mocha/tap `not ok`, pytest `FAILED`, `✗`/`✕`/`×`. */
const FAILING_TEST = /^\s*(?:FAIL(?:ED)?\b|not ok\b|[✗✕×]\s)\s*(.{1,200})$/;

/** What `items` (a compaction's pruned or summarised message events) add to `before`. */
export function gatherEvidence(before: Evidence, items: readonly SurfaceItem[]): Evidence {
	const calls = new Map<string, {readonly name: string; readonly args: EventFields}>();
	for (const item of items) {
		for (const message of item.messages) {
			if (message.role !== 'assistant') {
				continue;
			}

			for (const part of message.content) {
				if (part.type === 'tool-call') {
					calls.set(part.id, {name: part.name, args: parseArgs(part.arguments)});
				}
			}
		}
	}

	const filesRead = [...before.filesRead];
	const changed = new Map(before.filesChanged.map(file => [file.path, file]));
	const commands = [...before.commands];
	const failing = [...before.failingTests];
	for (const item of items) {
		const {result} = item;
		const call = result === undefined ? undefined : calls.get(result.callId);
		if (result === undefined || call === undefined || result.isError) {
			continue;
		}

		const path = typeof call.args.file_path === 'string' ? call.args.file_path : undefined;
		switch (call.name) {
			case 'read': {
				if (path !== undefined) {
					addUnique(filesRead, path);
				}

				break;
			}

			case 'edit':
			case 'write': {
				if (path !== undefined) {
					const counts = lineCounts(result.meta);
					const was = changed.get(path);
					changed.delete(path);
					changed.set(path, {path, added: (was?.added ?? 0) + counts.added, removed: (was?.removed ?? 0) + counts.removed});
				}

				break;
			}

			case 'bash': {
				if (typeof call.args.command === 'string') {
					const meta = isJsonObject(result.meta) ? result.meta : {};
					commands.push({command: call.args.command.slice(0, COMMAND_MAX_CHARS), exitCode: typeof meta.exitCode === 'number' ? meta.exitCode : null});
				}

				if (!result.pruned) {
					for (const message of item.messages) {
						if (message.role === 'tool') {
							failingTests(message.text, failing);
						}
					}
				}

				break;
			}

			default: {
				break;
			}
		}
	}

	return {filesRead: newest(filesRead), filesChanged: newest([...changed.values()]), commands: newest(commands), failingTests: newest(failing)};
}

/** The evidence as the log records it (`compaction/summary`'s `evidence`), and back. */
export function evidenceFields(evidence: Evidence): EventFields {
	return {filesRead: evidence.filesRead, filesChanged: evidence.filesChanged, commands: evidence.commands, failingTests: evidence.failingTests};
}

/** Evidence a log recorded (fields of the wrong kind are left out). */
export function evidenceOf(fields: unknown): Evidence {
	if (!isJsonObject(fields)) {
		return NO_EVIDENCE;
	}

	const strings = (value: unknown): string[] => Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
	const records = (value: unknown): EventFields[] => Array.isArray(value) ? value.filter(item => isJsonObject(item)) : [];
	return {
		filesRead: strings(fields.filesRead),
		filesChanged: records(fields.filesChanged).filter(file => typeof file.path === 'string').map(file => ({path: file.path as string, added: count(file.added), removed: count(file.removed)})),
		commands: records(fields.commands).filter(command => typeof command.command === 'string').map(command => ({command: command.command as string, exitCode: typeof command.exitCode === 'number' ? command.exitCode : null})),
		failingTests: strings(fields.failingTests),
	};
}

/** The evidence as text for the model (in the checkpoint), worded as the card words it. */
export function evidenceLines(evidence: Evidence): string[] {
	return evidenceRows(evidenceFields(evidence));
}

function failingTests(text: string, into: string[]): void {
	let found = 0;
	for (const line of text.split('\n')) {
		const match = FAILING_TEST.exec(line);
		if (match !== null && found < 10) {
			found++;
			addUnique(into, match[1]!.trim());
		}
	}
}

/** Lines added and removed by an edit's or write's applied hunks (`meta.diffs`). */
function lineCounts(meta: unknown): {added: number; removed: number} {
	let added = 0;
	let removed = 0;
	const diffs = isJsonObject(meta) && Array.isArray(meta.diffs) ? meta.diffs : [];
	for (const diff of diffs) {
		if (!isJsonObject(diff)) {
			continue;
		}

		const before = typeof diff.oldText === 'string' ? diff.oldText : '';
		const after = typeof diff.newText === 'string' ? diff.newText : '';
		for (const change of diffPackage().diffLines(before, after)) {
			if (change.added) {
				added += change.count;
			} else if (change.removed) {
				removed += change.count;
			}
		}
	}

	return {added, removed};
}

function parseArgs(raw: string): EventFields {
	try {
		const value: unknown = JSON.parse(raw);
		return isJsonObject(value) ? value : {};
	} catch {
		return {};
	}
}

function addUnique(list: string[], item: string): void {
	const at = list.indexOf(item);
	if (at !== -1) {
		list.splice(at, 1);
	}

	list.push(item);
}

function newest<T>(list: readonly T[]): T[] {
	return list.slice(-LIST_MAX);
}

function count(value: unknown): number {
	return Number.isSafeInteger(value) && (value as number) >= 0 ? value as number : 0;
}
