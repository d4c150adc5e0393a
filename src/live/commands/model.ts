/**
@module `/model [PROVIDER:MODEL]`: what the model is and where it was configured; with a spec, switch
to it from the next message on (the conversation is kept), or connect one to a session started
without a model.
*/
import {splitWords, type PromptCommand} from './prompt-command.js';

export const modelCommand: PromptCommand = {
	name: '/model',
	args: '[PROVIDER:MODEL]',
	help: 'the model; or connect one, or switch to another, for the next message',
	available: session => session.model !== undefined,
	run(text, context) {
		const model = context.model!;
		const words = splitWords(text);
		if (words.length === 0) {
			context.say(model.describe(), 'info');
			return;
		}

		if (words.length > 1) {
			context.say('usage: /model [PROVIDER:MODEL]', 'error');
			return;
		}

		const said = model.switchTo(words[0]!);
		context.say(said.message, said.ok ? 'info' : 'error');
	},
};
