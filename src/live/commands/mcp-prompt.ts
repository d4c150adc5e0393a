/**
@module A ready MCP server's prompt as a row of the session's table: `/mcp__SERVER__PROMPT args`
(Claude Code's name, sanitised as a tool's is), described by the prompt's description and its
arguments as the hint. Running it asks the server (`prompts/get`) with the words typed matched to
the prompt's arguments in order, and sends the messages it returns as the person's message — to the
model in a native session, to the agent in an ACP one. The table follows the servers: a prompt list
that changes (`listChanged`, a reconnect) changes the commands.
*/
import {distinctMcpToolName, mcpToolName} from '../../builtin/mcp/mcp-tool-name.js';
import {promptArgumentHint, promptArgumentValues, promptMessageText, type McpPromptEntry} from '../../host/mcp-prompts.js';
import {thrownMessage} from '../../tools/errors.js';
import type {SessionMcp} from '../session-driver.js';
import {splitWords, type PromptCommand} from './prompt-command.js';

/** The longest description `/help` shows of a prompt (its first line). */
const HELP_LIMIT = 160;

/** The commands of `mcp`'s prompts now; the same array while the prompts are the same. */
export function mcpPromptCommands(mcp: SessionMcp): readonly PromptCommand[] {
	const prompts = mcp.prompts();
	const known = made.get(prompts);
	if (known !== undefined) {
		return known;
	}

	const taken = new Set<string>();
	const commands = prompts.map(entry => {
		let name = mcpToolName(entry.server, entry.prompt.name);
		if (taken.has(name)) {
			name = distinctMcpToolName(name, entry.server, entry.prompt.name);
		}

		taken.add(name);
		const command = mcpPromptCommand(`/${name}`, entry, mcp);
		entries.set(command, entry);
		return command;
	});
	made.set(prompts, commands);
	return commands;
}

const made = new WeakMap<readonly McpPromptEntry[], readonly PromptCommand[]>();
/** Each command's prompt (for `mcpPromptLine`). */
const entries = new WeakMap<PromptCommand, McpPromptEntry>();

function mcpPromptCommand(name: string, entry: McpPromptEntry, mcp: SessionMcp): PromptCommand {
	const {server, prompt} = entry;
	const hint = promptArgumentHint(prompt);
	return {
		name,
		...(hint === undefined ? {} : {args: hint}),
		help: `${describe(prompt.description ?? prompt.title ?? '')} (MCP prompt of ${server})`,
		async run(text, context) {
			const message = await promptMessage(name, entry, text, mcp);
			if ('problem' in message) {
				context.say(message.problem, 'error');
				return;
			}

			if (message.note !== undefined) {
				context.say(message.note, 'info');
			}

			context.queue({kind: 'prompt', text: message.text});
		},
	};
}

/** What the MCP prompt `line` calls (`/mcp__S__P args`) sends as the person's message, or why nothing; `undefined` when `line` calls none (`-p`'s way in). */
export async function mcpPromptLine(line: string, mcp: SessionMcp): Promise<PromptMessage | undefined> {
	const word = /^\/\S*/u.exec(line.trim())?.[0];
	const command = mcpPromptCommands(mcp).find(each => each.name === word);
	const entry = command === undefined ? undefined : entries.get(command);
	return entry === undefined ? undefined : promptMessage(word!, entry, line.trim().slice(word!.length).trim(), mcp);
}

type PromptMessage = {readonly text: string; readonly note?: string} | {readonly problem: string};

/** The prompt's arguments from `args`, the server asked, its messages made into one text. */
async function promptMessage(name: string, {server, prompt}: McpPromptEntry, args: string, mcp: SessionMcp): Promise<PromptMessage> {
	const matched = promptArgumentValues(prompt, splitWords(args));
	if ('problem' in matched) {
		return {problem: `${name}: ${matched.problem}`};
	}

	let message: ReturnType<typeof promptMessageText>;
	try {
		message = promptMessageText(await mcp.getPrompt(server, prompt.name, matched.values));
	} catch (error) {
		return {problem: `${name}: the server did not give the prompt: ${thrownMessage(error).slice(0, 500)}`};
	}

	if (message.text.trim() === '') {
		return {problem: `${name}: the server's prompt is empty; nothing was sent`};
	}

	return {text: message.text, ...(message.named === 0 ? {} : {note: `${name}: ${message.named} ${message.named === 1 ? 'item' : 'items'} of the prompt named in the message, not sent (cardterm sends a prompt as text)`})};
}

function describe(text: string): string {
	const line = text.split('\n').find(each => each.trim() !== '')?.trim() ?? 'an MCP prompt';
	return line.length > HELP_LIMIT ? `${line.slice(0, HELP_LIMIT - 1)}…` : line;
}
