/**
@module Reads a small settings file that cannot hang or flood the reader: opened non-blocking (a FIFO
with no writer opens at once), refused unless it is a regular file (a FIFO, a device such as
`/dev/urandom`, a socket), and read to a bound whatever its reported size (a `/proc` file says 0),
then decoded as strict UTF-8.
*/
import {constants} from 'node:fs';
import {open, type FileHandle} from 'node:fs/promises';
import type {Stats} from 'node:fs';

/** What a config file may hold: a settings file is a few KiB; 1 MiB leaves room and bounds the memory. */
export const CONFIG_FILE_BOUND = 1024 * 1024;

/** Why a file was refused or could not be read (the caller names the file). */
export class UnreadableFileError extends Error {
	override readonly name = 'UnreadableFileError';
}

/** The file's text, or `undefined` when nothing is there (no file, or a parent that is not a folder). */
export async function readBoundedText(path: string, bound: number = CONFIG_FILE_BOUND): Promise<string | undefined> {
	let handle: FileHandle;
	try {
		handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT' || code === 'ENOTDIR') {
			return undefined;
		}

		throw new UnreadableFileError(`cannot open it: ${(error as Error).message}`);
	}

	try {
		const info = await handle.stat();
		if (!info.isFile()) {
			throw new UnreadableFileError(`not a regular file (${fileKind(info)}); a config is a JSON file`);
		}

		const bytes = await readUpTo(handle, bound + 1);
		if (bytes.length > bound) {
			throw new UnreadableFileError(`larger than ${formatBound(bound)}, the bound for a config file`);
		}

		try {
			return new TextDecoder('utf-8', {fatal: true, ignoreBOM: false}).decode(bytes);
		} catch {
			throw new UnreadableFileError('not UTF-8 text');
		}
	} catch (error) {
		throw error instanceof UnreadableFileError ? error : new UnreadableFileError(`cannot read it: ${(error as Error).message}`);
	} finally {
		await handle.close().catch(() => undefined);
	}
}

/** At most `limit` bytes from the start of the file: a file that grows while read stops at the limit. */
async function readUpTo(handle: FileHandle, limit: number): Promise<Buffer> {
	const buffer = Buffer.alloc(Math.min(limit, 64 * 1024));
	const chunks: Buffer[] = [];
	let total = 0;
	while (total < limit) {
		// eslint-disable-next-line no-await-in-loop -- reads follow each other
		const {bytesRead} = await handle.read(buffer, 0, Math.min(buffer.length, limit - total), total);
		if (bytesRead === 0) {
			break;
		}

		chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
		total += bytesRead;
	}

	return Buffer.concat(chunks, total);
}

function fileKind(info: Stats): string {
	if (info.isDirectory()) {
		return 'a directory';
	}

	if (info.isFIFO()) {
		return 'a FIFO';
	}

	if (info.isCharacterDevice() || info.isBlockDevice()) {
		return 'a device';
	}

	return info.isSocket() ? 'a socket' : 'not a file';
}

function formatBound(bound: number): string {
	return bound % (1024 * 1024) === 0 ? `${bound / (1024 * 1024)} MiB` : `${bound} bytes`;
}
