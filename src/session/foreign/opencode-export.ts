/**
@module opencode's session export (`opencode export <session id>`, what people save and share): one
JSON document `{info, messages}` — the session (`id`, `directory`, `title`, `version`, `time`), then
each message as `{info, parts}`. A user message's parts are its text (`synthetic` ones are what
opencode added: file contents, reminders); an assistant message's are `reasoning`, `text`, `tool`
(with its `state`: `pending`, `running`, `completed` with `output` and `metadata`, or `error`) and
`step-finish` (usage); its `info` has the tokens, the `finish` reason and an `error` (the person's
abort is `MessageAbortedError`). opencode 1.x keeps sessions in SQLite: the export is the file form.
The document is read whole (foreign-log-lines.ts), its session and messages handed here as records.
Read from files opencode 1.18.33 wrote (test/fixtures/foreign-sessions/opencode/).
*/
import type {ToolCallView, ToolResultView} from '../../tools/views.js';
import {ContractLines, timeOf} from './contract-lines.js';
import type {ForeignReader} from './foreign-reader.js';
import {editCallView, fieldsOf, genericCall, newFileDiff, pathsView, readView, searchCallView, shownPath, stringField, terminalResult, textOf, unifiedDiffHunks, writeCallView, type ForeignToolResult} from './foreign-views.js';

type Fields = Readonly<Record<string, unknown>>;

/** The newest major version of opencode whose exports cardterm has read. */
const KNOWN_MAJOR = 1;

/** The error texts of a call opencode's permission rules or the person refused (its `DeniedError`, `RejectedError`). */
const REFUSED = /^The user (?:has specified a rule which prevents you from using|rejected permission to use) this specific tool call/;

/** Whether a record is the whole export (a one-line document, or a document read whole). */
export function isOpencodeExport(value: Fields): boolean {
	const info = fieldsOf(value.info);
	return Array.isArray(value.messages) && typeof info.id === 'string' && info.id.startsWith('ses') && typeof info.directory === 'string';
}

/** The export's records in order: its session, then each message. */
export function opencodeRecords(value: Fields): Fields[] {
	const messages = Array.isArray(value.messages) ? value.messages.map(message => fieldsOf(message)) : [];
	return [{session: fieldsOf(value.info)}, ...messages];
}

export class OpencodeExport implements ForeignReader {
	readonly lines = new ContractLines('opencode', 'opencode');
	#cwd: string | undefined;

	record(value: Fields): void {
		if (isOpencodeExport(value)) {
			// A document saved on one line: its records, each read as if it had a line of its own.
			for (const record of opencodeRecords(value)) {
				this.record(record);
			}

			return;
		}

		if (value.session !== undefined) {
			const session = fieldsOf(value.session);
			this.#cwd = stringField(session, 'directory');
			const time = fieldsOf(session.time);
			this.lines.at(timeOf(time.created));
			this.lines.learn({id: stringField(session, 'id'), createdAt: timeOf(time.created), cwd: this.#cwd, title: stringField(session, 'title'), version: stringField(session, 'version')});
			this.lines.writeHeader();
			const major = Number(/^(\d+)\./.exec(textOf(session.version))?.[1]);
			if (major > KNOWN_MAJOR) {
				this.lines.notice('version', `opencode ${textOf(session.version)} is newer than the versions cardterm has read (up to ${KNOWN_MAJOR}.x); what could be read is shown`);
			}

			return;
		}

		const info = fieldsOf(value.info);
		this.lines.at(timeOf(fieldsOf(info.time).created));
		const parts = Array.isArray(value.parts) ? value.parts.map(part => fieldsOf(part)) : [];
		switch (info.role) {
			case 'user': {
				this.lines.user(parts.filter(part => part.type === 'text' && part.synthetic !== true).map(part => textOf(part.text)).join('\n\n'));
				return;
			}

			case 'assistant': {
				this.#assistant(info, parts);
				return;
			}

			default: {
				this.lines.notice(`role-${textOf(info.role)}`, `opencode message role ${JSON.stringify(info.role)} is not read by cardterm`);
			}
		}
	}

	end(): void {
		this.lines.endTurn(this.lines.openCalls.size > 0 ? 'interrupted' : 'completed');
	}

	#assistant(info: Fields, parts: readonly Fields[]): void {
		const tokens = fieldsOf(info.tokens);
		const cache = fieldsOf(tokens.cache);
		this.lines.assistant({
			text: parts.filter(part => part.type === 'text' && part.synthetic !== true).map(part => textOf(part.text)).join('\n\n'),
			reasoning: parts.filter(part => part.type === 'reasoning').map(part => textOf(part.text)).join('\n\n'),
			usage: {inputTokens: tokens.input as number, outputTokens: tokens.output as number, reasoningTokens: tokens.reasoning as number, cacheReadTokens: cache.read as number, cacheWriteTokens: cache.write as number},
			model: stringField(info, 'modelID'),
		});
		for (const part of parts) {
			if (part.type === 'tool') {
				this.#tool(part);
			} else if (part.type === 'patch' || part.type === 'file' || part.type === 'agent' || part.type === 'subtask') {
				this.lines.notice(`part-${part.type}`, `opencode ${part.type} parts are not shown by cardterm`);
			}
		}

		const error = fieldsOf(info.error);
		if (error.name === 'MessageAbortedError') {
			this.lines.endTurn('aborted');
		} else if (typeof error.name === 'string') {
			this.lines.endTurn('error', textOf(fieldsOf(error.data).message ?? error.name));
		}
	}

