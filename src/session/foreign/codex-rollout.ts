/**
@module Codex's rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`): `session_meta`
(id, cwd, `cli_version`), then `response_item`s — the conversation as the Responses API sees it:
messages, reasoning summaries, `function_call` / `custom_tool_call` and their outputs — and
`event_msg`s (turn starts and ends, token counts, an aborted turn, completed items such as a file
change's unified diff). Rollouts before 0.2x start with the bare meta and hold the items unwrapped.
Read from files Codex 0.171.0 wrote (test/fixtures/foreign-sessions/codex/).

Commands (`exec_command`, `shell`, `shell_command`, `local_shell_call`) are terminals with the exit
their output names; `apply_patch` (its own tool, or a command) is a diff; `update_plan` is the todo
list; an output "aborted by user" is a cancel.
*/
import type {FileDiff, ToolCallView} from '../../tools/views.js';
import {ContractLines, timeOf, type ForeignUsage} from './contract-lines.js';
import type {ForeignReader} from './foreign-reader.js';
import {fieldsOf, genericCall, newFileDiff, shownPath, stringField, terminalResult, textOf, unifiedDiffHunks, type ForeignToolResult} from './foreign-views.js';

type Fields = Readonly<Record<string, unknown>>;

/** The newest version cardterm has read rollouts of. */
const KNOWN_VERSION = [0, 171] as const;

