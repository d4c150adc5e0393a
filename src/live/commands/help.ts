/**
@module `/help [TOOL]` (and a bare `/`): the session's commands laid out for the terminal's width,
then its keys; or one tool's description and parameters from its schema. Tab completes tool names.
*/
import {sanitizeInline} from '../../layout/text/sanitize.js';
import {helpLines} from '../notice-lines.js';
import {toolHelpLines} from '../tool-help.js';
import {commandWords, splitWords, type PromptCommand} from './prompt-command.js';

/** The table's rows: each command's form and what it does. */
export function helpRows(commands: readonly PromptCommand[]): Array<readonly [string, string]> {
	return commands.map(command => [command.usage ?? (command.args === undefined ? command.name : `${command.name} ${command.args}`), command.help] as const);
}

export const helpCommand: PromptCommand = {
	name: '/help',
	aliases: ['/'],
	args: '[TOOL]',
	help: 'this list, or a tool\'s description and parameters',
	async complete(word, _first, session) {
		return [...session.tools?.names() ?? []].sort().filter(name => name.startsWith(word));
	},
	run(text, context) {
		const words = splitWords(text);
		if (words.length > 1) {
			context.say('usage: /help [TOOL]', 'error');
			return;
		}

		const rows = helpRows(context.commands);
		const [topic] = words;
		if (topic === undefined) {
			// The command table is laid out for the terminal's width when it is written.
			context.show([...helpLines(rows, context.helpNotes), {spans: []}], width => [...helpLines(rows, context.helpNotes, width), {spans: []}]);
			return;
		}

		const name = topic.replace(/^\//, '');
		const tool = context.tools?.schema(name);
		if (tool !== undefined) {
			context.show([...toolHelpLines(tool), {spans: []}]);
			return;
		}

		const known = commandWords(context).includes(`/${name}`) ? ` (/${name} is a command: see /help)` : '';
		context.say(`/help: no tool named ${sanitizeInline(name)}${known}; /tools lists the tools`, 'error');
	},
};
