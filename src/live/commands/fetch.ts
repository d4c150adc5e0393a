/** @module `/fetch URL`: a web page as Markdown, through the web_fetch tool. */
import {splitWords, withTools, type PromptCommand} from './prompt-command.js';

export const fetchCommand: PromptCommand = {
	name: '/fetch',
	args: 'URL',
	help: 'fetch a web page as Markdown',
	available: withTools,
	run(text, context) {
		const words = splitWords(text);
		if (words.length !== 1) {
			context.say('usage: /fetch URL', 'error');
			return;
		}

		context.queue({kind: 'tool', name: 'web_fetch', args: {url: words[0]}});
	},
};
