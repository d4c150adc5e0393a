/**
@module Claude Code's transcripts (`~/.claude/projects/<cwd with / as ->/<session id>.jsonl`): one
record a line — the person's messages and the tool results sent back (`type: "user"`, with the
tool's own structured result in `toolUseResult`), the model's messages (`type: "assistant"`, often
one content block a line, lines of one message sharing `message.id`), and bookkeeping (queue
operations, attachments, modes, summaries, titles). A subagent's transcript is saved beside it
(`<session id>/subagents/agent-<id>.jsonl`) and named by the Task result's `agentId`.
Read from files Claude Code 2.1.197 wrote (test/fixtures/foreign-sessions/claude/).

How a call ended: a command's `Exit code N` is its exit (a failed command, not an error), an
`interrupted` command is cancelled, a permission refused (headless: "Claude requested permissions
…", interactive: "The user doesn't want to proceed …") is denied — unless the person's
"[Request interrupted by user for tool use]" follows it, which Claude Code writes when the person
stopped the turn at that call: then it is cancelled.
*/
import type {FileDiff, ToolCallView, ToolResultView, WebSource} from '../../tools/views.js';
import {ContractLines, timeOf} from './contract-lines.js';
import type {ForeignReader} from './foreign-reader.js';
import {editCallView, fieldsOf, genericCall, searchCallView, writeCallView, grepMatchesView, newFileDiff, pathsView, readView, shownPath, stringField, terminalResult, textOf, type ForeignToolResult} from './foreign-views.js';

type Fields = Readonly<Record<string, unknown>>;

/** The newest major version cardterm has read transcripts of (2.1.197). */
const KNOWN_MAJOR = 2;

/** Bookkeeping records with nothing a transcript shows. */
const QUIET_TYPES = new Set(['queue-operation', 'attachment', 'last-prompt', 'mode', 'file-history-snapshot', 'progress', 'agent-name', 'pr-link', 'tag']);

/** What Claude Code writes after a refusal or an interrupt that stopped the turn. */
const INTERRUPTED = /^\[Request interrupted by user( for tool use)?\]/;

