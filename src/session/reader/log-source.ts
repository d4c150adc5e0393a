/**
@module Where a log's bytes come from: a `.jsonl` or `.jsonl.zstd`/`.zst` file, a session folder, or
a stream (`-` is stdin). Opening problems become `SessionLogError`s naming the path.

A FIFO is opened without blocking (a blocking open() waits for a writer in a thread that nothing can
interrupt) and read as a pipe: the process waits for data in its event loop, where Ctrl+C and SIGTERM
end it, and says so on `onWaiting` when nothing came for FIFO_NOTICE_MS.
*/
import {constants as fsConstants, open as openWithCallback} from 'node:fs';
import {open, stat} from 'node:fs/promises';
import {Socket} from 'node:net';
import {join} from 'node:path';
import {SessionLogError} from './log-errors.js';

/** Anything `readSessionLog` accepts. */
export type SessionLogSource = string | NodeJS.ReadableStream;

/** File names a session folder may hold its log under, in order of preference on equal mtimes. */
export const SESSION_LOG_FILE_NAMES: readonly string[] = ['session.jsonl', 'session.jsonl.zstd', 'session.jsonl.zst'];

/** Name used in diagnostics for standard input. */
export const STDIN_NAME = '<stdin>';

/** An opened source: its display name, its path when it is a file, and its raw bytes. */
export type OpenedLogSource = {
	readonly file: string;
	readonly path: string | undefined;
	readonly chunks: AsyncIterable<Uint8Array>;
	/** Releases the file; a caller's stream is left alone. */
	readonly close: () => void;
};

/**
Resolves a path to the log file it names: the path itself for a file, or the log inside a session
folder (`session.jsonl`, `session.jsonl.zstd`, `session.jsonl.zst`; the most recently modified one
when several exist).
*/
export async function resolveSessionLogPath(path: string): Promise<string> {
	let info;
	try {
		info = await stat(path);
	} catch (error) {
		throw new SessionLogError(path, 0, `cannot open: ${describe(error)}`, {cause: error});
	}

	if (!info.isDirectory()) {
		return path;
	}

	let best: {path: string; mtimeMs: number} | undefined;
	for (const name of SESSION_LOG_FILE_NAMES) {
		const candidate = join(path, name);
		const candidateInfo = await stat(candidate).catch(() => undefined);
		if (candidateInfo?.isFile() && (best === undefined || candidateInfo.mtimeMs > best.mtimeMs)) {
			best = {path: candidate, mtimeMs: candidateInfo.mtimeMs};
		}
	}

	if (best === undefined) {
		throw new SessionLogError(path, 0, `no session log in this folder (looked for ${SESSION_LOG_FILE_NAMES.join(', ')})`);
	}

	return best.path;
}

/** How long a FIFO may stay silent before `onWaiting` hears about it. */
export const FIFO_NOTICE_MS = 500;

/** Options of `openLogSource`. */
export type OpenLogSourceOptions = {
	/** Told (once) that a FIFO has sent nothing yet: its writer has not opened it or not written. */
	readonly onWaiting?: (message: string) => void;
};

/** Whether `path` (after resolving a session folder) is a regular file: one that can be read at an offset and reopened. */
export async function isRegularLogFile(path: string): Promise<boolean> {
	return (await stat(await resolveSessionLogPath(path))).isFile();
}

/** Opens `source` for streaming. `name` overrides the display name of a stream. */
export async function openLogSource(source: SessionLogSource, name?: string, options: OpenLogSourceOptions = {}): Promise<OpenedLogSource> {
	if (typeof source !== 'string') {
		return {file: name ?? '<stream>', path: undefined, chunks: source as AsyncIterable<Uint8Array>, close: () => undefined};
	}

	if (source === '-') {
		return {file: name ?? STDIN_NAME, path: undefined, chunks: process.stdin, close: () => undefined};
	}

	const path = await resolveSessionLogPath(source);
	const info = await stat(path).catch(() => undefined);
	if (info?.isFIFO() === true) {
		return openFifo(path, name ?? path, options.onWaiting);
	}

	let handle;
	try {
		handle = await open(path, fsConstants.O_RDONLY);
	} catch (error) {
		throw new SessionLogError(path, 0, `cannot open: ${describe(error)}`, {cause: error});
	}

	const stream = handle.createReadStream({highWaterMark: 1024 * 1024});
	return {
		file: name ?? path,
		path,
		chunks: stream,
		close: () => {
			stream.destroy();
		},
	};
}

async function openFifo(path: string, file: string, onWaiting: ((message: string) => void) | undefined): Promise<OpenedLogSource> {
	let fd: number;
	try {
		fd = await new Promise<number>((resolve, reject) => {
			openWithCallback(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK, (error, opened) => {
				if (error) {
					reject(error);
				} else {
					resolve(opened);
				}
			});
		});
	} catch (error) {
		throw new SessionLogError(path, 0, `cannot open: ${describe(error)}`, {cause: error});
	}

	// libuv reads a FIFO as a pipe: it polls for data (a FIFO that never had a writer is not at its end yet).
	const pipe = new Socket({fd, readable: true, writable: false});
	return {
		file,
		path,
		chunks: noticeSilence(pipe, () => onWaiting?.(`waiting for a writer on FIFO ${path} (Ctrl+C stops)`)),
		close: () => {
			pipe.destroy();
		},
	};
}

/** The stream's chunks; `onSilent` is called if the first one takes longer than FIFO_NOTICE_MS. */
async function * noticeSilence(stream: AsyncIterable<Uint8Array>, onSilent: () => void): AsyncGenerator<Uint8Array, void, undefined> {
	let timer: NodeJS.Timeout | undefined = setTimeout(onSilent, FIFO_NOTICE_MS);
	try {
		for await (const chunk of stream) {
			clearTimeout(timer);
			timer = undefined;
			yield chunk;
		}
	} finally {
		clearTimeout(timer);
	}
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
