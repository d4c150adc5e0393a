/**
@module An ACP agent's announced slash command (`available_commands_update`) as a row of the
session's table: `/help` lists it with the agent's description, Tab completes it, and running it
sends the line to the agent as typed. A name a cardterm command already has stays cardterm's.
*/
import type {AcpCommand} from '../../acp/acp-events.js';
import type {PromptCommand} from './prompt-command.js';

export function agentCommand(announced: AcpCommand): PromptCommand {
	const hint = announced.hint?.trim() ?? '';
	return {
		name: `/${announced.name}`,
		...(hint === '' ? {} : {args: `[${hint}]`}),
		help: announced.description === '' ? 'the agent\'s command' : announced.description,
		run(_text, context) {
			context.queue({kind: 'prompt', text: context.line});
		},
	};
}
