/**
@module The instruction files the agent reads on its own, in the order the system prompt gives them
(the more specific later): the user's global `AGENTS.md` in cardterm's config folder, then the
project's `AGENTS.md` in each folder from the repository's root (the nearest folder holding `.git`)
down to the working directory, `CLAUDE.md` where a folder has no `AGENTS.md` (people bring one from
Claude Code), and — as the agent first works in a folder below the working directory — that
folder's file (`InstructionReader.nested`). A file's `@path` imports follow it, each once (no cycles), at most `IMPORT_DEPTH` deep,
and only inside the workspace or the user's config folder. Each file is read up to `FILE_LIMIT`
characters and all of them up to `TOTAL_LIMIT`; what is cut or left out is said in `notes`, which
the system prompt and `/instructions` both show. Only regular files are read (a FIFO named
`AGENTS.md` would never end).
*/
import {open, realpath, stat} from 'node:fs/promises';
import {dirname, isAbsolute, join, relative, resolve, sep} from 'node:path';
import {userConfigPath} from '../config/config-paths.js';

/** Most of one file that is read; the rest is cut with a note. */
export const FILE_LIMIT = 64 * 1024;
/** Most of all the files together; a file past it is left out with a note. */
export const TOTAL_LIMIT = 128 * 1024;
/** How deep `@path` imports are followed (an import of an import is depth 2). */
export const IMPORT_DEPTH = 5;

const NAMES = ['AGENTS.md', 'CLAUDE.md'] as const;

export type InstructionFile = {
	/** The file's absolute path. */
	readonly path: string;
	/**
	Where it comes from: the user's config folder, the project (the repository's root down to the
	working directory), a folder below the working directory the agent first worked in, or an `@path`
	import of another file.
	*/
	readonly scope: 'user' | 'project' | 'nested' | 'import';
	/** The text that goes to the model (cut at `FILE_LIMIT`). */
	readonly text: string;
	/** Whether the file was longer than `FILE_LIMIT` and was cut. */
	readonly cut: boolean;
	/** The file that imports it (an import). */
	readonly importedBy?: string;
};

export type Instructions = {
	readonly files: readonly InstructionFile[];
	/** What was cut, left out or could not be read, one sentence each. */
	readonly notes: readonly string[];
	/** The workspace the project's files were read from (the repository's root, else the working directory). */
	readonly root: string;
};

/** A rough token count for a person (no tokenizer): four characters a token, as English text runs. */
export function estimatedTokens(text: string): number {
	return Math.ceil(text.length / 4);
}

/** The user's config folder: where the global instruction file and the user's commands live. */
export function userConfigFolder(env: NodeJS.ProcessEnv): string {
	return dirname(userConfigPath(env));
}

export async function loadInstructions(cwd: string, env: NodeJS.ProcessEnv): Promise<Instructions> {
	return (await InstructionReader.open(cwd, env)).instructions();
}

/**
The instruction files of a session as they grow: opened with the user's and the project's files
(`loadInstructions`), then, as the agent first works in a folder below the working directory, the
file that folder holds (`nested`), under the same caps and import rules, each file once.
*/
export class InstructionReader {
	readonly #root: string;
	readonly #cwd: string;
	readonly #env: NodeJS.ProcessEnv;
	readonly #userFolder: string;
	readonly #files: InstructionFile[] = [];
	readonly #notes: string[] = [];
	readonly #seen = new Set<string>();
	/** Folders below the working directory already looked in for a nested file. */
	readonly #looked = new Set<string>();
	#total = 0;

	private constructor(root: string, cwd: string, env: NodeJS.ProcessEnv) {
		this.#root = root;
		this.#cwd = resolve(cwd);
		this.#env = env;
		this.#userFolder = userConfigFolder(env);
	}

