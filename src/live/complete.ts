/**
@module Tab completion's sources beyond the command table: programs on PATH after `!`, and paths
relative to the session's directory.
*/
import {accessSync, constants} from 'node:fs';
import {access, readdir} from 'node:fs/promises';
import {delimiter, dirname, join, resolve} from 'node:path';

/**
A shell line's word (`!…`): the first word is a program on PATH (`!gi` → `!git`), as a shell completes
it, unless it is a path (`!./scr`); any later word is a path. Candidates are whole replacement words.
*/
export async function completeShellWord(word: string, first: boolean, cwd: string, path = process.env.PATH ?? ''): Promise<string[]> {
	if (first && !word.includes('/')) {
		const programs = await completeProgram(word.slice(1), path);
		return programs.map(program => `!${program}`);
	}

	const bang = word.startsWith('!');
	const paths = await completePath(bang ? word.slice(1) : word, cwd);
	return bang ? paths.map(each => `!${each}`) : paths;
}

/** Paths under `cwd` that start with `partial`; directories end with `/`. */
async function completePath(partial: string, cwd: string): Promise<string[]> {
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

/** Whether `name` is a program on `path` (a PATH value), as a shell would find it; a name with a `/` is no program name. */
export function isProgramOnPath(name: string, path = process.env.PATH ?? ''): boolean {
	if (name === '' || name.includes('/') || name === '.' || name === '..') {
		return false;
	}

	return path.split(delimiter).some(directory => {
		if (directory === '') {
			return false;
		}

		try {
			accessSync(join(directory, name), constants.X_OK);
			return true;
		} catch {
			return false;
		}
	});
}