/** Wrappers Codex puts around context it sends as the person's message: not the person's words. */
const CONTEXT_WRAPPER = /^\s*(<environment_context>|<user_instructions>|<turn_aborted>|<user_shell_command>|<permissions instructions>|<collaboration_mode>|# AGENTS\.md instructions)/;

/** Event messages with nothing a transcript shows (what they say is in the response items too). */
const QUIET_EVENTS = new Set(['task_started', 'user_message', 'agent_message', 'agent_reasoning', 'agent_reasoning_raw_content', 'thread_settings_applied', 'exec_command_begin', 'exec_command_end', 'patch_apply_begin', 'patch_apply_end', 'item_started', 'turn_diff', 'mcp_tool_call_begin', 'mcp_tool_call_end', 'web_search_begin', 'web_search_end', 'view_image_tool_call', 'plan_update', 'session_configured', 'background_event', 'world_state']);

export class CodexRollout implements ForeignReader {
	readonly lines = new ContractLines('Codex', 'codex');
	readonly #calls = new Map<string, {readonly name: string; readonly input: Fields; readonly command?: string}>();
	/** File changes Codex reported for a call (`item_completed` before its output). */
	readonly #changes = new Map<string, FileDiff[]>();
	#cwd: string | undefined;
	#usage: ForeignUsage | undefined;

	record(value: Fields): void {
		this.lines.at(timeOf(value.timestamp));
		const type = value.type;
		if (type === undefined && typeof value.id === 'string') {
			// A rollout before 0.2x: line 1 is the bare meta.
			this.#meta(value);
			return;
		}

		const payload = fieldsOf(value.payload);
		switch (type) {
			case 'session_meta': {
				this.#meta(payload);
				return;
			}

			case 'response_item': {
				this.#item(payload);
				return;
			}

			case 'event_msg': {
				this.#event(payload);
				return;
			}

			case 'turn_context':
			case 'world_state':
			case 'token_usage_record': {
				return;
			}

			case 'compacted': {
				this.lines.notice(`compacted-${textOf(value.timestamp)}`, `context compacted${typeof payload.message === 'string' && payload.message !== '' ? `: ${payload.message}` : ''}`);
				return;
			}

			default: {
				// Rollouts before 0.2x hold the items unwrapped.
				if (typeof type === 'string' && ['message', 'reasoning', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'local_shell_call', 'web_search_call'].includes(type)) {
					this.#item(value);
					return;
				}

				this.lines.notice(`type-${textOf(type)}`, `Codex record type ${JSON.stringify(type)} is not read by cardterm`);
			}
		}
	}

	end(): void {
		this.#flushUsage();
		this.lines.endTurn(this.lines.openCalls.size > 0 ? 'interrupted' : 'completed');
	}

	#meta(meta: Fields): void {
		this.#cwd = stringField(meta, 'cwd');
		const version = stringField(meta, 'cli_version');
		this.lines.learn({id: stringField(meta, 'id'), createdAt: timeOf(meta.timestamp), cwd: this.#cwd, version});
		this.lines.writeHeader();
		const [major, minor] = (version ?? '').split('.').map(Number);
		if (major !== undefined && minor !== undefined && (major > KNOWN_VERSION[0] || (major === KNOWN_VERSION[0] && minor > KNOWN_VERSION[1]))) {
			this.lines.notice('version', `Codex ${version} is newer than the versions cardterm has read (up to ${KNOWN_VERSION.join('.')}); what could be read is shown`);
		}
	}

	#event(event: Fields): void {
		switch (event.type) {
			case 'token_count': {
				const last = fieldsOf(fieldsOf(event.info).last_token_usage);
				if (typeof last.input_tokens === 'number') {
					this.#usage = {inputTokens: (last.input_tokens) - (Number(last.cached_input_tokens) || 0), outputTokens: last.output_tokens as number, cacheReadTokens: last.cached_input_tokens as number, reasoningTokens: last.reasoning_output_tokens as number};
				}

				return;
			}

			case 'task_complete': {
				this.#flushUsage();
				this.lines.endTurn('completed');
				return;
			}

			case 'turn_aborted': {
				this.#flushUsage();
				this.lines.endTurn('aborted', stringField(event, 'reason'));
				return;
			}

			case 'item_completed': {
				const item = fieldsOf(event.item);
				if (item.type === 'FileChange' && typeof item.id === 'string') {
					this.#changes.set(item.id, changeDiffs(fieldsOf(item.changes), this.#cwd));
				}

				return;
			}

			case 'error': {
				this.lines.notice(`error-${textOf(event.message)}`, `error: ${textOf(event.message)}`);
				return;
			}

			default: {
				if (!QUIET_EVENTS.has(textOf(event.type))) {
					this.lines.notice(`event-${textOf(event.type)}`, `Codex event ${JSON.stringify(event.type)} is not read by cardterm`);
				}
			}
		}
	}

	#item(item: Fields): void {
		switch (item.type) {
			case 'message': {
				const text = (Array.isArray(item.content) ? item.content : []).map(part => fieldsOf(part)).filter(part => part.type === 'input_text' || part.type === 'output_text' || part.type === 'text').map(part => textOf(part.text)).join('\n\n');
				if (item.role === 'user' && !CONTEXT_WRAPPER.test(text)) {
					this.lines.user(text);
				} else if (item.role === 'assistant') {
					this.#assistant({text});
				}

				return;
			}

			case 'reasoning': {
				const summary = (Array.isArray(item.summary) ? item.summary : []).map(part => textOf(fieldsOf(part).text)).join('\n\n');
				this.#assistant({reasoning: summary});
				return;
			}

			case 'function_call':
			case 'custom_tool_call':
			case 'local_shell_call': {
				this.#call(item);
				return;
			}

			case 'function_call_output':
			case 'custom_tool_call_output': {
				this.#output(textOf(item.call_id), item.output);
				return;
			}

			case 'web_search_call': {
				const query = textOf(fieldsOf(item.action).query);
				const id = textOf(item.id ?? `web-${query}`);
				this.lines.call({id, name: 'web_search', input: item.action, view: genericCall(`Search the web: ${query}`, undefined, 'fetch')});
				this.lines.result({id, text: `searched the web for ${query}`, isError: item.status === 'failed'});
				return;
			}

			default: {
				this.lines.notice(`item-${textOf(item.type)}`, `Codex item type ${JSON.stringify(item.type)} is not read by cardterm`);
			}
		}
	}

	#assistant(message: {readonly text?: string; readonly reasoning?: string}): void {
		const usage = this.#usage;
		this.#usage = undefined;
		this.lines.assistant({...message, ...(usage === undefined ? {} : {usage})});
	}

	/** Usage counted after the turn's last message: a message of its own (it adds to the turn's tally). */
	#flushUsage(): void {
		if (this.#usage !== undefined && this.lines.turnOpen) {
			this.#assistant({});
		}
	}

	#call(item: Fields): void {
		const id = textOf(item.call_id ?? item.id);
		const name = item.type === 'local_shell_call' ? 'local_shell' : textOf(item.name);
		let input: Fields;
		if (item.type === 'custom_tool_call') {
			input = {input: textOf(item.input)};
		} else if (item.type === 'local_shell_call') {
			input = fieldsOf(item.action);
		} else {
			try {
				input = fieldsOf(JSON.parse(textOf(item.arguments)));
			} catch {
				input = {arguments: textOf(item.arguments)};
			}
		}

		const command = commandOf(input);
		this.#calls.set(id, {name, input, ...(command === undefined ? {} : {command})});
		const server = /^mcp__(.+?)__/.exec(name)?.[1];
		this.lines.call({id, name, input, view: this.#callView(name, input, command), ...(server === undefined ? {} : {server})});
		if (name === 'update_plan' && Array.isArray(input.plan)) {
			this.lines.todos(input.plan.map(step => fieldsOf(step)).map(step => ({content: textOf(step.step), status: step.status === 'completed' || step.status === 'in_progress' ? step.status : 'pending'})));
		}
	}

	#callView(name: string, input: Fields, command: string | undefined): ToolCallView {
		const patch = patchText(name, input, command);
		if (patch !== undefined) {
			const diffs = patchDiffs(patch, this.#cwd);
			return {card: 'diff', title: `Patch ${[...new Set(diffs.map(diff => diff.path))].join(', ')}`, diffs, locations: [...new Set(diffs.map(diff => diff.path))].map(path => ({path}))};
		}

		if (command !== undefined) {
			const workdir = stringField(input, 'workdir');
			return {card: 'terminal', title: command, ...(workdir === undefined ? {} : {cwd: workdir})};
		}

		if (name === 'update_plan') {
			return genericCall('Update the plan', input.explanation, 'other');
		}

		return genericCall(name, input);
	}

	#output(id: string, output: unknown): void {
		const call = this.#calls.get(id) ?? {name: '', input: {}};
		// A call is answered once: what is kept of it for its result goes (a long session keeps no copy of every input).
		this.#calls.delete(id);
		const text = typeof output === 'string' ? output : textOf(fieldsOf(output).content ?? output);
		this.lines.result(this.#result(id, call, text));
	}

	#result(id: string, call: {readonly name: string; readonly input: Fields; readonly command?: string}, text: string): ForeignToolResult {
		if (/^(?:[^\n]*\n)*aborted by user\s*$/.test(text) && text.length < 4096) {
			return {id, text, isError: true, code: 'ABORTED'};
		}

		const parsed = commandOutput(text);
		const patch = patchText(call.name, call.input, call.command);
		if (patch !== undefined) {
			const diffs = this.#changes.get(id) ?? patchDiffs(patch, this.#cwd);
			this.#changes.delete(id);
			const failed = parsed.exitCode !== undefined && parsed.exitCode !== 0;
			return failed ? {id, text, isError: true} : {id, text: parsed.output, isError: false, view: {card: 'diff', diffs}};
		}

		if (call.command !== undefined) {
			return terminalResult(id, parsed.output, parsed.exitCode);
		}

		return {id, text, isError: false};
	}
}

