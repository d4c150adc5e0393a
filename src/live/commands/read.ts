/** @module `/read PATH [OFFSET [LIMIT]]`: a window of a file, through the read tool. */
import {splitWords, withTools, type PromptCommand} from './prompt-command.js';

export const readCommand: PromptCommand = {
	name: '/read',
	args: 'PATH [OFFSET [LIMIT]]',
	help: 'read a file window',
	available: withTools,
	run(text, context) {
		const words = splitWords(text);
		const [path, offset, limit] = words;
		if (path === undefined || words.length > 3) {
			context.say('usage: /read PATH [OFFSET [LIMIT]]', 'error');
			return;
		}

		const args: Record<string, unknown> = {file_path: path};
		for (const [name, value] of [['offset', offset], ['limit', limit]] as const) {
			if (value !== undefined) {
				const number = Number(value);
				if (!Number.isSafeInteger(number) || number < 1) {
					context.say(`/read: ${name} must be a positive integer, got ${value}`, 'error');
					return;
				}

				args[name] = number;
			}
		}

		context.queue({kind: 'tool', name: 'read', args});
	},
};
