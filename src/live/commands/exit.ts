/** @module `/exit` (or `/quit`): flush the log and quit, as Ctrl+D does. */
import type {PromptCommand} from './prompt-command.js';

export const exitCommand: PromptCommand = {
	name: '/exit',
	aliases: ['/quit'],
	help: 'flush the log and quit (also Ctrl+D)',
	run(_text, context) {
		context.close();
	},
};
