/**
@module One writer per log: an exclusive lock file `<log>.lock` holding the writer's pid.

The lock is created atomically with its content (written to a private temporary file, then hard-linked
to `<log>.lock`, which fails if the name exists), so no reader ever sees an empty lock. Where hard
links are unsupported it falls back to an exclusive create (`wx`) followed by the write. A lock whose
pid is no longer running is stale and is taken over; one held by a live process (this one included)
refuses the second writer with `SessionLogLockedError`.
*/
import {readFileSync, unlinkSync} from 'node:fs';
import {link, open, readFile, unlink, writeFile} from 'node:fs/promises';
import {SessionLogLockedError, SessionLogWriteError, systemErrorCode} from '../reader/log-errors.js';

/** A held lock. */
export type LogLock = {
	readonly path: string;
	/** Removes the lock file if it is still ours. */
	readonly release: () => Promise<void>;
	/** Same, synchronously (for a process `exit` handler). */
	readonly releaseSync: () => void;
};

/** Path of the lock file of `logPath`. */
export function lockPathOf(logPath: string): string {
	return `${logPath}.lock`;
}

/** Whether a process with this pid is running (a permission error means it exists). */
export function isProcessAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return systemErrorCode(error) === 'EPERM';
	}
}

/** Takes the lock of `logPath`, or throws `SessionLogLockedError` naming the holder's pid. */
export async function acquireLogLock(logPath: string): Promise<LogLock> {
	const lockPath = lockPathOf(logPath);
	const content = `${process.pid}\n`;
	for (let attempt = 0; attempt < 5; attempt += 1) {
		let created: boolean;
		try {
			created = await createWithContent(lockPath, content);
		} catch (error) {
			throw new SessionLogWriteError(logPath, 'lock', error);
		}

		if (created) {
			return heldLock(lockPath, content);
		}

		const holder = await readHolder(lockPath);
		if (holder !== undefined && isProcessAlive(holder)) {
			throw new SessionLogLockedError(logPath, holder);
		}

		// Stale (dead pid or unreadable content): remove it and try again. Re-read just before
		// removing so a lock another process took over meanwhile is left alone.
		if ((await readHolder(lockPath)) === holder) {
			await unlink(lockPath).catch(() => undefined);
		}
	}

	throw new SessionLogWriteError(logPath, 'lock', new Error(`lock file ${lockPath} keeps changing; another writer is starting`));
}

/** Creates `path` holding `content` unless it exists; false when it exists. */
async function createWithContent(path: string, content: string): Promise<boolean> {
	const temporary = `${path}.${process.pid}.${Math.random().toString(16).slice(2)}.tmp`;
	await writeFile(temporary, content, {flag: 'wx'});
	try {
		await link(temporary, path);
		return true;
	} catch (error) {
		const code = systemErrorCode(error);
		if (code === 'EEXIST') {
			return false;
		}

		if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') {
			throw error;
		}
	} finally {
		await unlink(temporary).catch(() => undefined);
	}

	// No hard links on this file system: exclusive create, then write.
	try {
		const handle = await open(path, 'wx');
		try {
			await handle.writeFile(content);
		} finally {
			await handle.close();
		}

		return true;
	} catch (error) {
		if (systemErrorCode(error) === 'EEXIST') {
			return false;
		}

		throw error;
	}
}

/** Whether a live process holds the lock of `logPath` (a missing, unreadable or stale lock: no). */
export async function writerHoldsLock(logPath: string): Promise<boolean> {
	const holder = await readHolder(lockPathOf(logPath));
	return holder !== undefined && isProcessAlive(holder);
}

async function readHolder(lockPath: string): Promise<number | undefined> {
	const text = await readFile(lockPath, 'utf8').catch(() => undefined);
	return parsePid(text);
}

function parsePid(text: string | undefined): number | undefined {
	const pid = text === undefined ? Number.NaN : Number.parseInt(text.trim(), 10);
	return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function heldLock(lockPath: string, content: string): LogLock {
	let released = false;
	const ours = (text: string | undefined): boolean => text === content;
	return {
		path: lockPath,
		async release() {
			if (released) {
				return;
			}

			released = true;
			if (ours(await readFile(lockPath, 'utf8').catch(() => undefined))) {
				await unlink(lockPath).catch(() => undefined);
			}
		},
		releaseSync() {
			if (released) {
				return;
			}

			released = true;
			try {
				if (ours(readFileSync(lockPath, 'utf8'))) {
					unlinkSync(lockPath);
				}
			} catch {
				// Already gone, or unreadable: nothing of ours to remove.
			}
		},
	};
}
