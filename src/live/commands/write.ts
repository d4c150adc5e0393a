/** @module `/write PATH`: write a file from the lines typed next (up to a line holding only "."). */
import {mutationPath} from './mutation-path.js';
import {withTools, type PromptCommand} from './prompt-command.js';

export const writeCommand: PromptCommand = {
	name: '/write',
	args: 'PATH',
	help: 'write a file from the lines you type (end with ".")',
	available: withTools,
	async run(text, context) {
		const path = await mutationPath(text, 'write', context);
		if (path === undefined) {
			return;
		}

		context.collect(`content of ${path}`, content => {
			context.queue({kind: 'tool', name: 'write', args: {file_path: path, content}});
		});
	},
};
