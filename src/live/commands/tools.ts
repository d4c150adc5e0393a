/** @module `/tools`: every tool of the session with the first line of its description and its parameters. */
import {toolListLines} from '../tool-help.js';
import type {ToolSchema} from '../../tools/types.js';
import {withTools, type PromptCommand} from './prompt-command.js';

export const toolsCommand: PromptCommand = {
	name: '/tools',
	help: 'the tools, with their parameters',
	available: withTools,
	run(text, context) {
		if (text !== '') {
			context.say('usage: /tools (then /help TOOL)', 'error');
			return;
		}

		const schemas: ToolSchema[] = [];
		for (const name of [...context.tools!.names()].sort()) {
			schemas.push(context.tools!.schema(name) ?? {name, description: '', parameters: {}});
		}

		context.show([...toolListLines(schemas), {spans: []}]);
	},
};
