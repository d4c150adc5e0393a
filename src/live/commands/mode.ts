/**
@module `/mode [NAME]`: the session's modes with the current one marked, or a switch to one of them
(as Shift+Tab cycles them): cardterm's `ask`, `edits`, `plan` and `bypass` in a native session,
the agent's announced modes in an ACP session.
*/
import type {PromptCommand} from './prompt-command.js';

export const modeCommand: PromptCommand = {
	name: '/mode',
	args: '[NAME]',
	help: 'show the modes, or switch to one (Shift+Tab cycles them)',
	available: session => session.modes !== undefined,
	async complete(word, first, session) {
		return first ? (session.modes?.available() ?? []).map(mode => mode.id).filter(id => id.startsWith(word)) : [];
	},
	async run(text, context) {
		const modes = context.modes!;
		const wanted = text.trim();
		const available = modes.available();
		if (wanted === '') {
			const current = modes.current();
			const rows = available.map(mode => `${mode.id === current ? '●' : '○'} ${mode.id}${mode.label === mode.id ? '' : ` (${mode.label})`}`);
			context.say(available.length === 0 ? 'this session has no modes' : `modes (Shift+Tab cycles them):\n${rows.join('\n')}`, 'info');
			return;
		}

		const said = await modes.set(wanted, 'command');
		if (said !== undefined) {
			context.say(said, said.startsWith('no mode') ? 'error' : 'info');
		}
	},
};
