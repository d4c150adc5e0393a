/**
@module Atomic file replacement inside the workspace: the new text goes to a fresh temp file in the
target's own directory, which then replaces the target with one `rename`. A reader sees the old or
the new file, never a torn one, and a symlink swapped in at the target is replaced, not followed.
*/
import {randomBytes} from 'node:crypto';
import {constants} from 'node:fs';
import {mkdir, open, rename, unlink} from 'node:fs/promises';
import path from 'node:path';
import {realpathDeep, type ContainedPath, type WorkspaceGuard} from '../workspace/workspace-guard.js';

/** Options of {@link writeFileAtomic}. */
export type AtomicWriteOptions = {
	/** Permission bits to give the file (an overwrite keeps the prior file's); absent: the default for new files. */
	readonly mode?: number;
};

/**
Write `text` as UTF-8 to the contained path atomically, creating missing parent directories.
The directory and the temp file are re-checked against the workspace after they are created.
*/
export async function writeFileAtomic(guard: WorkspaceGuard, target: ContainedPath, text: string, options: AtomicWriteOptions = {}): Promise<void> {
	const directory = path.dirname(target.real);
	await mkdir(directory, {recursive: true});
	// mkdir follows symlinks on the way; make sure the directory it reached is still inside.
	const directoryReal = await realpathDeep(directory);
	if ((await guard.containingRoot(directoryReal)) === undefined) {
		throw guard.outside(target.input, directoryReal);
	}

	const base = path.basename(target.real);
	// Shortened so a name near the file-system limit still leaves room for the suffix.
	const temp = path.join(directoryReal, `.${base.slice(0, 64)}.${randomBytes(6).toString('hex')}.tmp`);
	const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
	let renamed = false;
	try {
		await guard.verifyOpened(handle, {...target, real: temp});
		await handle.writeFile(text, 'utf8');
		if (options.mode !== undefined) {
			await handle.chmod(options.mode & 0o7777);
		}

		await handle.sync();
		await handle.close();
		await rename(temp, path.join(directoryReal, base));
		renamed = true;
	} catch (error) {
		await handle.close().catch(() => undefined);
		throw error;
	} finally {
		if (!renamed) {
			await unlink(temp).catch(() => undefined);
		}
	}
}
