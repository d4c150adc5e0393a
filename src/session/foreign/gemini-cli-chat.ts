/**
@module Gemini CLI's saved chats (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`): line 1
is the session (`sessionId`, `projectHash`, `startTime`), then messages — the person's (`user`), the
model's (`gemini`: text, `thoughts`, `tokens`, and its `toolCalls` with their results, status and
display), notes (`info`, `warning`, `error`) — and `$set` updates of the session's fields. A
message is written again when it changes (its tool calls completed): a message id is read once, a
call id once. The working directory is not recorded as a field; the session context Gemini CLI
sends first names it ("Workspace Directories"). Older versions wrote one JSON document per chat
(`session-….json`): foreign-log-lines.ts reads it whole and hands its messages here as records.
Read from files Gemini CLI 0.61.0 wrote (test/fixtures/foreign-sessions/gemini/).
*/
import type {TodoItem} from '../events/events.js';
import type {ToolCallView, ToolResultView} from '../../tools/views.js';
import {ContractLines, timeOf} from './contract-lines.js';
import type {ForeignReader} from './foreign-reader.js';
import {editCallView, fieldsOf, genericCall, searchCallView, writeCallView, newFileDiff, pathsView, readView, shownPath, stringField, terminalResult, textOf, unifiedDiffHunks, type ForeignToolResult} from './foreign-views.js';

type Fields = Readonly<Record<string, unknown>>;

export class GeminiCliChat implements ForeignReader {
	readonly lines = new ContractLines('Gemini CLI', 'gemini-cli');
	readonly #messages = new Set<string>();
	/** Each call read, and whether its result was (a chat rewritten while the call ran has it without one first). */
	readonly #calls = new Map<string, boolean>();
	#cwd: string | undefined;

	record(value: Fields): void {
		this.lines.at(timeOf(value.timestamp));
		if (typeof value.sessionId === 'string' && typeof value.projectHash === 'string') {
			this.lines.learn({id: value.sessionId, createdAt: timeOf(value.startTime)});
			return;
		}

		if (value.$set !== undefined) {
			// The session's first context names its folder.
			const context = JSON.stringify(fieldsOf(value.$set).messages ?? '');
			const folder = /Workspace Directories:\*\*\\n\s*- ([^\\]+)/.exec(context)?.[1] ?? /working in the directory: ([^\\]+)/.exec(context)?.[1];
			if (folder !== undefined && this.#cwd === undefined) {
				this.#cwd = folder;
				this.lines.learn({cwd: folder});
				this.lines.writeHeader();
			}

			return;
		}

		const id = textOf(value.id);
		const first = !this.#messages.has(id);
		this.#messages.add(id);
		switch (value.type) {
			case 'user': {
				this.lines.writeHeader();
				const parts = Array.isArray(value.content) ? value.content.map(part => fieldsOf(part)) : [];
				// Function responses are the calls' results, sent back: the calls' cards hold them.
				const text = typeof value.content === 'string' ? value.content : parts.filter(part => typeof part.text === 'string').map(part => textOf(part.text)).join('\n\n');
				if (first && !/^\s*<session_context>/.test(text)) {
					this.lines.user(text);
				}

				return;
			}

			case 'gemini': {
				if (first) {
					const tokens = fieldsOf(value.tokens);
					this.lines.assistant({
						text: textOf(value.content),
						reasoning: (Array.isArray(value.thoughts) ? value.thoughts : []).map(thought => fieldsOf(thought)).map(thought => [textOf(thought.subject), textOf(thought.description)].filter(part => part !== '').join(': ')).join('\n\n'),
						usage: {inputTokens: (tokens.input as number) - (Number(tokens.cached) || 0), outputTokens: tokens.output as number, cacheReadTokens: tokens.cached as number, reasoningTokens: tokens.thoughts as number},
						model: stringField(value, 'model'),
					});
				}

				for (const call of (Array.isArray(value.toolCalls) ? value.toolCalls : []).map(entry => fieldsOf(entry))) {
					this.#toolCall(call);
				}

				return;
			}

			case 'info':
			case 'warning':
			case 'error': {
				if (first) {
					this.lines.notice(`${value.type}-${id}`, `${value.type}: ${textOf(value.content)}`);
				}

				return;
			}

			default: {
				this.lines.notice(`type-${textOf(value.type)}`, `Gemini CLI message type ${JSON.stringify(value.type)} is not read by cardterm`);
			}
		}
	}

	end(): void {
		this.lines.endTurn(this.lines.openCalls.size > 0 ? 'interrupted' : 'completed');
	}

	#toolCall(call: Fields): void {
		const id = textOf(call.id);
		const settled = this.#calls.get(id);
		if (settled === true) {
			return;
		}

