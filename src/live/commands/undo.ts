/**
@module `/undo [N]`: take back the file changes of the last turn (or the last N turns that changed
files) — the agent's edits and writes, an ACP agent's writes, the person's own `/edit` — as undo cards
in the log. It waits for the running turn to end; a file changed since is never overwritten.
*/
import {UNDO_MAX_TURNS} from '../../host/session-undo.js';
import {splitWords, type PromptCommand} from './prompt-command.js';

export const undoCommand: PromptCommand = {
	name: '/undo',
	args: '[N]',
	help: 'take back the file changes of the last turn (or N turns); /redo puts them back',
	available: session => session.undo !== undefined,
	run(text, context) {
		const words = splitWords(text);
		const turns = words.length === 0 ? 1 : Number(words[0]);
		if (words.length > 1 || !Number.isSafeInteger(turns) || turns < 1 || turns > UNDO_MAX_TURNS) {
			context.say(`usage: /undo [N] (N: 1 to ${UNDO_MAX_TURNS} turns)`, 'error');
			return;
		}

		const undo = context.undo!;
		context.queue({kind: 'task', label: context.line.trim(), async run() {
			const outcome = await undo.undo(turns);
			context.say(outcome.message, outcome.tone);
		}});
	},
};