/** The command line of a shell call's arguments (a string, or an argv whose `bash -lc` is unwrapped). */
function commandOf(input: Fields): string | undefined {
	const command = input.cmd ?? input.command;
	if (typeof command === 'string') {
		return command;
	}

	if (Array.isArray(command) && command.every(part => typeof part === 'string') && command.length > 0) {
		const argv = command as string[];
		return argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0]!) && (argv[1] === '-lc' || argv[1] === '-c') ? argv[2] : argv.join(' ');
	}

	return undefined;
}

/** The patch of an `apply_patch` call: its own tool's input, or a command `apply_patch <<'EOF' … EOF`. */
function patchText(name: string, input: Fields, command: string | undefined): string | undefined {
	if (name === 'apply_patch') {
		return textOf(input.input ?? input.patch);
	}

	const heredoc = command === undefined ? null : /^\s*apply_patch\s+<<\s*['"]?(\w+)['"]?\n([\s\S]*?)\n\1\s*$/.exec(command);
	return heredoc === null ? undefined : heredoc[2];
}

/** The files of an apply_patch text (`*** Add File:`, `*** Update File:`, `*** Delete File:`) as diffs (no line numbers: the patch has none). */
function patchDiffs(patch: string, cwd: string | undefined): FileDiff[] {
	const diffs: FileDiff[] = [];
	let file: {path: string; kind: string; old: string[]; new: string[]} | undefined;
	const close = (): void => {
		if (file === undefined) {
			return;
		}

		if (file.kind === 'Add') {
			diffs.push(newFileDiff(file.path, file.new.join('\n')));
		} else if (file.old.length > 0 || file.new.length > 0) {
			diffs.push({path: file.path, oldText: file.old.length === 0 ? null : file.old.join('\n'), newText: file.new.join('\n')});
		}

		if (file.kind === 'Update') {
			file.old = [];
			file.new = [];
		}
	};

	for (const line of patch.split('\n')) {
		const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
		if (header !== null) {
			close();
			file = {path: shownPath(header[2]!, cwd), kind: header[1]!, old: [], new: []};
			if (file.kind === 'Delete') {
				diffs.push({path: file.path, oldText: '', newText: ''});
			}

			continue;
		}

		if (file === undefined || line.startsWith('***')) {
			continue;
		}

		if (line.startsWith('@@')) {
			close();
			continue;
		}

		if (line.startsWith('+')) {
			file.new.push(line.slice(1));
		} else if (line.startsWith('-')) {
			file.old.push(line.slice(1));
		} else if (line.startsWith(' ')) {
			file.old.push(line.slice(1));
			file.new.push(line.slice(1));
		}
	}

	close();
	return diffs;
}

/** A file change Codex reported (`changes`: path → add / update with a unified diff / delete) as diffs with line numbers. */
function changeDiffs(changes: Fields, cwd: string | undefined): FileDiff[] {
	const diffs: FileDiff[] = [];
	for (const [path, change] of Object.entries(changes)) {
		const fields = fieldsOf(change);
		const shown = shownPath(path, cwd);
		if (fields.type === 'add') {
			diffs.push(newFileDiff(shown, textOf(fields.content)));
		} else if (fields.type === 'update') {
			for (const hunk of unifiedDiffHunks(shown, textOf(fields.unified_diff))) {
				diffs.push(hunk);
			}

		} else if (fields.type === 'delete') {
			diffs.push({path: shown, oldText: textOf(fields.content), newText: ''});
		}
	}

	return diffs;
}

/**
A command's output as Codex records it: `…Process exited with code N…Output:\n<text>` (unified
exec), `Exit code: N … Output:\n<text>`, or JSON `{"output": …, "metadata": {"exit_code": N}}`
(rollouts before 0.3x); the exit is undefined when the text names none.
*/
function commandOutput(text: string): {readonly output: string; readonly exitCode?: number} {
	if (text.startsWith('{')) {
		try {
			const parsed = fieldsOf(JSON.parse(text));
			const exit = fieldsOf(parsed.metadata).exit_code;
			if (typeof parsed.output === 'string') {
				return {output: parsed.output, ...(typeof exit === 'number' ? {exitCode: exit} : {})};
			}
		} catch {
			// Not the JSON shape: read as text below.
		}
	}

	// The header ends at the first `Output:` after the last exit line (the command's own text may hold either).
	const header = /^(?:[^\n]*\n){0,8}?Output:\n/.exec(text);
	const head = header === null ? '' : header[0];
	const nested = /^Exit code: -?\d+\n(?:[^\n]*\n){0,3}?Output:\n/.exec(text.slice(head.length));
	const whole = head + (nested === null ? '' : nested[0]);
	const output = text.slice(whole.length);
	const last = [...whole.matchAll(/(?:Process exited with code|Exit code:) (-?\d+)/g)].at(-1);
	return {output, ...(last === undefined ? {} : {exitCode: Number(last[1])})};
}
