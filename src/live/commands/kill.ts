/** @module `/kill ID`: kill a background job, through the job_kill tool. */
import {splitWords, withTools, type PromptCommand} from './prompt-command.js';

export const killCommand: PromptCommand = {
	name: '/kill',
	args: 'ID',
	help: 'kill a background job',
	available: withTools,
	run(text, context) {
		const words = splitWords(text);
		if (words.length !== 1) {
			context.say('usage: /kill ID', 'error');
			return;
		}

		context.queue({kind: 'tool', name: 'job_kill', args: {job_id: words[0]}});
	},
};
