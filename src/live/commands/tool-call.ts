/**
@module `TOOL {json}`: call any registered tool with JSON arguments (`read {"file_path":"a"}`, or a
bare `job_list`). With a model connected, a tool's name followed by words is a message ("read the
README"); without one, it is a call whose arguments are not JSON.
*/
import {withTools, type CommandSession, type PromptCommand} from './prompt-command.js';

/** The tool a line names first, and what follows it. */
function toolCallOf(text: string, session: CommandSession): {readonly name: string; readonly rest: string} | undefined {
	const match = /^([A-Za-z_$][\w$.-]*)(?:\s+([\s\S]*))?$/.exec(text);
	if (match === null || session.tools?.names().has(match[1]!) !== true) {
		return undefined;
	}

	return {name: match[1]!, rest: (match[2] ?? '').trim()};
}

export const toolCallCommand: PromptCommand = {
	name: 'TOOL',
	usage: 'TOOL {json}',
	help: 'call any registered tool with JSON arguments',
	available: withTools,
	claims(text, session) {
		const call = toolCallOf(text, session);
		return call !== undefined && (session.model?.model === undefined || call.rest === '' || call.rest.startsWith('{'));
	},
	run(text, context) {
		const call = toolCallOf(text, context)!;
		if (call.rest === '') {
			context.queue({kind: 'tool', name: call.name, args: {}});
			return;
		}

		let args: unknown;
		try {
			args = JSON.parse(call.rest) as unknown;
		} catch (error) {
			context.say(`${call.name}: arguments are not JSON: ${(error as Error).message}`, 'error');
			return;
		}

		context.queue({kind: 'tool', name: call.name, args, rawArgs: call.rest});
	},
};
