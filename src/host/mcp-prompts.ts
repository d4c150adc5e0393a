/**
@module An MCP server's prompt as the person uses it: the arguments typed after its slash command
(`/mcp__SERVER__PROMPT a "b c"`) matched to the prompt's declared arguments, and the `prompts/get`
result made into the text sent as the person's message. cardterm sends a message as text, so text and
embedded text resources go as they came; an image, audio, a blob resource or a resource link is
named in a line of its own (type, size, URI), never silently dropped. Messages of more than one role
are each marked with their role, so an assistant turn the prompt scripts is not taken for the
person's words.
*/
import type {GetPromptResult, Prompt} from '@modelcontextprotocol/client';
import {base64Bytes} from '../builtin/mcp/mcp-result.js';
import {sizeText} from '../presentation/size-text.js';
import {isPlainRecord} from '../json/is-plain-record.js';

/** One ready server's prompt, as the command table offers it. */
export type McpPromptEntry = {readonly server: string; readonly prompt: Prompt};

/** The prompt's arguments as `/help` shows them: `city [state]` (required bare, optional in brackets). */
export function promptArgumentHint(prompt: Prompt): string | undefined {
	const words = (prompt.arguments ?? []).map(argument => {
		const name = argument.name.replaceAll(/[^\w.-]/gu, '_');
		return argument.required === true ? `<${name}>` : `[${name}]`;
	});
	return words.length === 0 ? undefined : words.join(' ');
}

/**
The words typed after the command given to the prompt's arguments in their declared order (Claude
Code's rule); words past the last argument join it, so a sentence is not lost. A required argument
left out is a problem naming it.
*/
export function promptArgumentValues(prompt: Prompt, words: readonly string[]): {readonly values: Record<string, string>} | {readonly problem: string} {
	const declared = prompt.arguments ?? [];
	const values: Record<string, string> = {};
	for (const [index, argument] of declared.entries()) {
		const value = index === declared.length - 1 ? words.slice(index).join(' ') : words[index];
		if (value !== undefined && value !== '') {
			values[argument.name] = value;
		}
	}

	if (declared.length === 0 && words.length > 0) {
		return {problem: `the prompt "${prompt.name}" takes no arguments`};
	}

	const missing = declared.filter(argument => argument.required === true && values[argument.name] === undefined).map(argument => argument.name);
	if (missing.length > 0) {
		return {problem: `the prompt "${prompt.name}" needs ${missing.join(', ')}${promptArgumentHint(prompt) === undefined ? '' : ` (${promptArgumentHint(prompt)!})`}`};
	}

	return {values};
}

/** The text of a `prompts/get` result the person's message becomes, and how many items were named instead of sent. */
export function promptMessageText(result: GetPromptResult): {readonly text: string; readonly named: number} {
	const messages = result.messages;
	const roles = new Set(messages.map(message => message.role));
	let named = 0;
	const parts = messages.map(message => {
		const said = contentText(message.content as unknown);
		if (said.named) {
			named++;
		}

		return roles.size > 1 ? `[${message.role}]\n${said.text}` : said.text;
	});
	return {text: parts.join('\n\n'), named};
}

/** One message's content as text: text itself, an embedded text resource with its URI, anything else named. */
function contentText(content: unknown): {readonly text: string; readonly named: boolean} {
	if (!isPlainRecord(content)) {
		return {text: '[an item cardterm cannot read: not sent]', named: true};
	}

	switch (content.type) {
		case 'text': {
			return {text: typeof content.text === 'string' ? content.text : '', named: false};
		}

		case 'image':
		case 'audio': {
			const type = typeof content.mimeType === 'string' ? content.mimeType : 'unknown type';
			const size = typeof content.data === 'string' ? ` · ${sizeText(base64Bytes(content.data))}` : '';
			return {text: `[${content.type} · ${type}${size}: not sent, cardterm sends a prompt as text]`, named: true};
		}

		case 'resource': {
			const resource = isPlainRecord(content.resource) ? content.resource : {};
			const uri = typeof resource.uri === 'string' ? resource.uri : 'a resource without a URI';
			const type = typeof resource.mimeType === 'string' ? ` · ${resource.mimeType}` : '';
			if (typeof resource.text === 'string') {
				return {text: `[resource ${uri}${type}]\n${resource.text}`, named: false};
			}

			const size = typeof resource.blob === 'string' ? ` · ${sizeText(base64Bytes(resource.blob))}` : '';
			return {text: `[resource ${uri}${type}${size}: its bytes not sent, cardterm sends a prompt as text]`, named: true};
		}

		case 'resource_link': {
			const uri = typeof content.uri === 'string' ? content.uri : '?';
			const name = typeof content.name === 'string' ? ` (${content.name})` : '';
			return {text: `[resource link ${uri}${name}]`, named: false};
		}

		default: {
			return {text: `[an item of type "${String(content.type).slice(0, 40)}": not sent]`, named: true};
		}
	}
}
