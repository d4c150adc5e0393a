/**
@module The cards of another agent's tool calls, as its reader records them: the card each call is
(its `ToolCallView`) in the call's arguments, and the card it ended as (its `ToolResultView`) in the
result's `meta`, next to the text the agent recorded. `foreign-presenter.ts` reads them back (the
`<format>:<tool>` names), so a replay draws them as any card: a shell command as a terminal with its
exit, an edit as a diff with hunks, a read as a read window, a search as matches or paths.

The outcome rule reads the log, never the view (card-outcome.ts): a command's exit is the contract's
marker at the end of its text (`[exit code: N]`), a cancel is the `ABORTED` error code, a refusal is
an approval answered `rejected`.
*/
import {isJsonObject} from '../../json/is-plain-record.js';
import type {FileDiff, SearchFileMatches, ToolCallView, ToolResultView} from '../../tools/views.js';

/** A call as a foreign reader records it. */
export type ForeignToolCall = {
	readonly id: string;
	/** The agent's own tool name. */
	readonly name: string;
	/** The agent's arguments, as it recorded them. */
	readonly input?: unknown;
	/** The MCP server of an MCP call. */
	readonly server?: string;
	readonly view: ToolCallView;
};

/** A result as a foreign reader records it. */
export type ForeignToolResult = {
	readonly id: string;
	/** What the agent recorded (and the model saw), with a terminal's exit marker. */
	readonly text: string;
	readonly isError: boolean;
	/** `ABORTED`: cancelled. */
	readonly code?: 'ABORTED';
	readonly view?: ToolResultView;
	/** A fetch's HTTP status: the outcome rule reads `meta.statusCode` (≥ 400: failed). */
	readonly statusCode?: number;
};

/** The contract's exit marker at the end of a command's text (contract.md §E2.1). */
export function withExitMarker(output: string, exitCode: number | undefined): string {
	return exitCode === undefined || exitCode === 0 ? output : `${output.replace(/\n+$/, '')}\n[exit code: ${exitCode}]`;
}

/** A command's result: its text with the exit marker, and its terminal card. */
export function terminalResult(id: string, output: string, exitCode: number | undefined): ForeignToolResult {
	return {id, text: withExitMarker(output, exitCode), isError: false, view: {card: 'terminal', output, ...(exitCode === undefined ? {} : {exitCode})}};
}

/** A read window from a file's text, numbered from `offset`. */
export function readView(path: string, text: string, offset = 1, totalLines?: number): ToolResultView {
	const lines = text.replace(/\n$/, '').split('\n').map((line, index) => ({number: offset + index, text: line}));
	return {card: 'read', path, offset, lines, totalLines: totalLines ?? offset - 1 + lines.length};
}

/** `path:line:text` lines (grep -n, ripgrep) as search matches; lines that are not are left out. */
export function grepMatchesView(text: string): ToolResultView | undefined {
	const files = new Map<string, Array<{lineNumber: number; line: string}>>();
	let total = 0;
	for (const line of text.split('\n')) {
		const match = /^(.+?):(\d+)[:-](.*)$/.exec(line);
		if (match === null) {
			continue;
		}

		const [, path, number, rest] = match;
		const list = files.get(path!) ?? [];
		list.push({lineNumber: Number(number), line: rest!});
		files.set(path!, list);
		total++;
	}

	if (total === 0) {
		return undefined;
	}

	const matches: SearchFileMatches[] = [...files].map(([path, list]) => ({path, matches: list}));
	return {card: 'search', shape: 'matches', files: matches, truncated: false, total};
}

/** A list of paths as a search card. */
export function pathsView(paths: readonly string[], total = paths.length): ToolResultView {
	return {card: 'search', shape: 'paths', paths: [...paths], truncated: total > paths.length, total};
}

/**
The hunks of a unified diff (`@@ -a,b +c,d @@` and its ` `/`-`/`+` lines) as the diff card's
`FileDiff`s, one per hunk: the old side its context and removed lines, the new side its context and
added lines. `path` labels them; file headers (`---`, `+++`, `Index:`) are skipped.
*/
export function unifiedDiffHunks(path: string, diff: string): FileDiff[] {
	const hunks: FileDiff[] = [];
	let current: {oldStart: number; newStart: number; old: string[]; new: string[]} | undefined;
	const close = (): void => {
		if (current !== undefined) {
			hunks.push({path, oldText: current.old.length === 0 ? null : current.old.join('\n'), newText: current.new.join('\n'), oldStart: current.oldStart, newStart: current.newStart});
		}
	};

	for (const line of diff.split('\n')) {
		const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
		if (header !== null) {
			close();
			current = {oldStart: Number(header[1]), newStart: Number(header[2]), old: [], new: []};
			continue;
		}

		if (current === undefined || line.startsWith('---') || line.startsWith('+++')) {
			continue;
		}

		const marker = line[0];
		const text = line.slice(1);
		if (marker === ' ') {
			current.old.push(text);
			current.new.push(text);
		} else if (marker === '-') {
			current.old.push(text);
		} else if (marker === '+') {
			current.new.push(text);
		}
	}

	close();
	return hunks;
}

/** A whole new file as a diff. */
export function newFileDiff(path: string, content: string): FileDiff {
	return {path, oldText: null, newText: content};
}

/** A file path shown relative to the session's folder when it lies inside it. */
export function shownPath(path: string, cwd: string | undefined): string {
	if (cwd !== undefined && path.startsWith(`${cwd.replace(/\/$/, '')}/`)) {
		return path.slice(cwd.replace(/\/$/, '').length + 1);
	}

	return path;
}

/** The pending card of an edit: each replacement the call asks for. */
export function editCallView(path: string, edits: ReadonlyArray<{readonly oldText: string; readonly newText: string}>): ToolCallView {
	return {card: 'diff', title: `Edit ${path}`, diffs: edits.map(edit => ({path, oldText: edit.oldText, newText: edit.newText})), locations: [{path}]};
}

/** The pending card of a write: the whole new text. */
export function writeCallView(path: string, content: string): ToolCallView {
	return {card: 'diff', title: `Write ${path}`, diffs: [newFileDiff(path, content)], locations: [{path}]};
}

/** The pending card of a search: `Grep hello in src`. */
export function searchCallView(verb: string, pattern: string, where?: string): ToolCallView {
	return genericCall(`${verb} ${pattern}${where === undefined || where === '' ? '' : ` in ${where}`}`, undefined, 'search');
}

/** A generic card for a call this reader does not draw otherwise: its name and its arguments. */
export function genericCall(title: string, input: unknown, kind: 'read' | 'edit' | 'search' | 'execute' | 'fetch' | 'other' = 'other'): ToolCallView {
	const empty = input === undefined || input === null || (typeof input === 'object' && Object.keys(input).length === 0);
	return {card: 'generic', title, kind, ...(empty ? {} : {rawInput: input})};
}

/** Text of a value the agent recorded: a string as it is, anything else as JSON. */
export function textOf(value: unknown): string {
	if (typeof value === 'string') {
		return value;
	}

	if (value === undefined || value === null) {
		return '';
	}

	return JSON.stringify(value, null, 2);
}

/** A string field of an object, `undefined` when it is not one. */
export function stringField(value: unknown, key: string): string | undefined {
	const field = fieldsOf(value)[key];
	return typeof field === 'string' ? field : undefined;
}

/** An object's fields, or an empty record. */
export function fieldsOf(value: unknown): Readonly<Record<string, unknown>> {
	return isJsonObject(value) ? value : {};
}
