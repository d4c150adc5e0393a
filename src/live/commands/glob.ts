/** @module `/glob PATTERN [PATH]`: find files by name with the glob tool. */
import {splitWords, withTools, type PromptCommand} from './prompt-command.js';

export const globCommand: PromptCommand = {
	name: '/glob',
	args: 'PATTERN [PATH]',
	help: 'find files by name',
	available: withTools,
	run(text, context) {
		const words = splitWords(text);
		if (words.length === 0 || words.length > 2) {
			context.say('usage: /glob PATTERN [PATH]', 'error');
			return;
		}

		context.queue({kind: 'tool', name: 'glob', args: {pattern: words[0], ...(words[1] === undefined ? {} : {path: words[1]})}});
	},
};
