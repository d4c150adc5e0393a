/**
@module Workspace containment for the file and search tools.

A path from the model is resolved against the session workspace (absolute paths are taken as is),
then every symlink on it is resolved through the deepest existing ancestor; the real path must lie
inside the workspace or an extra allowed root. I/O always goes to that real path, never to the
lexical one, and is re-checked at use: files are opened with `O_NOFOLLOW` and the opened
descriptor's own path (`/proc/self/fd/N` where available, else a device/inode comparison) must
still be inside, which narrows the window between check and use to the kernel's own.
*/
import {constants, type Stats} from 'node:fs';
import {lstat, open, readlink, realpath, stat, type FileHandle} from 'node:fs/promises';
import path from 'node:path';
import {FsError, isErrno} from './fs-error.js';

/** Where the tools may reach: the session workspace plus optional extra roots. */
export type WorkspaceOptions = {
	/** The session workspace; relative tool paths resolve against it. */
	readonly workspace: string;
	/** Extra directories the tools may also reach (absolute, or relative to the workspace). */
	readonly allowedRoots?: readonly string[];
};

/** A path that passed the containment check. */
export type ContainedPath = {
	/** The path as the model gave it. */
	readonly input: string;
	/** Lexically resolved absolute path: what results show (`<path>` of read, error messages). */
	readonly absolute: string;
	/** The same path with every existing symlink resolved: what I/O uses. May not exist yet. */
	readonly real: string;
	/** The real root that contains `real`. */
	readonly root: string;
};

/** Symlink hops followed for a dangling link before giving up (the kernel's own limit is 40). */
const MAX_LINK_HOPS = 40;

/** Whether `candidate` equals `root` or lies below it. Both must be normalized absolute paths. */
export function isWithin(root: string, candidate: string): boolean {
	if (candidate === root) {
		return true;
	}

	const prefix = root.endsWith(path.sep) ? root : root + path.sep;
	return candidate.startsWith(prefix);
}

/**
Resolve every symlink of `target`, also when its tail does not exist yet: the deepest existing
ancestor is realpath'd and the missing segments are appended; a dangling symlink is followed to
where it points (so a write through it cannot land outside unnoticed).
*/
export async function realpathDeep(target: string): Promise<string> {
	let current = path.resolve(target);
	const pending: string[] = [];
	for (let hops = 0; ; ) {
		try {
			// eslint-disable-next-line no-await-in-loop -- a path is resolved one link at a time
			const resolved = await realpath(current);
			return pending.length === 0 ? resolved : path.join(resolved, pending.reverse().join(path.sep));
		} catch (error) {
			if (!isErrno(error, 'ENOENT', 'ENOTDIR')) {
				throw error;
			}
		}

		let info: Stats | undefined;
		try {
			// eslint-disable-next-line no-await-in-loop -- a path is resolved one link at a time
			info = await lstat(current);
		} catch (error) {
			if (!isErrno(error, 'ENOENT', 'ENOTDIR')) {
				throw error;
			}
		}

		if (info?.isSymbolicLink()) {
			// A dangling link: continue from its target, resolved against the link's directory.
			hops += 1;
			if (hops > MAX_LINK_HOPS) {
				throw Object.assign(new Error(`too many symbolic links at "${current}"`), {code: 'ELOOP'});
			}

			// eslint-disable-next-line no-await-in-loop -- a path is resolved one link at a time
			current = path.resolve(path.dirname(current), await readlink(current));
			continue;
		}

		const parent = path.dirname(current);
		if (parent === current) {
			return path.join(current, pending.reverse().join(path.sep));
		}

		pending.push(path.basename(current));
		current = parent;
	}
}

/** The containment policy of one session: resolves model paths and opens files without escaping. */
export class WorkspaceGuard {
	/** The workspace, absolute and normalized (not symlink-resolved: results display paths under it). */
	readonly workspace: string;
	readonly #roots: readonly string[];
	#realRoots: Promise<readonly string[]> | undefined;

	constructor(options: WorkspaceOptions) {
		this.workspace = path.resolve(options.workspace);
		this.#roots = [this.workspace, ...(options.allowedRoots ?? []).map((root) => path.resolve(this.workspace, root))];
	}

	/** The real paths of the workspace and the allowed roots (computed once; a missing root stays lexical). */
	async realRoots(): Promise<readonly string[]> {
		this.#realRoots ??= Promise.all(this.#roots.map(async (root) => realpathDeep(root)));
		return this.#realRoots;
	}

