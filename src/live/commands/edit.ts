/** @module `/edit PATH`: replace text in a file — the old text, then the new, each typed up to a line holding only ".". */
import {mutationPath} from './mutation-path.js';
import {withTools, type PromptCommand} from './prompt-command.js';

export const editCommand: PromptCommand = {
	name: '/edit',
	args: 'PATH',
	help: 'replace text in a file (old text, then new text)',
	available: withTools,
	async run(text, context) {
		const path = await mutationPath(text, 'edit', context);
		if (path === undefined) {
			return;
		}

		context.collect(`text to replace in ${path}`, oldText => {
			context.collect(`replacement text for ${path}`, newText => {
				context.queue({kind: 'tool', name: 'edit', args: {file_path: path, old_string: oldText, new_string: newText}});
			});
		});
	},
};
