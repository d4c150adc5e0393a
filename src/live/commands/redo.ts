/** @module `/redo`: take back the last `/undo` (nothing to redo once a file was changed since), as cards in the log. */
import type {PromptCommand} from './prompt-command.js';

export const redoCommand: PromptCommand = {
	name: '/redo',
	help: 'put back what the last /undo took back',
	available: session => session.undo !== undefined,
	run(text, context) {
		if (text !== '') {
			context.say('usage: /redo', 'error');
			return;
		}

		const undo = context.undo!;
		context.queue({kind: 'task', label: '/redo', async run() {
			const outcome = await undo.redo();
			context.say(outcome.message, outcome.tone);
		}});
	},
};
