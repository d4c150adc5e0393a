/**
@module `/fork`: go on in a new session that starts with this one's conversation; this session's log
stays as it is, and the new one's header names it (`cardterm sessions` lists the fork under it).
*/
import type {PromptCommand} from './prompt-command.js';

export const forkCommand: PromptCommand = {
	name: '/fork',
	help: 'go on in a new session with this conversation (this one stays as it is)',
	available: session => session.forks?.fork !== undefined,
	run(text, context) {
		if (text !== '') {
			context.say('usage: /fork (cardterm --fork SESSION@ENTRY forks from any point)', 'error');
			return;
		}

		const forks = context.forks!;
		context.queue({kind: 'task', label: '/fork', async run() {
			const fork = await forks.fork!();
			context.say(`forked into session ${fork.header.id} (${fork.events.length} events); this session stays as it was`, 'info');
			context.continueIn(fork);
		}});
	},
};
