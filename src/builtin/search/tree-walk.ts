/**
@module The in-process directory walk shared by grep's fallback engine and glob. It never follows
symlinks (so it cannot leave the contained root), always skips VCS metadata, and optionally skips
hidden entries and honours `.gitignore` files the way ripgrep does with `--no-require-git`: the
files of the search root's ancestors and of every directory walked, the deepest matching rule
deciding. An include matcher acts like ripgrep's `--glob`: a matching entry is taken even when
hidden or ignored, and a file that does not match is skipped.
*/
import type {Dirent} from 'node:fs';
import {readdir, readFile} from 'node:fs/promises';
import path from 'node:path';
import ignore from 'ignore';

/** Directory (and gitfile) names never searched or listed. */
export const VCS_NAMES: ReadonlySet<string> = new Set(['.git', '.svn', '.hg', '.bzr', '.jj', '.sl', '_darcs', 'CVS']);

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

/** The `.gitignore` frames of `root`'s ancestors, outermost first. */
async function ancestorFrames(root: string): Promise<IgnoreFrame[]> {
	const directories: string[] = [];
	for (let current = path.dirname(root); ; current = path.dirname(current)) {
		directories.unshift(current);
		if (path.dirname(current) === current) {
			break;
		}
	}

	if (root === path.dirname(root)) {
		return [];
	}

	const frames = await Promise.all(directories.map(loadIgnore));
	return frames.filter((frame): frame is IgnoreFrame => frame !== undefined);
}

/** Whether the innermost frame with an opinion ignores `target`. */
function isIgnored(frames: readonly IgnoreFrame[], target: string, isDirectory: boolean): boolean {
	for (let index = frames.length - 1; index >= 0; index -= 1) {
		const frame = frames[index]!;
		const relative = path.relative(frame.directory, target).split(path.sep).join('/');
		if (relative === '' || relative === '..' || relative.startsWith('../')) {
			continue;
		}

		const verdict = frame.rules.test(isDirectory ? `${relative}/` : relative);
		if (verdict.ignored) {
			return true;
		}

		if (verdict.unignored) {
			return false;
		}
	}

	return false;
}

/** Whether an entry is skipped by the hidden/ignore rules (after the include whitelist had its say). */
function filteredOut(options: WalkOptions, frames: readonly IgnoreFrame[], entry: Dirent, target: string, isDirectory: boolean): boolean {
	if (!options.includeHidden && entry.name.startsWith('.')) {
		return true;
	}

	return options.respectIgnore && isIgnored(frames, target, isDirectory);
}

/** Every regular file below the real directory `root`, in no particular order. */
export async function* walkFiles(root: string, options: WalkOptions): AsyncGenerator<string> {
	const base = options.respectIgnore ? await ancestorFrames(root) : [];
	const stack: {directory: string; frames: readonly IgnoreFrame[]}[] = [{directory: root, frames: base}];
	while (stack.length > 0) {
		options.signal.throwIfAborted();
		const {directory, frames: parentFrames} = stack.pop()!;
		const own = options.respectIgnore ? await loadIgnore(directory) : undefined;
		const frames = own === undefined ? parentFrames : [...parentFrames, own];
		let entries: Dirent[];
		try {
			entries = await readdir(directory, {withFileTypes: true});
		} catch {
			// Unreadable directories are skipped, as ripgrep does.
			continue;
		}

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