	#tool(part: Fields): void {
		const name = textOf(part.tool);
		const id = textOf(part.callID ?? part.id);
		const state = fieldsOf(part.state);
		const input = fieldsOf(state.input);
		this.lines.call({id, name, input, view: this.#callView(name, input)});
		switch (state.status) {
			case 'completed': {
				this.lines.result(this.#result(id, name, input, textOf(state.output), fieldsOf(state.metadata)));
				return;
			}

			case 'error': {
				const text = textOf(state.error);
				if (REFUSED.test(text)) {
					this.lines.refused(id, name, text);
					this.lines.result({id, text, isError: true});
				} else {
					this.lines.result({id, text, isError: true, ...(/aborted/i.test(text) ? {code: 'ABORTED' as const} : {})});
				}

				return;
			}

			default: {
				// `pending` or `running`: the process ended before the call did; the call stays open.
			}
		}
	}

	#callView(name: string, input: Fields): ToolCallView {
		const path = shownPath(textOf(input.filePath ?? input.path), this.#cwd);
		switch (name) {
			case 'bash': {
				return {card: 'terminal', title: textOf(input.command), ...(typeof input.description === 'string' ? {description: input.description} : {})};
			}

			case 'edit': {
				return editCallView(path, [{oldText: textOf(input.oldString), newText: textOf(input.newString)}]);
			}

			case 'write': {
				return writeCallView(path, textOf(input.content));
			}

			case 'read': {
				return genericCall(`Read ${path}`, undefined, 'read');
			}

			case 'grep':
			case 'glob': {
				return searchCallView(name === 'grep' ? 'Grep' : 'Glob', textOf(input.pattern), input.path === undefined ? undefined : path);
			}

			case 'list': {
				return genericCall(`List ${path === '' ? '.' : path}`, undefined, 'search');
			}

			case 'webfetch': {
				return genericCall(`Fetch ${textOf(input.url)}`, undefined, 'fetch');
			}

			case 'task': {
				return genericCall(`Subagent${typeof input.subagent_type === 'string' ? ` (${input.subagent_type})` : ''}: ${textOf(input.description)}`, input.prompt, 'other');
			}

			case 'todowrite': {
				if (Array.isArray(input.todos)) {
					this.lines.todos(input.todos.map(todo => fieldsOf(todo)).map(todo => ({content: textOf(todo.content), status: todo.status === 'completed' || todo.status === 'in_progress' ? todo.status : 'pending'})));
				}

				return genericCall('Update the todo list', undefined, 'other');
			}

			default: {
				return genericCall(name, input);
			}
		}
	}

	#result(id: string, name: string, input: Fields, text: string, metadata: Fields): ForeignToolResult {
		if (name === 'bash') {
			const exit = typeof metadata.exit === 'number' ? metadata.exit : undefined;
			return terminalResult(id, text === '(no output)' ? '' : text, exit);
		}

		const view = this.#resultView(name, input, text, metadata);
		return {id, text, isError: false, ...(view === undefined ? {} : {view})};
	}

	#resultView(name: string, input: Fields, text: string, metadata: Fields): ToolResultView | undefined {
		const path = shownPath(textOf(input.filePath ?? input.path), this.#cwd);
		switch (name) {
			case 'read': {
				const display = fieldsOf(metadata.display);
				if (typeof display.text === 'string') {
					return readView(path, display.text, typeof display.lineStart === 'number' ? display.lineStart : 1, typeof display.totalLines === 'number' ? display.totalLines : undefined);
				}

				return numberedRead(path, text);
			}

			case 'edit':
			case 'write':
			case 'apply_patch':
			case 'multiedit': {
				const diffs = typeof metadata.diff === 'string' ? unifiedDiffHunks(path, metadata.diff) : [];
				if (diffs.length > 0) {
					return {card: 'diff', diffs};
				}

				return name === 'write' ? {card: 'diff', diffs: [newFileDiff(path, textOf(input.content))]} : undefined;
			}

			case 'grep': {
				return grepView(text, this.#cwd);
			}

			case 'glob':
			case 'list': {
				const paths = text.split('\n').filter(line => line !== '' && !line.startsWith('(')).map(line => shownPath(line, this.#cwd));
				return pathsView(paths, typeof metadata.count === 'number' ? metadata.count : undefined);
			}

			default: {
				return undefined;
			}
		}
	}
}

/** opencode's read output: `<content>` holding `N: text` lines. */
function numberedRead(path: string, text: string): ToolResultView | undefined {
	const lines = [...text.matchAll(/^(\d+): (.*)$/gm)];
	if (lines.length === 0) {
		return undefined;
	}

	const first = Number(lines[0]![1]);
	return readView(path, lines.map(line => line[2]).join('\n'), first);
}

/** opencode's grep output: `Found N matches`, then each file (`/path:`) and its `  Line N: text` lines. */
function grepView(text: string, cwd: string | undefined): ToolResultView | undefined {
	const files: Array<{path: string; matches: Array<{lineNumber: number; line: string}>}> = [];
	let total = 0;
	for (const line of text.split('\n')) {
		const match = /^\s+Line (\d+): (.*)$/.exec(line);
		if (match !== null && files.length > 0) {
			files.at(-1)!.matches.push({lineNumber: Number(match[1]), line: match[2]!});
			total++;
		} else if (line.endsWith(':') && !line.startsWith(' ')) {
			files.push({path: shownPath(line.slice(0, -1), cwd), matches: []});
		}
	}

	return total === 0 ? undefined : {card: 'search', shape: 'matches', files: files.filter(file => file.matches.length > 0), truncated: false, total};
}