/** The result text of a refused permission (headless and interactive). */
const REFUSED = /^(Claude requested permissions to|The user doesn't want to proceed with this tool use|Permission to use .* has been denied)/;

export class ClaudeCodeSession implements ForeignReader {
	readonly lines = new ContractLines('Claude Code', 'claude-code');
	readonly #calls = new Map<string, {readonly name: string; readonly input: Fields}>();
	/** Records already read (a resumed session writes some again). */
	readonly #seen = new Set<string>();
	readonly #messages = new Set<string>();
	/** A refusal held until the next record says whether the person stopped the turn there. */
	#refusal: {readonly id: string; readonly name: string; readonly text: string} | undefined;
	#cwd: string | undefined;
	/** Whether this file is a subagent's transcript (its messages are all `isSidechain`). */
	#subagentFile: boolean | undefined;

	record(value: Fields): void {
		const uuid = stringField(value, 'uuid');
		if (uuid !== undefined) {
			if (this.#seen.has(uuid)) {
				return;
			}

			this.#seen.add(uuid);
		}

		this.lines.at(timeOf(value.timestamp));
		this.#cwd ??= stringField(value, 'cwd');
		const version = stringField(value, 'version');
		this.lines.learn({id: stringField(value, 'sessionId'), cwd: this.#cwd, version});
		if (version !== undefined && Number(version.split('.')[0]) > KNOWN_MAJOR) {
			this.lines.notice('version', `Claude Code ${version} is newer than the versions cardterm has read (${KNOWN_MAJOR}.x); what could be read is shown`);
		}

		if (this.#cwd !== undefined) {
			this.lines.writeHeader();
		}

		const type = textOf(value.type);
		const interrupt = type === 'user' && INTERRUPTED.test(userText(fieldsOf(value.message)));
		this.#settleRefusal(interrupt);
		if ((type === 'user' || type === 'assistant') && this.#subagentFile === undefined) {
			// A subagent's own transcript is all sidechain.
			this.#subagentFile = value.isSidechain === true;
		}

		if (value.isSidechain === true && this.#subagentFile === false) {
			// Older versions wrote a subagent's messages into the parent's file: its Task card stands for them.
			this.lines.notice('sidechain', 'subagent messages written into this transcript (older Claude Code) are not shown; their Task cards are');
			return;
		}

		switch (type) {
			case 'user': {
				this.#user(value, interrupt);
				return;
			}

			case 'assistant': {
				this.#assistant(fieldsOf(value.message));
				return;
			}

			case 'summary':
			case 'custom-title':
			case 'ai-title': {
				this.lines.learn({title: stringField(value, 'summary') ?? stringField(value, 'customTitle') ?? stringField(value, 'aiTitle') ?? stringField(value, 'title')});
				return;
			}

			case 'system': {
				const content = stringField(value, 'content');
				if (content !== undefined && value.isMeta !== true) {
					this.lines.notice(`system-${uuid ?? content}`, `${textOf(value.subtype) || 'system'}: ${content}`);
				}

				return;
			}

			default: {
				if (!QUIET_TYPES.has(type)) {
					this.lines.notice(`type-${type}`, `Claude Code record type ${JSON.stringify(type)} is not read by cardterm`);
				}
			}
		}
	}

	end(): void {
		this.#settleRefusal(false);
		this.lines.endTurn(this.lines.openCalls.size > 0 ? 'interrupted' : 'completed');
	}

	#settleRefusal(interrupt: boolean): void {
		const refusal = this.#refusal;
		if (refusal === undefined) {
			return;
		}

		this.#refusal = undefined;
		if (interrupt) {
			this.lines.result({id: refusal.id, text: refusal.text, isError: true, code: 'ABORTED'});
			return;
		}

		this.lines.refused(refusal.id, refusal.name, refusal.text);
		this.lines.result({id: refusal.id, text: refusal.text, isError: true});
	}

	#user(value: Fields, interrupt: boolean): void {
		const message = fieldsOf(value.message);
		const content = Array.isArray(message.content) ? message.content.map(block => fieldsOf(block)) : [];
		for (const block of content.filter(block => block.type === 'tool_result')) {
			this.#toolResult(block, value.toolUseResult);
		}

		if (interrupt) {
			this.lines.endTurn('aborted');
			return;
		}

		if (value.isMeta !== true && value.isCompactSummary !== true) {
			this.lines.user(userText(message));
		} else if (value.isCompactSummary === true) {
			this.lines.notice(`compact-${textOf(value.uuid)}`, `context compacted: ${userText(message)}`);
		}
	}

	#assistant(message: Fields): void {
		const id = stringField(message, 'id');
		const content = Array.isArray(message.content) ? message.content.map(block => fieldsOf(block)) : [];
		// The lines of one message repeat its usage: it counts once.
		const first = id === undefined || !this.#messages.has(id);
		if (id !== undefined) {
			this.#messages.add(id);
		}

		const usage = fieldsOf(message.usage);
		this.lines.assistant({
			text: content.filter(block => block.type === 'text').map(block => textOf(block.text)).join('\n\n'),
			reasoning: content.filter(block => block.type === 'thinking').map(block => textOf(block.thinking)).join('\n\n'),
			...(first ? {usage: {inputTokens: usage.input_tokens as number, outputTokens: usage.output_tokens as number, cacheReadTokens: usage.cache_read_input_tokens as number, cacheWriteTokens: usage.cache_creation_input_tokens as number}} : {}),
			model: stringField(message, 'model'),
		});
		for (const block of content.filter(block => block.type === 'tool_use' || block.type === 'server_tool_use')) {
			const callId = textOf(block.id);
			const name = textOf(block.name);
			const input = fieldsOf(block.input);
			this.#calls.set(callId, {name, input});
			const server = /^mcp__(.+?)__/.exec(name)?.[1];
			this.lines.call({id: callId, name, input, view: this.#callView(name, input), ...(server === undefined ? {} : {server})});
			if (name === 'TodoWrite' && Array.isArray(input.todos)) {
				this.lines.todos(input.todos.map(todo => fieldsOf(todo)).map(todo => ({content: textOf(todo.content), status: todo.status === 'completed' || todo.status === 'in_progress' ? todo.status : 'pending'})));
			}
		}
	}

	#callView(name: string, input: Fields): ToolCallView {
		const path = shownPath(textOf(input.file_path ?? input.notebook_path ?? input.path), this.#cwd);
		switch (name) {
			case 'Bash': {
				return {card: 'terminal', title: textOf(input.command), ...(typeof input.description === 'string' ? {description: input.description} : {})};
			}

			case 'Edit':
			case 'MultiEdit': {
				const edits = Array.isArray(input.edits) ? input.edits.map(edit => fieldsOf(edit)) : [input];
				return editCallView(path, edits.map(edit => ({oldText: textOf(edit.old_string), newText: textOf(edit.new_string)})));
			}

			case 'Write': {
				return writeCallView(path, textOf(input.content));
			}

			case 'Read': {
				return genericCall(`Read ${path}`, undefined, 'read');
			}

			case 'Grep':
			case 'Glob': {
				return searchCallView(name, textOf(input.pattern), input.path === undefined ? undefined : shownPath(textOf(input.path), this.#cwd));
			}

			case 'LS': {
				return genericCall(`List ${path}`, undefined, 'search');
			}

			case 'WebFetch': {
				return genericCall(`Fetch ${textOf(input.url)}`, input.prompt, 'fetch');
			}

			case 'WebSearch': {
				return genericCall(`Search the web: ${textOf(input.query)}`, undefined, 'fetch');
			}

			case 'Task':
			case 'Agent': {
				return genericCall(`Subagent${typeof input.subagent_type === 'string' ? ` (${input.subagent_type})` : ''}: ${textOf(input.description)}`, input.prompt, 'other');
			}

			case 'TodoWrite': {
				return genericCall('Update the todo list', undefined, 'other');
			}

			default: {
				return genericCall(name, input);
			}
		}
	}

	#toolResult(block: Fields, structured: unknown): void {
		const id = textOf(block.tool_use_id);
		const call = this.#calls.get(id) ?? {name: '', input: {}};
		// A call is answered once: what is kept of it for its result goes (a long session keeps no copy of every input).
		this.#calls.delete(id);
		const text = resultText(block.content);
		const isError = block.is_error === true;
		if (isError && REFUSED.test(text)) {
			this.#refusal = {id, name: call.name, text};
			return;
		}

		this.lines.result(this.#result(id, call.name, call.input, text, isError, fieldsOf(structured)));
	}

	#result(id: string, name: string, input: Fields, text: string, isError: boolean, structured: Fields): ForeignToolResult {
		if (name === 'Bash') {
			if (structured.interrupted === true) {
				return {id, text, isError: true, code: 'ABORTED'};
			}

			const exit = /^Exit code (-?\d+)\n?/.exec(text);
			if (isError && exit !== null) {
				return terminalResult(id, text.slice(exit[0].length), Number(exit[1]));
			}

			if (!isError) {
				const output = [textOf(structured.stdout), textOf(structured.stderr)].filter(part => part !== '').join('\n');
				return terminalResult(id, structured.stdout === undefined ? text : output, 0);
			}
		}

		if (isError) {
			return {id, text, isError};
		}

		const view = this.#resultView(name, input, text, structured);
		return {id, text, isError, ...(view === undefined ? {} : {view}), ...(name === 'WebFetch' && typeof structured.code === 'number' ? {statusCode: structured.code} : {})};
	}

	#resultView(name: string, input: Fields, text: string, structured: Fields): ToolResultView | undefined {
		const path = shownPath(textOf(input.file_path ?? input.path), this.#cwd);
		switch (name) {
			case 'Read': {
				const file = fieldsOf(structured.file);
				if (typeof file.content === 'string') {
					return readView(path, file.content, typeof file.startLine === 'number' ? file.startLine : 1, typeof file.totalLines === 'number' ? file.totalLines : undefined);
				}

				return numberedRead(path, text);
			}

			case 'Edit':
			case 'MultiEdit':
			case 'Write': {
				const diffs = patchHunks(path, structured.structuredPatch);
				if (diffs.length > 0) {
					return {card: 'diff', diffs};
				}

				return name === 'Write' ? {card: 'diff', diffs: [newFileDiff(path, textOf(input.content))]} : undefined;
			}

			case 'Grep': {
				if (typeof structured.content === 'string' && structured.mode === 'content') {
					return grepMatchesView(structured.content);
				}

				return Array.isArray(structured.filenames) ? pathsView(structured.filenames.map(file => textOf(file))) : undefined;
			}

			case 'Glob':
			case 'LS': {
				return Array.isArray(structured.filenames) ? pathsView(structured.filenames.map(file => textOf(file)), typeof structured.numFiles === 'number' ? structured.numFiles : undefined) : undefined;
			}

			case 'WebFetch': {
				return typeof structured.code === 'number' ? {card: 'web', kind: 'fetch', url: textOf(structured.url ?? input.url), statusCode: structured.code, truncated: false} : undefined;
			}

			case 'WebSearch': {
				const sources: WebSource[] = [];
				for (const entry of Array.isArray(structured.results) ? structured.results : []) {
					for (const link of Array.isArray(fieldsOf(entry).content) ? fieldsOf(entry).content as unknown[] : []) {
						const url = stringField(link, 'url');
						if (url !== undefined) {
							sources.push({url, ...(stringField(link, 'title') === undefined ? {} : {title: stringField(link, 'title')})});
						}
					}
				}

				return sources.length === 0 ? undefined : {card: 'web', kind: 'search', sources, truncated: false};
			}

			case 'Task':
			case 'Agent': {
				const answer = resultText(structured.content);
				const child = stringField(structured, 'agentId');
				const said = answer === '' ? text : answer;
				return {card: 'generic', content: [{type: 'text', text: child === undefined ? said : `${said}\n\n(subagent transcript: subagents/agent-${child}.jsonl)`}]};
			}

			default: {
				return undefined;
			}
		}
	}
}

/** A read result as the model saw it (`N<tab>text` or `N→text` lines; a subagent's transcript has no structured result) as a read window. */
function numberedRead(path: string, text: string): ToolResultView | undefined {
	const lines: Array<{number: number; text: string}> = [];
	for (const line of text.replace(/\n$/, '').split('\n')) {
		const match = /^\s*(\d+)[\t→](.*)$/.exec(line);
		if (match === null) {
			return undefined;
		}

		lines.push({number: Number(match[1]), text: match[2]!});
	}

	const offset = lines[0]?.number ?? 1;
	return lines.length === 0 ? undefined : {card: 'read', path, offset, lines, totalLines: lines.at(-1)!.number};
}

/** The person's words in a user record: a string, or its text blocks. */
function userText(message: Fields): string {
	if (typeof message.content === 'string') {
		return message.content;
	}

	return Array.isArray(message.content) ? message.content.map(block => fieldsOf(block)).filter(block => block.type === 'text').map(block => textOf(block.text)).join('\n\n') : '';
}

/** A tool result's content: a string, or text blocks. */
function resultText(content: unknown): string {
	if (typeof content === 'string') {
		return content;
	}

	return Array.isArray(content) ? content.map(block => fieldsOf(block)).filter(block => block.type === 'text').map(block => textOf(block.text)).join('\n') : '';
}

/** Claude Code's `structuredPatch` hunks (`oldStart`, `newStart`, `lines` with ` `/`-`/`+`) as the diff card's. */
function patchHunks(path: string, patch: unknown): FileDiff[] {
	if (!Array.isArray(patch)) {
		return [];
	}

	return patch.map(hunk => fieldsOf(hunk)).filter(hunk => Array.isArray(hunk.lines) && typeof hunk.oldStart === 'number' && typeof hunk.newStart === 'number').map(hunk => {
		const old: string[] = [];
		const added: string[] = [];
		for (const line of hunk.lines as unknown[]) {
			const text = textOf(line);
			if (text.startsWith('-')) {
				old.push(text.slice(1));
			} else if (text.startsWith('+')) {
				added.push(text.slice(1));
			} else if (text.startsWith(' ')) {
				old.push(text.slice(1));
				added.push(text.slice(1));
			}
		}

		return {path, oldText: old.length === 0 ? null : old.join('\n'), newText: added.join('\n'), oldStart: hunk.oldStart as number, newStart: hunk.newStart as number};
	});
}
