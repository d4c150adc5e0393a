/** @module `/grep PATTERN [PATH] [--include GLOB]`: search file contents with the grep tool (`--include` anywhere). */
import {splitWords, withTools, type PromptCommand} from './prompt-command.js';

export const grepCommand: PromptCommand = {
	name: '/grep',
	args: 'PATTERN [PATH] [--include GLOB]',
	help: 'search file contents',
	available: withTools,
	run(text, context) {
		const words = splitWords(text);
		const includeAt = words.indexOf('--include');
		const include = includeAt === -1 ? undefined : words[includeAt + 1];
		const plain = includeAt === -1 ? words : [...words.slice(0, includeAt), ...words.slice(includeAt + 2)];
		if (plain.length === 0 || plain.length > 2 || (includeAt !== -1 && include === undefined)) {
			context.say('usage: /grep PATTERN [PATH] [--include GLOB]', 'error');
			return;
		}

		context.queue({kind: 'tool', name: 'grep', args: {pattern: plain[0], ...(plain[1] === undefined ? {} : {path: plain[1]}), ...(include === undefined ? {} : {include})}});
	},
};
