/**
@module The path of `/write PATH` or `/edit PATH`, checked as the write or edit tool will check it
(inside the workspace; an edit's file exists) before the person is asked for any text.
*/
import {mutationTarget, WorkspaceGuard} from '../../builtin/fs.js';
import {splitWords, type CommandContext} from './prompt-command.js';

/** The path `text` names, or undefined once the usage or the tool's refusal is said. */
export async function mutationPath(text: string, operation: 'write' | 'edit', context: CommandContext): Promise<string | undefined> {
	const words = splitWords(text);
	if (words.length !== 1) {
		context.say(`usage: /${operation} PATH`, 'error');
		return undefined;
	}

	const path = words[0]!;
	try {
		await mutationTarget(new WorkspaceGuard({workspace: context.cwd}), path, operation);
	} catch (error) {
		context.say(`/${operation}: ${(error as Error).message}`, 'error');
		return undefined;
	}

	return path;
}
