/** @module `/pager`: the pager on this session, as Ctrl+O opens it. */
import type {PromptCommand} from './prompt-command.js';

export const pagerCommand: PromptCommand = {
	name: '/pager',
	help: 'open the pager on this session (also Ctrl+O)',
	run(_text, context) {
		context.openPager();
	},
};
