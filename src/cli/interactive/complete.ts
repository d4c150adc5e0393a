/**
@module Tab completion for the prompt: commands at the start of a line, tool names, programs on
PATH after `!`, and paths relative to the session's directory.
*/
import {constants} from 'node:fs';
import {access, readdir} from 'node:fs/promises';
import {delimiter, dirname, join, resolve} from 'node:path';
import {PROMPT_COMMANDS} from './prompt-command.js';

/** Candidates for the word before `cursor`; the full replacement word each. */
export async function completePromptWord(line: string, cursor: number, context: {readonly cwd: string; readonly toolNames: ReadonlySet<string>; readonly path?: string}): Promise<string[]> {
	const before = line.slice(0, cursor);
	const word = /\S*$/.exec(before)![0];
	const isFirst = before.trimStart() === word;
	if (isFirst && !word.startsWith('!')) {
		const names = [...PROMPT_COMMANDS, ...[...context.toolNames].sort()];
		return names.filter(name => name.startsWith(word));
	}

	if (isFirst && !word.includes('/')) {
		// `!gi` → the programs on PATH that start with `gi`, as a shell completes its first word.
		const programs = await completeProgram(word.slice(1), context.path ?? process.env.PATH ?? '');
		return programs.map(program => `!${program}`);
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

/** Executables on `path` (a PATH value) whose names start with `prefix`, each once, sorted. */
export async function completeProgram(prefix: string, path: string): Promise<string[]> {
	const found = new Set<string>();
	for (const directory of path.split(delimiter)) {
		if (directory === '') {
			continue;
		}

		let names: string[];
		try {
			// eslint-disable-next-line no-await-in-loop -- PATH order, a handful of folders
			names = await readdir(directory);
		} catch {
			continue;
		}

		for (const name of names) {
			if (name.startsWith(prefix) && !found.has(name)) {
				try {
					// eslint-disable-next-line no-await-in-loop -- only the names that match
					await access(join(directory, name), constants.X_OK);
					found.add(name);
				} catch {
					// Not executable (or gone): not a program to run.
				}
			}
		}
	}

	return [...found].sort().slice(0, 200);
}
