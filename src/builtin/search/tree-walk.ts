/**
@module The in-process directory walk shared by grep's fallback engine and glob. It never follows
symlinks (so it cannot leave the contained root), always skips VCS metadata, and optionally skips
hidden entries and honours `.gitignore` files the way ripgrep does with `--no-require-git`: the
files of every directory walked and of the search root's ancestors up to the repository top, the
deepest matching rule deciding, and a negated rule revealing a hidden entry. An include matcher
acts like ripgrep's `--glob`: a matching entry is taken even when hidden or ignored, and a file
that does not match is skipped.
*/
import type {Dirent} from 'node:fs';
import {lstat, readdir, readFile} from 'node:fs/promises';
import path from 'node:path';
import ignore from 'ignore';

/** Directory (and gitfile) names never searched or listed. */
export const VCS_NAMES: ReadonlySet<string> = new Set(['.git', '.svn', '.hg', '.bzr', '.jj', '.sl', '_darcs', 'CVS']);

/**
The one ignore rule of grep (both engines) and glob: `.gitignore` files honoured (so `node_modules`,
`dist` … of a project that ignores them are not searched), hidden entries skipped unless a negated
rule names them, VCS metadata always skipped. ripgrep is given the same rule by its flags
(grep-ripgrep.ts). glob includes hidden entries only when its pattern names a dot segment itself.
*/
export const SEARCH_IGNORE_RULE = {respectIgnore: true, includeHidden: false} as const;

/** How to walk. */
export type WalkOptions = {
	/** Honour `.gitignore` files. */
	readonly respectIgnore: boolean;
	/** List and enter hidden (dot) entries. */
	readonly includeHidden: boolean;
	/** ripgrep `--glob`-like whitelist, called with the entry's real absolute path. */
	readonly include?: (absolutePath: string, isDirectory: boolean) => boolean;
	readonly signal: AbortSignal;
};

/** One `.gitignore` file in scope. */
type IgnoreFrame = {readonly directory: string; readonly rules: ignore.Ignore};

async function loadIgnore(directory: string): Promise<IgnoreFrame | undefined> {
	let text: string;
	try {
		text = await readFile(path.join(directory, '.gitignore'), 'utf8');
	} catch {
		return undefined;
	}

	return {directory, rules: ignore({allowRelativePaths: true, ignorecase: false}).add(text)};
}

/** Whether `directory` is the top of a repository (holds a `.git` directory or gitfile). */
async function isRepositoryTop(directory: string): Promise<boolean> {
	try {
		await lstat(path.join(directory, '.git'));
		return true;
	} catch {
		return false;
	}
}

/**
The `.gitignore` frames of `root`'s ancestors, outermost first. Like ripgrep, the climb stops at the
first repository top: ignore files of an enclosing repository do not reach into a nested one.
*/
async function ancestorFrames(root: string): Promise<IgnoreFrame[]> {
	if (await isRepositoryTop(root)) {
		return [];
	}

	const frames: IgnoreFrame[] = [];
	for (let current = path.dirname(root); ; current = path.dirname(current)) {
		// eslint-disable-next-line no-await-in-loop -- up the tree one folder at a time, stopping at the repository's top
		const frame = await loadIgnore(current);
		if (frame !== undefined) {
			frames.unshift(frame);
		}

		// eslint-disable-next-line no-await-in-loop -- up the tree one folder at a time, stopping at the repository's top
		if (path.dirname(current) === current || (await isRepositoryTop(current))) {
			return frames;
		}
	}
}

/** The verdict of the innermost `.gitignore` rule that matches `target` itself. */
function ignoreVerdict(frames: readonly IgnoreFrame[], target: string, isDirectory: boolean): 'ignore' | 'whitelist' | 'none' {
	for (let index = frames.length - 1; index >= 0; index -= 1) {
		const frame = frames[index]!;
		const relative = path.relative(frame.directory, target).split(path.sep).join('/');
		if (relative === '' || relative === '..' || relative.startsWith('../')) {
			continue;
		}

		const verdict = frame.rules.test(isDirectory ? `${relative}/` : relative);
		if (verdict.ignored) {
			return 'ignore';
		}

		if (verdict.unignored) {
			return 'whitelist';
		}
	}

	return 'none';
}

/**
Whether an entry is skipped (after the include whitelist had its say): ignored by a rule, or hidden
unless a negated rule (`!.env`) names it, as in ripgrep.
*/
function filteredOut(options: WalkOptions, frames: readonly IgnoreFrame[], entry: Dirent, target: string, isDirectory: boolean): boolean {
	const verdict = options.respectIgnore ? ignoreVerdict(frames, target, isDirectory) : 'none';
	if (verdict !== 'none') {
		return verdict === 'ignore';
	}

	return !options.includeHidden && entry.name.startsWith('.');
}

/** Every regular file below the real directory `root`, in no particular order. */
export async function* walkFiles(root: string, options: WalkOptions): AsyncGenerator<string> {
	const base = options.respectIgnore ? await ancestorFrames(root) : [];
	const stack: {directory: string; frames: readonly IgnoreFrame[]}[] = [{directory: root, frames: base}];
	while (stack.length > 0) {
		options.signal.throwIfAborted();
		const {directory, frames: parentFrames} = stack.pop()!;
		let entries: Dirent[];
		try {
			// eslint-disable-next-line no-await-in-loop -- the walk's order is the result's order
			entries = await readdir(directory, {withFileTypes: true});
		} catch {
			// Unreadable directories are skipped, as ripgrep does.
			continue;
		}

		// eslint-disable-next-line no-await-in-loop -- the walk's order is the result's order
		const own = options.respectIgnore ? await loadIgnore(directory) : undefined;
		// A nested repository starts afresh: the enclosing repository's ignore files stop at its top.
		const inherited = directory !== root && entries.some((entry) => entry.name === '.git') ? [] : parentFrames;
		const frames = own === undefined ? inherited : [...inherited, own];

		for (const entry of entries) {
			if (VCS_NAMES.has(entry.name)) {
				continue;
			}

			const target = path.join(directory, entry.name);
			const isDirectory = entry.isDirectory();
			if (!isDirectory && !entry.isFile()) {
				// Symlinks are never followed; sockets, FIFOs and devices are never read.
				continue;
			}

			const whitelisted = options.include?.(target, isDirectory);
			if (whitelisted === true) {
				if (isDirectory) {
					stack.push({directory: target, frames});
				} else {
					yield target;
				}

				continue;
			}

			if (filteredOut(options, frames, entry, target, isDirectory)) {
				continue;
			}

			if (isDirectory) {
				stack.push({directory: target, frames});
			} else if (options.include === undefined) {
				yield target;
			}
		}
	}
}
