/**
@module pi's session files (`~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl`, pi-coding-agent's
docs/session-format.md): a header `{"type":"session","version":3,…}`, then entries — messages of the
person, the model (`thinking`, `text`, `toolCall` blocks, usage, `stopReason`), tool results, the
person's own `!` commands — and model changes, compactions and branch summaries. Entries form a
tree by `parentId`; they are shown in file order (the branch written last is the newest).
Read from files pi 0.73.1 wrote (test/fixtures/foreign-sessions/pi/).
*/
import type {ToolCallView} from '../../tools/views.js';
import {ContractLines, timeOf} from './contract-lines.js';
import type {ForeignReader} from './foreign-reader.js';
import {editCallView, fieldsOf, genericCall, searchCallView, writeCallView, grepMatchesView, newFileDiff, pathsView, readView, shownPath, stringField, terminalResult, textOf, type ForeignToolResult} from './foreign-views.js';

/** The newest session version cardterm has read. */
const KNOWN_VERSION = 3;

type Fields = Readonly<Record<string, unknown>>;

export class PiSession implements ForeignReader {
	readonly lines = new ContractLines('pi', 'pi');
	readonly #calls = new Map<string, {readonly name: string; readonly input: Fields}>();
	#cwd: string | undefined;

	record(value: Fields): void {
		this.lines.at(timeOf(value.timestamp));
		switch (value.type) {
			case 'session': {
				this.#cwd = stringField(value, 'cwd');
				const version = value.version;
				this.lines.learn({id: stringField(value, 'id'), createdAt: timeOf(value.timestamp), cwd: this.#cwd, version: `session v${textOf(version)}`});
				this.lines.writeHeader();
				if (typeof version === 'number' && version > KNOWN_VERSION) {
					this.lines.notice('version', `pi session version ${version} is newer than the versions cardterm reads (up to ${KNOWN_VERSION}); what could be read is shown`);
				}

				return;
			}

			case 'message': {
				this.#message(fieldsOf(value.message));
				return;
			}

			case 'compaction':
			case 'branch_summary': {
				this.lines.notice(`${value.type}-${textOf(value.id)}`, `${value.type === 'compaction' ? 'context compacted' : 'branch summary'}: ${textOf(value.summary)}`);
				return;
			}

			case 'model_change':
			case 'thinking_level_change':
			case 'custom':
			case 'custom_message':
			case 'label':
			case 'session_info': {
				return; // Settings and extensions' own entries: nothing a transcript shows.
			}

			default: {
				this.lines.notice(`type-${textOf(value.type)}`, `pi entry type ${JSON.stringify(value.type)} is not read by cardterm`);
			}
		}
	}

	end(): void {
		this.lines.endTurn(this.lines.openCalls.size > 0 ? 'interrupted' : 'completed');
	}

	#message(message: Fields): void {
		const content = Array.isArray(message.content) ? message.content.map(block => fieldsOf(block)) : [];
		const text = typeof message.content === 'string' ? message.content : content.filter(block => block.type === 'text').map(block => textOf(block.text)).join('\n\n');
		switch (message.role) {
			case 'user': {
				this.lines.user(text);
				return;
			}

			case 'assistant': {
				const usage = fieldsOf(message.usage);
				const stop = message.stopReason;
				this.lines.assistant({
					text,
					reasoning: content.filter(block => block.type === 'thinking').map(block => textOf(block.thinking)).join('\n\n'),
					usage: {inputTokens: usage.input as number, outputTokens: usage.output as number, cacheReadTokens: usage.cacheRead as number, cacheWriteTokens: usage.cacheWrite as number},
					model: stringField(message, 'model'),
					interrupted: stop === 'aborted',
				});
				for (const block of content.filter(block => block.type === 'toolCall')) {
					const id = textOf(block.id);
					const input = fieldsOf(block.arguments);
					const name = textOf(block.name);
					this.#calls.set(id, {name, input});
					this.lines.call({id, name, input, view: this.#callView(name, input)});
				}

				if (stop === 'aborted' || stop === 'error') {
					this.lines.endTurn(stop === 'aborted' ? 'aborted' : 'error', stringField(message, 'errorMessage'));
				}

				return;
			}

			case 'toolResult': {
				const id = textOf(message.toolCallId);
				const call = this.#calls.get(id) ?? {name: textOf(message.toolName), input: {}};
				// A call is answered once: what is kept of it for its result goes (a long session keeps no copy of every input).
				this.#calls.delete(id);
				this.lines.result(this.#result(id, call.name, call.input, text, message.isError === true, fieldsOf(message.details)));
				return;
			}

			case 'bashExecution': {
				// The person's own `!` command.
				const id = `bash-${textOf(message.timestamp)}`;
				const command = textOf(message.command);
				this.lines.call({id, name: 'bash', input: {command}, view: {card: 'terminal', title: command, description: 'run by the person'}});
				const exit = typeof message.exitCode === 'number' ? message.exitCode : undefined;
				this.lines.result(message.cancelled === true ? {id, text: textOf(message.output), isError: true, code: 'ABORTED'} : terminalResult(id, textOf(message.output), exit));
				return;
			}

			default: {
				const summary = stringField(message, 'summary');
				if (summary !== undefined) {
					this.lines.notice(`${textOf(message.role)}-${textOf(message.timestamp)}`, summary);
				}
			}
		}
	}

	#callView(name: string, input: Fields): ToolCallView {
		const path = shownPath(textOf(input.path ?? input.file_path), this.#cwd);
		switch (name) {
			case 'bash': {
				return {card: 'terminal', title: textOf(input.command)};
			}

			case 'edit': {
				const edits = Array.isArray(input.edits) ? input.edits.map(edit => fieldsOf(edit)) : [input];
				return editCallView(path, edits.map(edit => ({oldText: textOf(edit.oldText), newText: textOf(edit.newText)})));
			}

			case 'write': {
				return writeCallView(path, textOf(input.content));
			}

			case 'read': {
				return genericCall(`Read ${path}`, undefined, 'read');
			}

			case 'grep':
			case 'find': {
				return searchCallView(name === 'grep' ? 'Grep' : 'Find', textOf(input.pattern), input.path === undefined ? undefined : textOf(input.path));
			}

			case 'ls': {
				return genericCall(`List ${path === '' ? '.' : path}`, undefined, 'search');
			}

			default: {
				return genericCall(name, input);
			}
		}
	}

	#result(id: string, name: string, input: Fields, text: string, isError: boolean, details: Fields): ForeignToolResult {
		if (name === 'bash') {
			// pi ends a failed command's text with its exit: the contract's marker says it.
			const exit = /\n*Command exited with code (-?\d+)$/.exec(text);
			if (exit !== null) {
				return terminalResult(id, text.slice(0, exit.index).replace(/^\(no output\)$/, ''), Number(exit[1]));
			}

			return isError ? {id, text, isError} : terminalResult(id, text, 0);
		}

		if (isError) {
			return {id, text, isError};
		}

		const path = shownPath(textOf(input.path ?? input.file_path), this.#cwd);
		switch (name) {
			case 'read': {
				return {id, text, isError, view: readView(path, text, typeof input.offset === 'number' ? input.offset : 1)};
			}

			case 'edit': {
				const diffs = piDiffHunks(path, textOf(details.diff));
				return {id, text, isError, ...(diffs.length === 0 ? {} : {view: {card: 'diff', diffs}})};
			}

			case 'write': {
				return {id, text, isError, view: {card: 'diff', diffs: [newFileDiff(path, textOf(input.content))]}};
			}

			case 'grep': {
				const view = grepMatchesView(text.split('\n').map(line => line.replace(/^(.+?:\d+): /, '$1:')).join('\n'));
				return {id, text, isError, ...(view === undefined ? {} : {view})};
			}

			case 'find':
			case 'ls': {
				return {id, text, isError, view: pathsView(text.split('\n').filter(line => line !== ''))};
			}

			default: {
				return {id, text, isError};
			}
		}
	}
}

/**
pi's edit diff (`details.diff`): numbered lines ` 1 text`, `-2 text`, `+2 text`, gaps as `...`
lines. One hunk per run of numbered lines.
*/
export function piDiffHunks(path: string, diff: string): Array<{path: string; oldText: string | null; newText: string; oldStart: number; newStart: number}> {
	const hunks: Array<{path: string; oldText: string | null; newText: string; oldStart: number; newStart: number}> = [];
	let current: {old: string[]; new: string[]; oldStart?: number; newStart?: number} | undefined;
	const close = (): void => {
		if (current !== undefined && (current.old.length > 0 || current.new.length > 0)) {
			hunks.push({path, oldText: current.old.length === 0 ? null : current.old.join('\n'), newText: current.new.join('\n'), oldStart: current.oldStart ?? current.newStart ?? 1, newStart: current.newStart ?? current.oldStart ?? 1});
		}

		current = undefined;
	};

	for (const line of diff.split('\n')) {
		const match = /^([ +-])\s*(\d+) (.*)$/.exec(line);
		if (match === null) {
			close();
			continue;
		}

		current ??= {old: [], new: []};
		const [, marker, number, text] = match;
		if (marker !== '+') {
			current.old.push(text!);
			current.oldStart ??= Number(number);
		}

		if (marker !== '-') {
			current.new.push(text!);
			current.newStart ??= Number(number);
		}
	}

	close();
	return hunks;
}
