/**
@module The effectful half of `read`: resolve inside the workspace, open without escaping, refuse
what is not a UTF-8 text file, and stream the file through the window builder.
*/
import {stat} from 'node:fs/promises';
import {StringDecoder} from 'node:string_decoder';
import {FsError, ioFailure, isErrno} from '../workspace/fs-error.js';
import type {WorkspaceGuard} from '../workspace/workspace-guard.js';
import {versionOf, type ObservationLedger} from './observation-ledger.js';
import type {ReadInput, ReadValue} from './read-card.js';
import {ReadWindowBuilder} from './read-window.js';

/** Caps of one read. */
export type ReadCaps = {readonly maxLineLength: number; readonly maxBytes: number};

/** Bytes per read(2) call while streaming. */
const CHUNK_BYTES = 64 * 1024;
/** Leading bytes inspected for NUL to call a file binary (what git and ripgrep look at too). */
const BINARY_SNIFF_BYTES = 8 * 1024;

/** Read the requested window of a workspace file; a ledger (read-before-edit policy) records the version read. */
export async function readFileWindow(
	guard: WorkspaceGuard,
	input: ReadInput,
	caps: ReadCaps,
	signal: AbortSignal,
	ledger?: ObservationLedger,
): Promise<ReadValue> {
	const target = await guard.resolve(input.filePath);
	const display = target.absolute;
	let handle;
	try {
		// Refuse directories, FIFOs and devices before opening: opening some of them can block.
		if (!(await stat(target.real)).isFile()) {
			throw new FsError(`cannot read "${display}": not a regular file`, 'FS_NOT_A_FILE');
		}

		handle = await guard.openForRead(target);
	} catch (error) {
		if (isErrno(error, 'ENOENT', 'ENOTDIR')) {
			throw new FsError(`cannot read "${display}": not found`, 'FS_NOT_FOUND');
		}

		throw ioFailure('read', display, error);
	}

	try {
		const info = await handle.stat();
		if (!info.isFile()) {
			throw new FsError(`cannot read "${display}": not a regular file`, 'FS_NOT_A_FILE');
		}

		const builder = new ReadWindowBuilder({offset: input.offset, limit: input.limit, ...caps});
		const decoder = new StringDecoder('utf8');
		const buffer = Buffer.alloc(CHUNK_BYTES);
		let position = 0;
		for (;;) {
			signal.throwIfAborted();
			// eslint-disable-next-line no-await-in-loop -- one chunk after another, bounded memory
			const {bytesRead} = await handle.read(buffer, 0, CHUNK_BYTES, position);
			if (bytesRead === 0) {
				break;
			}

			const chunk = buffer.subarray(0, bytesRead);
			if (position < BINARY_SNIFF_BYTES && chunk.subarray(0, BINARY_SNIFF_BYTES - position).includes(0)) {
				throw new FsError(`cannot read "${display}": binary file (contains NUL bytes)`, 'FS_BINARY_FILE');
			}

			position += bytesRead;
			builder.push(decoder.write(chunk));
		}

		builder.push(decoder.end());
		const window = builder.finish(display);
		ledger?.record(target.real, versionOf(info));
		return {path: display, offset: input.offset, lines: window.lines, totalLines: window.totalLines};
	} catch (error) {
		if (error instanceof FsError || signal.aborted) {
			throw error;
		}

		throw ioFailure('read', display, error);
	} finally {
		await handle.close();
	}
}
