/**
@module `/compact [FOCUS]`: compact the conversation now (between turns): old tool results pruned,
then the older messages summarised, keeping above all what FOCUS names. The compaction's card
shows what it did; this says the figures, or why nothing was done.
*/
import type {PromptCommand} from './prompt-command.js';

export const compactCommand: PromptCommand = {
	name: '/compact',
	args: '[FOCUS]',
	help: 'compact the conversation now (prune old results, summarise the rest), keeping FOCUS',
	available: session => session.model?.compact !== undefined,
	async run(text, context) {
		const focus = text.trim();
		const said = await context.model!.compact!(focus === '' ? undefined : focus, new AbortController().signal);
		context.say(said.message, said.ok ? 'info' : 'error');
	},
};
