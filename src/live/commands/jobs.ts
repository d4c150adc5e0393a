/** @module `/jobs`: the background jobs, through the job_list tool. */
import {withTools, type PromptCommand} from './prompt-command.js';

export const jobsCommand: PromptCommand = {
	name: '/jobs',
	help: 'list background jobs',
	available: withTools,
	run(text, context) {
		if (text !== '') {
			context.say('usage: /jobs', 'error');
			return;
		}

		context.queue({kind: 'tool', name: 'job_list', args: {}});
	},
};
