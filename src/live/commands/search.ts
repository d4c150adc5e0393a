/** @module `/search QUERY`: a web search through the web_search tool (the whole rest of the line is the query). */
import {withTools, type PromptCommand} from './prompt-command.js';

export const searchCommand: PromptCommand = {
	name: '/search',
	args: 'QUERY',
	help: 'web search (needs CARDTERM_SEARXNG_URL)',
	available: withTools,
	run(text, context) {
		if (text === '') {
			context.say('usage: /search QUERY', 'error');
			return;
		}

		context.queue({kind: 'tool', name: 'web_search', args: {queries: [text]}});
	},
};
