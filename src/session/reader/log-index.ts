/**
@module A line index for the pager: the byte offset and length of every event line, built in one
streaming pass, so any event can be read back on demand without keeping the log in memory.

Entries are lines, not events: a packed chunk row is one entry that `readEventAt` expands into its
`assistant/chunk` events. Damaged lines (the same ones the reader reports) are left out of the index
and passed to `onDiagnostic`.

A zstd log cannot be read at an offset, so it is indexed while it is decompressed, once, into a
temporary plain file; `index.path` then names that file (read through it) and `index.dispose()`
removes it. Its damaged regions (checksum mismatches, corrupt frames) are reported with the lines of
the decompressed text, exactly as the reader reports them.
*/
import {closeSync, openSync, writeSync} from 'node:fs';
import {mkdtemp, open, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {LogEventDecoder} from './event-decoder.js';
import type {SessionEvent, SessionHeader} from '../events/events.js';
import {SessionLogError, type LogDiagnostic} from './log-errors.js';
import {logRecords} from './log-records.js';
import {decodeRecord, openSessionLog} from './read-session-log.js';
import {openLogSource, resolveSessionLogPath} from './log-source.js';
import {hasZstdExtension, startsWithZstdMagic} from './zstd-decoder.js';

/** Byte positions of a log's event lines. */
export type SessionLogIndex = {
	/** The log as given (after resolving a session folder). */
	readonly source: string;
	/** The plain file the offsets refer to: `source`, or a decompressed temporary copy of a zstd log. */
	readonly path: string;
	readonly header: SessionHeader;
	/** Number of indexed lines. */
	readonly count: number;
	/** Byte offset of line entry i (`offsets[i]`, i < count); the arrays may be longer than count. */
	readonly offsets: Float64Array;
	/** Byte length of line entry i, without its newline. */
	readonly lengths: Float64Array;
	/** Event type of line entry i (a packed row's is `assistant/chunk`). */
	readonly types: readonly string[];
	/** First seq of line entry i. */
	readonly seqs: Float64Array;
	/** Removes the temporary copy of a zstd log (no-op for plain logs). */
	readonly dispose: () => Promise<void>;
};

/** Options of `indexSessionLog`. */
export type IndexSessionLogOptions = {
	/** Called now and then with the bytes indexed so far. */
	readonly onProgress?: (bytes: number) => void;
	readonly onDiagnostic?: (diagnostic: LogDiagnostic) => void;
};

/** Indexes `source` (a plain or zstd log file, or a session folder). Throws `SessionLogError` for a bad header. */
export async function indexSessionLog(source: string, options: IndexSessionLogOptions | ((bytes: number) => void) = {}): Promise<SessionLogIndex> {
	const {onProgress, onDiagnostic} = typeof options === 'function' ? {onProgress: options, onDiagnostic: undefined} : options;
	const resolved = await resolveSessionLogPath(source);
	if (!(await isCompressed(resolved))) {
		return {source: resolved, path: resolved, dispose: async () => undefined, ...(await indexLines(resolved, undefined, onProgress, onDiagnostic))};
	}

	const folder = await mkdtemp(join(tmpdir(), 'cardterm-index-'));
	const dispose = async (): Promise<void> => rm(folder, {recursive: true, force: true});
	const path = join(folder, 'session.jsonl');
	try {
		const copy = openSync(path, 'w');
		try {
			return {source: resolved, path, dispose, ...(await indexLines(resolved, copy, onProgress, onDiagnostic))};
		} finally {
			closeSync(copy);
		}
	} catch (error) {
		await dispose();
		throw error;
	}
}

/** The events of the line at `offset` (one, or several for a packed row); `[]` for a damaged line. */
export async function readEventAt(path: string, offset: number, length: number): Promise<SessionEvent[]> {
	const handle = await open(path, 'r');
	try {
		const buffer = Buffer.alloc(length);
		const {bytesRead} = await handle.read(buffer, 0, length, offset);
		// A fresh decoder: seq continuity is the indexer's business, not a single line's.
		const decoder = new LogEventDecoder(path, () => undefined);
		return decoder.decode(buffer.toString('utf8', 0, bytesRead), 0);
	} finally {
		await handle.close();
	}
}

/**
One pass over the log's records, reported as the reader reports them. With `copy` (a zstd log), each
decoded line is written to that plain file and indexed at its offset there.
*/
async function indexLines(source: string, copy: number | undefined, onProgress: ((bytes: number) => void) | undefined, onDiagnostic: ((d: LogDiagnostic) => void) | undefined) {
	const log = await openSessionLog(source);
	const header = log.header;
	await log.close();
	const opened = await openLogSource(source);
	const report = (diagnostic: LogDiagnostic) => onDiagnostic?.(diagnostic);
	const decoder = new LogEventDecoder(source, report);
	let capacity = 1024;
	let offsets: Float64Array = new Float64Array(capacity);
	let lengths: Float64Array = new Float64Array(capacity);
	let seqs: Float64Array = new Float64Array(capacity);
	const types: string[] = [];
	let count = 0;
	let lastProgress = 0;
	let written = 0;
	try {
		for await (const record of logRecords(opened.chunks, {name: source})) {
			let offset = record.kind === 'line' ? record.offset : 0;
			let length = record.kind === 'line' ? record.length : 0;
			if (record.kind === 'line' && copy !== undefined) {
				const bytes = Buffer.from(`${record.text}\n`, 'utf8');
				writeSync(copy, bytes);
				offset = written;
				length = bytes.length - 1;
				written += bytes.length;
			}

			if (record.kind === 'line' && record.line === 1) {
				continue;
			}

			const events = decodeRecord(record, decoder, report, source);
			if (record.kind !== 'line' || events.length === 0) {
				continue;
			}

			if (count === capacity) {
				capacity *= 2;
				offsets = grow(offsets, capacity);
				lengths = grow(lengths, capacity);
				seqs = grow(seqs, capacity);
			}

			offsets[count] = offset;
			lengths[count] = length;
			seqs[count] = events[0].seq;
			types.push(events[0].type);
			count += 1;
			if (onProgress !== undefined && record.offset - lastProgress >= 1024 * 1024) {
				lastProgress = record.offset;
				onProgress(record.offset);
			}
		}
	} finally {
		opened.close();
	}

	return {header, count, offsets, lengths, seqs, types};
}

function grow(array: Float64Array, capacity: number): Float64Array {
	const bigger = new Float64Array(capacity);
	bigger.set(array);
	return bigger;
}

/** Whether a log file is zstd-compressed: by its extension, else by the frame magic number. */
export async function isCompressed(path: string): Promise<boolean> {
	if (hasZstdExtension(path)) {
		return true;
	}

	const handle = await open(path, 'r').catch((error: unknown) => {
		throw new SessionLogError(path, 0, `cannot open: ${error instanceof Error ? error.message : String(error)}`, {cause: error});
	});
	try {
		const head = Buffer.alloc(4);
		const {bytesRead} = await handle.read(head, 0, 4, 0);
		return startsWithZstdMagic(head.subarray(0, bytesRead));
	} finally {
		await handle.close();
	}
}
