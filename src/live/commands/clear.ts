/** @module `/clear`: clear the screen (also Ctrl+L); what was on it moves to the scrollback, and the log keeps everything. */
import type {PromptCommand} from './prompt-command.js';

export const clearCommand: PromptCommand = {
	name: '/clear',
	help: 'clear the screen (the log keeps everything; also Ctrl+L)',
	run(text, context) {
		if (text !== '') {
			context.say('usage: /clear', 'error');
			return;
		}

		context.clearScreen();
	},
};