	/** The user's file, then the project's from the repository's root down to `cwd`. */
	static async open(cwd: string, env: NodeJS.ProcessEnv): Promise<InstructionReader> {
		const reader = new InstructionReader(await repositoryRoot(cwd), cwd, env);
		const user = await firstPresent(reader.#userFolder);
		if (user !== undefined) {
			await reader.#add(user, 'user', 0);
		}

		for (const folder of foldersDown(reader.#root, cwd)) {
			// eslint-disable-next-line no-await-in-loop -- the root's file before the working directory's
			const file = await firstPresent(folder);
			if (file !== undefined) {
				// eslint-disable-next-line no-await-in-loop
				await reader.#add(file, 'project', 0);
			}
		}

		return reader;
	}

	/** What is loaded now, in order. */
	instructions(): Instructions {
		return {files: [...this.#files], notes: [...this.#notes], root: this.#root};
	}

	/**
	The files first found for `path` (a path a tool call touched, absolute or relative to the working
	directory): the `AGENTS.md` (else `CLAUDE.md`) of each folder from below the working directory down
	to the path's own folder not looked in yet, with their imports. Folders outside the working
	directory, hidden ones (`.git`, `.venv`) and `node_modules` are never looked in: a dependency's or a
	tool's file is not the project's.
	*/
	async nested(path: string): Promise<InstructionFile[]> {
		const target = resolve(this.#cwd, path);
		const folder = await stat(target).then(info => info.isDirectory() ? target : dirname(target), () => dirname(target));
		const below = relative(this.#cwd, folder);
		if (below === '' || below.startsWith('..') || isAbsolute(below)) {
			return [];
		}

		const before = this.#files.length;
		let current = this.#cwd;
		for (const part of below.split(sep)) {
			if (part.startsWith('.') || part === 'node_modules') {
				break;
			}

			current = join(current, part);
			if (this.#looked.has(current)) {
				continue;
			}

			this.#looked.add(current);
			// eslint-disable-next-line no-await-in-loop -- the outer folder's file before the inner one's
			const file = await firstPresent(current);
			if (file !== undefined) {
				// eslint-disable-next-line no-await-in-loop
				await this.#add(file, 'nested', 0);
			}
		}

		return this.#files.slice(before);
	}

	async #add(path: string, scope: InstructionFile['scope'], depth: number, importedBy?: string): Promise<void> {
		const real = await realpath(path).catch(() => path);
		if (this.#seen.has(real)) {
			return;
		}

		this.#seen.add(real);
		const read = await readBounded(path);
		if (typeof read === 'string') {
			this.#notes.push(`${path}: ${read}`);
			return;
		}

		if (this.#total >= TOTAL_LIMIT) {
			this.#notes.push(`${path} was left out: the instruction files reached ${TOTAL_LIMIT} characters`);
			return;
		}

		const room = TOTAL_LIMIT - this.#total;
		const cut = read.cut || read.text.length > room;
		const text = read.text.slice(0, room);
		this.#total += text.length;
		this.#files.push({path, scope, text, cut, ...(importedBy === undefined ? {} : {importedBy})});
		if (cut) {
			this.#notes.push(`${path} was cut at ${text.length} characters`);
		}

		for (const reference of importsOf(text)) {
			const target = resolve(dirname(path), reference.startsWith('~/') ? join(this.#env.HOME ?? '', reference.slice(2)) : reference);
			// eslint-disable-next-line no-await-in-loop -- imports go in order, each after the one before
			const realTarget = await realpath(target).catch(() => undefined);
			if (realTarget === undefined) {
				this.#notes.push(`${path} imports @${reference}, which does not exist`);
			} else if (!inside(realTarget, this.#root) && !inside(realTarget, this.#userFolder)) {
				this.#notes.push(`${path} imports @${reference}, outside the workspace and the user's config folder: not read`);
			} else if (depth >= IMPORT_DEPTH) {
				this.#notes.push(`${path} imports @${reference}, deeper than ${IMPORT_DEPTH} imports: not read`);
			} else {
				// eslint-disable-next-line no-await-in-loop -- imports go in order, each after the one before
				await this.#add(target, 'import', depth + 1, path);
			}
		}
	}
}

/**
The `@path` imports in an instruction file, Claude Code's syntax: `@` at the start of a word, a path
with a slash or a dot in it, never inside a code span or a fenced block (`@decorator` and
`user@example.com` are not imports).
*/
export function importsOf(text: string): string[] {
	const found: string[] = [];
	let fenced = false;
	for (const line of text.split('\n')) {
		if (/^\s*(```|~~~)/u.test(line)) {
			fenced = !fenced;
			continue;
		}

		if (fenced) {
			continue;
		}

		for (const match of line.replaceAll(/`[^`]*`/gu, '').matchAll(/(?:^|\s)@([^\s@`]+)/gu)) {
			const path = match[1]!.replace(/[.,;:!?)\]]+$/u, '');
			if (/[/.]/u.test(path) && !found.includes(path)) {
				found.push(path);
			}
		}
	}

	return found;
}

/** The nearest folder from `cwd` up that holds `.git`, else `cwd` itself. */
async function repositoryRoot(cwd: string): Promise<string> {
	let folder = resolve(cwd);
	for (;;) {
		// eslint-disable-next-line no-await-in-loop -- one folder at a time, nearest first
		if (await stat(join(folder, '.git')).then(() => true, () => false)) {
			return folder;
		}

		const parent = dirname(folder);
		if (parent === folder) {
			return resolve(cwd);
		}

		folder = parent;
	}
}

/** `root`, then each folder below it down to `cwd`. */
function foldersDown(root: string, cwd: string): string[] {
	const folders = [root];
	for (const part of relative(root, resolve(cwd)).split(sep).filter(each => each !== '')) {
		folders.push(join(folders.at(-1)!, part));
	}

	return folders;
}

/** `AGENTS.md` in `folder`, else its `CLAUDE.md`, else nothing. */
async function firstPresent(folder: string): Promise<string | undefined> {
	for (const name of NAMES) {
		const path = join(folder, name);
		// eslint-disable-next-line no-await-in-loop -- AGENTS.md first
		if (await stat(path).then(() => true, () => false)) {
			return path;
		}
	}

	return undefined;
}

function inside(path: string, folder: string): boolean {
	const from = relative(folder, path);
	return from === '' || (!from.startsWith('..') && !isAbsolute(from));
}

/** The file's text up to `FILE_LIMIT` characters, or why it could not be read (a FIFO is never opened). */
export async function readBounded(path: string): Promise<{readonly text: string; readonly cut: boolean} | string> {
	try {
		const info = await stat(path);
		if (!info.isFile()) {
			return 'not a regular file: not read';
		}

		const handle = await open(path, 'r');
		try {
			// UTF-8 takes at most 4 bytes a character: this many bytes hold FILE_LIMIT characters and one more.
			const buffer = Buffer.alloc(Math.min(info.size, (FILE_LIMIT + 1) * 4));
			const {bytesRead} = await handle.read(buffer, 0, buffer.length, 0);
			const text = buffer.subarray(0, bytesRead).toString('utf8');
			return text.length > FILE_LIMIT || bytesRead < info.size ? {text: text.slice(0, FILE_LIMIT), cut: true} : {text, cut: false};
		} finally {
			await handle.close();
		}
	} catch (error) {
		return `could not be read (${error instanceof Error ? error.message : String(error)})`;
	}
}
