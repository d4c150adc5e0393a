/**
@module Where a log's bytes come from: a `.jsonl` or `.jsonl.zstd`/`.zst` file, a session folder, or
a stream (`-` is stdin). Opening problems become `SessionLogError`s naming the path.
*/
import {constants as fsConstants} from 'node:fs';
import {open, stat} from 'node:fs/promises';
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

/** Opens `source` for streaming. `name` overrides the display name of a stream. */
export async function openLogSource(source: SessionLogSource, name?: string): Promise<OpenedLogSource> {
	if (typeof source !== 'string') {
		return {file: name ?? '<stream>', path: undefined, chunks: source as AsyncIterable<Uint8Array>, close: () => undefined};
	}

	if (source === '-') {
		return {file: name ?? STDIN_NAME, path: undefined, chunks: process.stdin, close: () => undefined};
	}

	const path = await resolveSessionLogPath(source);
	let handle;
	try {
		handle = await open(path, fsConstants.O_RDONLY);
	} catch (error) {
		throw new SessionLogError(path, 0, `cannot open: ${describe(error)}`, {cause: error});
	}

	const stream = handle.createReadStream({highWaterMark: 64 * 1024});
	return {
		file: name ?? path,
		path,
		chunks: stream,
		close: () => {
			stream.destroy();
		},
	};
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
