/**
@module A command the person wrote (`src/host/user-commands.ts` reads the files) as a row of the
session's table: `/help` and the `/` completion show it with its description and argument hint, and
running it sends its prompt, the arguments filled in, to the model or the agent as the person's
message — in a native and an ACP session alike, and through `-p "/name args"`.
*/
import type {UserCommandFile} from '../../host/user-commands.js';
import {splitWords, type PromptCommand} from './prompt-command.js';

export function userCommand(file: UserCommandFile): PromptCommand {
	return {
		name: file.name,
		...(file.argumentHint === undefined ? {} : {args: file.argumentHint}),
		help: `${file.description ?? firstLine(file.body)} (${file.scope === 'project' ? '.cardterm/commands' : 'your commands'})`,
		run(text, context) {
			context.queue({kind: 'prompt', text: expandCommand(file.body, text)});
		},
	};
}

/** The session's table with the person's commands after it; a name the table has stays the table's. */
export function withUserCommands(table: readonly PromptCommand[], files: readonly UserCommandFile[]): PromptCommand[] {
	const taken = new Set(table.flatMap(command => [command.name, ...(command.aliases ?? [])]));
	return [...table, ...files.filter(file => !taken.has(file.name)).map(file => userCommand(file))];
}

/** `-p "/name args"`: the prompt of the person's command `/name` with `args` filled in, or `undefined` when `line` calls none. */
export function userCommandPrompt(line: string, files: readonly UserCommandFile[]): string | undefined {
	const word = /^\/\S*/u.exec(line.trim())?.[0];
	const file = files.find(each => each.name === word);
	return file === undefined ? undefined : expandCommand(file.body, line.trim().slice(word!.length).trim());
}

/**
Claude Code's placeholders: `$ARGUMENTS` is all of `args`, `$1`…`$9` its words (quotes group them);
a body with neither gets the arguments appended, so none are lost.
*/
export function expandCommand(body: string, args: string): string {
	const words = splitWords(args);
	let used = false;
	const expanded = body.replaceAll(/\$(ARGUMENTS|[1-9])/gu, (_, which: string) => {
		used = true;
		return which === 'ARGUMENTS' ? args : words[Number(which) - 1] ?? '';
	});
	return used || args === '' ? expanded : `${expanded}\n\nARGUMENTS: ${args}`;
}

function firstLine(body: string): string {
	const line = body.split('\n').find(each => each.trim() !== '')?.trim() ?? '';
	return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
