/** @module `!<command>`: run a shell command with the bash tool; Tab completes programs on PATH, then paths. */
import {completeShellWord} from '../complete.js';
import {withTools, type PromptCommand} from './prompt-command.js';

export const shellCommand: PromptCommand = {
	name: '!',
	usage: '!<command>',
	help: 'run a shell command (bash)',
	available: withTools,
	claims: text => text.startsWith('!'),
	complete: async (word, first, session) => completeShellWord(word, first, session.cwd),
	run(text, context) {
		const command = text.slice(1).trim();
		if (command === '') {
			context.say('usage: !<command>', 'error');
			return;
		}

		// The card shows the command; its description is the command too, so the card does not repeat it.
		context.queue({kind: 'tool', name: 'bash', args: {command, description: command}});
	},
};
