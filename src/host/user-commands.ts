/**
@module The commands a person writes: Markdown files in the project's `.cardterm/commands/` and in
`commands/` of the user's config folder, in Claude Code's format — the file name is the command
(`review.md` → `/review`; a subfolder names a namespace: `git/commit.md` → `/git:commit`), YAML-like
front matter gives `description` and `argument-hint`, the body is the prompt (`$ARGUMENTS`, `$1`…
filled in by `src/live/commands/user-command.ts`). A project's command wins over the user's of the
same name. Each file is read like an instruction file (regular files only, `FILE_LIMIT` characters);
what is skipped is said in `notes`.
*/
import {readdir} from 'node:fs/promises';
import {join} from 'node:path';
import {readBounded, userConfigFolder} from './instruction-files.js';

/** How deep namespaces go (`a/b/c.md` → `/a:b:c`). */
const FOLDER_DEPTH = 3;
/** Most command files read from one folder tree; more is a mistake or a hostile tree. */
const MAX_COMMANDS = 500;

export type UserCommandFile = {
	/** The slash word: `/review`, `/git:commit`. */
	readonly name: string;
	readonly description?: string;
	readonly argumentHint?: string;
	/** The prompt, without its front matter. */
	readonly body: string;
	readonly path: string;
	readonly scope: 'project' | 'user';
};

export type UserCommands = {readonly commands: readonly UserCommandFile[]; readonly notes: readonly string[]};

/** The project's `.cardterm/commands/` folder in `cwd`. */
export function projectCommandsFolder(cwd: string): string {
	return join(cwd, '.cardterm', 'commands');
}

export async function loadUserCommands(cwd: string, env: NodeJS.ProcessEnv): Promise<UserCommands> {
	const notes: string[] = [];
	const project = await commandsIn(projectCommandsFolder(cwd), 'project', notes);
	const user = await commandsIn(join(userConfigFolder(env), 'commands'), 'user', notes);
	const names = new Set(project.map(command => command.name));
	return {commands: [...project, ...user.filter(command => !names.has(command.name))], notes};
}

async function commandsIn(root: string, scope: UserCommandFile['scope'], notes: string[]): Promise<UserCommandFile[]> {
	const found: UserCommandFile[] = [];
	const walk = async (folder: string, namespace: readonly string[]): Promise<void> => {
		const entries = await readdir(folder, {withFileTypes: true}).catch(() => []);
		for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
			const path = join(folder, entry.name);
			if (found.length >= MAX_COMMANDS) {
				notes.push(`${root}: more than ${MAX_COMMANDS} command files; the rest are not read`);
				return;
			}

			if (entry.isDirectory()) {
				if (namespace.length + 1 < FOLDER_DEPTH && validWord(entry.name)) {
					// eslint-disable-next-line no-await-in-loop -- one folder at a time, in name order
					await walk(path, [...namespace, entry.name]);
				}

				continue;
			}

			if (!entry.name.endsWith('.md')) {
				continue;
			}

			const word = entry.name.slice(0, -3);
			if (!validWord(word)) {
				notes.push(`${path}: a command's name is letters, digits, "-", "_" and "."; not read`);
				continue;
			}

			// eslint-disable-next-line no-await-in-loop -- files in name order
			const read = await readBounded(path);
			if (typeof read === 'string') {
				notes.push(`${path}: ${read}`);
				continue;
			}

			found.push({...parseCommandFile(read.text), name: `/${[...namespace, word].join(':')}`, path, scope});
		}
	};

	await walk(root, []);
	return found;
}

function validWord(word: string): boolean {
	return /^[\w.-]+$/u.test(word) && !word.startsWith('.');
}

/** A command file's front matter (`description`, `argument-hint`) and body; a file without front matter is all body. */
export function parseCommandFile(text: string): {readonly description?: string; readonly argumentHint?: string; readonly body: string} {
	const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/u.exec(text);
	if (match === null) {
		return {body: text.trim()};
	}

	const fields = new Map<string, string>();
	for (const line of match[1]!.split(/\r?\n/u)) {
		const field = /^([\w-]+)\s*:\s*(.*)$/u.exec(line);
		if (field !== null) {
			fields.set(field[1]!, field[2]!.trim().replace(/^(["'])(.*)\1$/u, '$2'));
		}
	}

	const description = fields.get('description');
	const argumentHint = fields.get('argument-hint');
	return {
		...(description === undefined || description === '' ? {} : {description}),
		...(argumentHint === undefined || argumentHint === '' ? {} : {argumentHint}),
		body: text.slice(match[0].length).trim(),
	};
}