	/**
	Resolve `input` (workspace-relative or absolute) and check that its real path is contained.
	Throws `FS_INVALID_PATH` for a NUL byte and `FS_OUTSIDE_WORKSPACE` for an escape.
	*/
	async resolve(input: string): Promise<ContainedPath> {
		if (input.includes('\0')) {
			throw new FsError(`invalid path ${JSON.stringify(input)}: paths must not contain NUL bytes`, 'FS_INVALID_PATH');
		}

		const absolute = path.resolve(this.workspace, input);
		const real = await realpathDeep(absolute);
		const root = await this.containingRoot(real);
		if (root === undefined) {
			throw this.outside(input, real);
		}

		return {input, absolute, real, root};
	}

	/** The real root containing `real`, or `undefined` when none does. */
	async containingRoot(real: string): Promise<string | undefined> {
		return (await this.realRoots()).find((root) => isWithin(root, real));
	}

	/** Workspace-relative form of a real path for search results (`.` for the workspace itself). */
	async relativeToWorkspace(real: string): Promise<string> {
		const [workspaceReal] = await this.realRoots();
		if (isWithin(workspaceReal!, real)) {
			const relative = path.relative(workspaceReal!, real);
			return relative === '' ? '.' : relative;
		}

		return real;
	}

	/**
	Open a contained path for reading. The final component is opened with `O_NOFOLLOW`; a symlink
	swapped in after `resolve` is re-resolved once and refused if it now leads outside. The opened
	descriptor is then re-checked (see {@link verifyOpened}).
	*/
	async openForRead(target: ContainedPath): Promise<FileHandle> {
		let current = target;
		for (let attempt = 0; ; attempt += 1) {
			let handle: FileHandle;
			try {
				// O_NONBLOCK: opening a FIFO must not hang the call; it is refused as not a regular file afterwards.
				// eslint-disable-next-line no-await-in-loop -- open, then check what was opened; again if it moved
				handle = await open(current.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
			} catch (error) {
				if (isErrno(error, 'ELOOP') && attempt === 0) {
					// The last component became a symlink after the check: decide again from scratch.
					// eslint-disable-next-line no-await-in-loop -- open, then check what was opened; again if it moved
					current = await this.resolve(target.input);
					continue;
				}

				throw error;
			}

			// eslint-disable-next-line no-await-in-loop -- open, then check what was opened; again if it moved
			await this.verifyOpened(handle, current);
			return handle;
		}
	}

	/**
	Check that an open descriptor still refers to a file inside the roots: its `/proc/self/fd` link
	names the file the kernel actually opened (so a directory swapped for a symlink between check
	and open is caught); without procfs, the descriptor must be the same inode as the contained
	path, re-resolved now. Closes the handle and throws `FS_OUTSIDE_WORKSPACE` otherwise.
	*/
	async verifyOpened(handle: FileHandle, target: ContainedPath): Promise<void> {
		const opened = await this.descriptorPath(handle);
		let inside: boolean;
		if (opened !== undefined) {
			inside = (await this.containingRoot(opened)) !== undefined;
		} else {
			const [held, now] = await Promise.all([handle.stat(), stat(target.real).catch(() => undefined)]);
			const again = await realpathDeep(target.real);
			inside = now !== undefined && now.dev === held.dev && now.ino === held.ino && (await this.containingRoot(again)) !== undefined;
		}

		if (!inside) {
			await handle.close();
			throw this.outside(target.input, opened ?? target.real);
		}
	}

	/** The path the kernel reports for an open descriptor (`/proc/self/fd`), or `undefined` where there is no procfs. */
	protected async descriptorPath(handle: FileHandle): Promise<string | undefined> {
		try {
			const opened = await readlink(`/proc/self/fd/${handle.fd}`);
			return path.isAbsolute(opened) ? opened : undefined;
		} catch {
			return undefined;
		}
	}

	/** The refusal for a path that leads out of every root. */
	outside(input: string, real: string): FsError {
		const where = this.#roots.length === 1 ? `the workspace "${this.workspace}"` : `the workspace "${this.workspace}" and the allowed roots`;
		const via = path.resolve(this.workspace, input) === real ? '' : ` (resolves to "${real}")`;
		return new FsError(`access denied: "${input}"${via} is outside ${where}`, 'FS_OUTSIDE_WORKSPACE');
	}
}