		const name = textOf(call.name);
		const args = fieldsOf(call.args);
		if (settled === undefined) {
			this.lines.call({id, name, input: args, view: this.#callView(name, args)});
			if (name === 'write_todos' && Array.isArray(args.todos)) {
				this.lines.todos(args.todos.map(todo => fieldsOf(todo)).map((todo): TodoItem => ({content: textOf(todo.description), status: todo.status === 'completed' || todo.status === 'in_progress' ? todo.status : 'pending'})));
			}
		}

		const done = call.status === 'success' || call.status === 'error' || call.status === 'cancelled';
		this.#calls.set(id, done);
		if (done) {
			this.lines.at(timeOf(call.timestamp));
			this.lines.result(this.#result(id, name, args, call));
		}
	}

	#callView(name: string, args: Fields): ToolCallView {
		const path = shownPath(textOf(args.file_path ?? args.absolute_path ?? args.dir_path ?? args.path), this.#cwd);
		switch (name) {
			case 'run_shell_command': {
				return {card: 'terminal', title: textOf(args.command), ...(typeof args.description === 'string' ? {description: args.description} : {}), ...(typeof args.dir_path === 'string' ? {cwd: args.dir_path} : {})};
			}

			case 'replace': {
				return editCallView(path, [{oldText: textOf(args.old_string), newText: textOf(args.new_string)}]);
			}

			case 'write_file': {
				return writeCallView(path, textOf(args.content));
			}

			case 'read_file': {
				return genericCall(`Read ${path}`, undefined, 'read');
			}

			case 'grep_search':
			case 'search_file_content':
			case 'glob': {
				return searchCallView(name === 'glob' ? 'Glob' : 'Grep', textOf(args.pattern), path);
			}

			case 'list_directory': {
				return genericCall(`List ${path}`, undefined, 'search');
			}

			case 'web_fetch':
			case 'google_web_search': {
				return genericCall(name === 'web_fetch' ? 'Fetch' : `Search the web: ${textOf(args.query)}`, name === 'web_fetch' ? args.prompt : undefined, 'fetch');
			}

			case 'write_todos': {
				return genericCall('Update the todo list', undefined, 'other');
			}

			default: {
				return genericCall(name, args);
			}
		}
	}

	#result(id: string, name: string, args: Fields, call: Fields): ForeignToolResult {
		const response = fieldsOf(fieldsOf((Array.isArray(call.result) ? call.result : []).map(part => fieldsOf(part)).find(part => part.functionResponse !== undefined)?.functionResponse).response);
		const text = textOf(response.output ?? response.error ?? call.resultDisplay);
		if (call.status === 'cancelled') {
			return {id, text, isError: true, code: 'ABORTED'};
		}

		if (name === 'run_shell_command' && call.status === 'success') {
			const {output, exitCode} = shellOutput(text);
			return terminalResult(id, output, exitCode);
		}

		if (call.status === 'error') {
			return {id, text, isError: true};
		}

		const view = this.#resultView(name, args, text, fieldsOf(call.resultDisplay));
		return {id, text, isError: false, ...(view === undefined ? {} : {view})};
	}

	#resultView(name: string, args: Fields, text: string, display: Fields): ToolResultView | undefined {
		const path = shownPath(textOf(args.file_path ?? args.absolute_path), this.#cwd);
		switch (name) {
			case 'read_file': {
				return readView(path, text, typeof args.offset === 'number' ? args.offset + 1 : 1);
			}

			case 'replace':
			case 'write_file': {
				const diffs = unifiedDiffHunks(path, textOf(display.fileDiff));
				if (diffs.length > 0 && display.originalContent !== null && display.originalContent !== '') {
					return {card: 'diff', diffs};
				}

				return name === 'write_file' ? {card: 'diff', diffs: [newFileDiff(path, textOf(args.content))]} : (diffs.length > 0 ? {card: 'diff', diffs} : undefined);
			}

			case 'grep_search':
			case 'search_file_content': {
				const matches = Array.isArray(display.matches) ? display.matches.map(match => fieldsOf(match)) : [];
				const files = new Map<string, Array<{lineNumber: number; line: string}>>();
				for (const match of matches) {
					const file = shownPath(textOf(match.filePath), this.#cwd);
					files.set(file, [...files.get(file) ?? [], {lineNumber: Number(match.lineNumber) || 1, line: textOf(match.line)}]);
				}

				return matches.length === 0 ? undefined : {card: 'search', shape: 'matches', files: [...files].map(([file, list]) => ({path: file, matches: list})), truncated: false, total: matches.length};
			}

			case 'glob': {
				const paths = text.split('\n').slice(1).filter(line => line.trim() !== '').map(line => shownPath(line.trim(), this.#cwd));
				return paths.length === 0 ? undefined : pathsView(paths);
			}

			default: {
				return undefined;
			}
		}
	}
}

/**
A shell result as Gemini CLI words it (inside `<untrusted_context>` since 0.5x): `Output: …`, then
`Error:`, `Exit Code: N`, `Signal:`, `Background PIDs:`, `Process Group PGID:` lines.
*/
function shellOutput(text: string): {readonly output: string; readonly exitCode: number | undefined} {
	const body = text.replace(/^\s*<untrusted_context>\n?/, '').replace(/\n?<\/untrusted_context>\s*$/, '');
	const exit = /^Exit Code: (-?\d+)$/m.exec(body);
	const start = body.startsWith('Output: ') ? 0 : body.indexOf('\nOutput: ') + 1;
	const rest = start === 0 && !body.startsWith('Output: ') ? body : body.slice(start + 'Output: '.length);
	const end = /\n(?:Error|Exit Code|Signal|Background PIDs|Process Group PGID): /.exec(rest);
	const output = end === null ? rest : rest.slice(0, end.index);
	return {output: output === '(empty)' ? '' : output, exitCode: exit === null ? 0 : Number(exit[1])};
}
