/**
@module `/context`: how full the model's window is — the meter, where the window's figure comes from,
when a compaction runs — and the next request by parts (system prompt and instructions, tool
schemas, messages, summaries, tool results) with its largest messages by log seq.
*/
import type {PromptCommand} from './prompt-command.js';

export const contextCommand: PromptCommand = {
	name: '/context',
	help: 'how full the model\'s window is, by parts, and its largest messages',
	available: session => session.model?.contextReport !== undefined,
	run(_text, context) {
		context.say(context.model!.contextReport!(), 'info');
	},
};
