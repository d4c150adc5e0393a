/**
@module Tab completion for the prompt: commands at the start of a line, tool names, and paths
relative to the session's directory.
*/
import {readdir} from 'node:fs/promises';
import {dirname, join, resolve} from 'node:path';
import {PROMPT_COMMANDS} from './prompt-command.js';

/** Candidates for the word before `cursor`; the full replacement word each. */
export async function completePromptWord(line: string, cursor: number, context: {readonly cwd: string; readonly toolNames: ReadonlySet<string>}): Promise<string[]> {
	const before = line.slice(0, cursor);
	const word = /\S*$/.exec(before)![0];
	const isFirst = before.trimStart() === word;
	if (isFirst && !word.startsWith('!')) {
		const names = [...PROMPT_COMMANDS, ...[...context.toolNames].sort()];
		return names.filter(name => name.startsWith(word));
	}

	return completePath(word.startsWith('!') ? word.slice(1) : word, context.cwd).then(paths => word.startsWith('!') ? paths.map(path => `!${path}`) : paths);
}

/** Paths under `cwd` that start with `partial`; directories end with `/`. */
export async function completePath(partial: string, cwd: string): Promise<string[]> {
	const directoryPart = partial.endsWith('/') ? partial : (partial.includes('/') ? `${dirname(partial)}/` : '');
	const namePart = partial.slice(directoryPart.length);
	let entries;
	try {
		entries = await readdir(resolve(cwd, directoryPart === '' ? '.' : directoryPart), {withFileTypes: true});
	} catch {
		return [];
	}

	return entries
		.filter(entry => entry.name.startsWith(namePart) && (namePart.startsWith('.') || !entry.name.startsWith('.')))
		.map(entry => join(directoryPart, entry.name) + (entry.isDirectory() ? '/' : ''))
		.map(path => (directoryPart === '' ? path : path))
		.sort()
		.slice(0, 200);
}
