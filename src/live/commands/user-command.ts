/**
@module A command the person wrote (`src/host/user-commands.ts` reads the files) as a row of the
session's table: `/help` and the `/` completion show it with its description and argument hint, and
running it sends its prompt, the arguments filled in, to the model or the agent as the person's
message — in a native and an ACP session alike, and through `-p "/name args"`. Shell commands in
the body (`` !`…` ``, `!{…}`: `inline-shell.ts`) run first, as the person's own `!command` does (a
native session's bash call: its card, its approval, its caps), and their output takes their place.
*/
import type {UserCommandFile} from '../../host/user-commands.js';
import type {TaskDriver} from '../session-driver.js';
import {bodyPieces, fillPieces, inlineOutput, type BodyPiece} from './inline-shell.js';
import type {CommandContext, PromptCommand} from './prompt-command.js';

export function userCommand(file: UserCommandFile): PromptCommand {
	return {
		name: file.name,
		...(file.argumentHint === undefined ? {} : {args: file.argumentHint}),
		help: `${file.description ?? firstLine(file.body)} (${file.scope === 'project' ? '.cardterm/commands' : 'your commands'})`,
		run(text, context) {
			const pieces = bodyPieces(file.body);
			if (!pieces.some(piece => 'shell' in piece)) {
				context.queue({kind: 'prompt', text: expandCommand(file.body, text)});
				return;
			}

			// Its shell commands run in its turn in the queue, just before its prompt is sent.
			context.queue({kind: 'task', label: context.line.trim(), run: async (_signal, driver) => {
				const prompt = await withShellOutput(file, pieces, text, driver, context);
				if (prompt !== undefined) {
					await driver.run({kind: 'prompt', text: prompt});
				}
			}});
		},
	};
}

/**
The prompt of a command file whose body runs shell commands: each runs in order, as the session's
bash call, and its output takes its place. One refused or cancelled stops the command: its prompt is
not sent (a prompt missing what it was written to hold would mislead the model).
*/
async function withShellOutput(file: UserCommandFile, pieces: readonly BodyPiece[], args: string, driver: TaskDriver, context: CommandContext): Promise<string | undefined> {
	if (driver.shell === undefined) {
		context.say(`${file.name}: its !\`command\` lines run shell commands, which this session cannot run here; not sent`, 'error');
		return undefined;
	}

	if (context.model?.model === undefined) {
		// Nothing would take the prompt: its commands are not run for nothing.
		context.say(`${file.name}: not run: no model is connected to take its prompt (/model connects one)`, 'error');
		return undefined;
	}

	const filled = fillPieces(pieces, args);
	let prompt = '';
	for (const piece of filled.pieces) {
		if ('text' in piece) {
			prompt += piece.text;
			continue;
		}

		// eslint-disable-next-line no-await-in-loop -- in order, as written
		const outcome = await driver.shell(piece.shell, `${file.name}: !\`${piece.shell}\``);
		if ('refused' in outcome) {
			context.say(`${file.name}: !\`${piece.shell}\` did not run (${outcome.refused}); its prompt was not sent`, 'error');
			return undefined;
		}

		prompt += inlineOutput(outcome.output);
	}

	return withArguments(prompt, filled.used, args);
}

/** The session's table with the person's commands after it; a name the table has stays the table's. */
export function withUserCommands(table: readonly PromptCommand[], files: readonly UserCommandFile[]): PromptCommand[] {
	const taken = new Set(table.flatMap(command => [command.name, ...(command.aliases ?? [])]));
	return [...table, ...files.filter(file => !taken.has(file.name)).map(file => userCommand(file))];
}

/**
`-p "/name args"`: the prompt of the person's command `/name` with `args` filled in, or `undefined`
when `line` calls none. A command that runs shell commands is refused (thrown): `-p` runs none
before its prompt, and a prompt without their output would mislead the model.
*/
export function userCommandPrompt(line: string, files: readonly UserCommandFile[]): string | undefined {
	const word = /^\/\S*/u.exec(line.trim())?.[0];
	const file = files.find(each => each.name === word);
	if (file !== undefined && bodyPieces(file.body).some(piece => 'shell' in piece)) {
		throw new Error(`${file.name} runs shell commands (!\`…\` in ${file.path}), which -p does not run; use it in the interactive session`);
	}

	return file === undefined ? undefined : expandCommand(file.body, line.trim().slice(word!.length).trim());
}

/**
Claude Code's placeholders: `$ARGUMENTS` is all of `args`, `$1`…`$9` its words (quotes group them);
a body with neither gets the arguments appended, so none are lost.
*/
export function expandCommand(body: string, args: string): string {
	const filled = fillPieces([{text: body}], args);
	return withArguments(filled.pieces.map(piece => 'text' in piece ? piece.text : '').join(''), filled.used, args);
}

/** The prompt, with the arguments appended when no placeholder took them. */
function withArguments(prompt: string, used: boolean, args: string): string {
	return used || args === '' ? prompt : `${prompt}\n\nARGUMENTS: ${args}`;
}

function firstLine(body: string): string {
	const line = body.split('\n').find(each => each.trim() !== '')?.trim() ?? '';
	return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
