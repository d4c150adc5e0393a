/**
@module What a writer needs to know about an existing log before appending: its header, where its
last whole line ends (anything after it is a torn tail), and the last seq written. Reads the first
line and then backwards from the end, so reopening a large log costs a few blocks, not a full read.
*/
import {isPlainRecord} from '../../json/is-plain-record.js';
import type {SessionHeader} from '../events/events.js';
import {SessionLogError} from '../reader/log-errors.js';
import {parseHeaderLine} from '../reader/log-header.js';
import {parseLogJson} from '../reader/log-json.js';
import {startsWithZstdMagic} from '../reader/zstd-decoder.js';

/** The reads `inspectLogTail` needs (a Node `FileHandle` has them). */
export type ReadableLogFile = {
	read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{bytesRead: number}>;
	stat(): Promise<{size: number}>;
};

/** The state of an existing log file. */
export type LogTail = {
	/** File size in bytes. */
	readonly size: number;
	/** Bytes up to and including the last `\n`; `size - completeSize` is a torn tail. */
	readonly completeSize: number;
	/** The header, or `undefined` when the file has no whole first line (empty or torn header). */
	readonly header: SessionHeader | undefined;
	/** The last seq of a well-formed event line, or -1 when there is none. */
	readonly lastSeq: number;
};

const BLOCK = 64 * 1024;

/** Inspects an existing log; throws `SessionLogError` for a bad header or a compressed file. */
export async function inspectLogTail(file: ReadableLogFile, path: string): Promise<LogTail> {
	const {size} = await file.stat();
	if (size === 0) {
		return {size, completeSize: 0, header: undefined, lastSeq: -1};
	}

	const start = await readAt(file, 0, Math.min(size, BLOCK));
	if (startsWithZstdMagic(start)) {
		throw new SessionLogError(path, 0, 'cannot append to a zstd-compressed log; cardterm writes plain .jsonl logs');
	}

	const completeSize = await lastNewlineEnd(file, size);
	if (completeSize === 0) {
		return {size, completeSize, header: undefined, lastSeq: -1};
	}

	const header = parseHeaderLine(await firstLine(file, start, completeSize), path);
	return {size, completeSize, header, lastSeq: await lastSeqBefore(file, completeSize)};
}

async function readAt(file: ReadableLogFile, position: number, length: number): Promise<Buffer> {
	const buffer = Buffer.alloc(length);
	let filled = 0;
	while (filled < length) {
		const {bytesRead} = await file.read(buffer, filled, length - filled, position + filled);
		if (bytesRead === 0) {
			break;
		}

		filled += bytesRead;
	}

	return buffer.subarray(0, filled);
}

/** Offset just after the last `\n` (0 when there is none). */
async function lastNewlineEnd(file: ReadableLogFile, size: number): Promise<number> {
	let end = size;
	while (end > 0) {
		const start = Math.max(0, end - BLOCK);
		const block = await readAt(file, start, end - start);
		const index = block.lastIndexOf(10);
		if (index !== -1) {
			return start + index + 1;
		}

		end = start;
	}

	return 0;
}

async function firstLine(file: ReadableLogFile, start: Buffer, completeSize: number): Promise<string> {
	let bytes = start;
	let newline = bytes.indexOf(10);
	while (newline === -1 && bytes.length < completeSize) {
		bytes = Buffer.concat([bytes, await readAt(file, bytes.length, Math.min(BLOCK, completeSize - bytes.length))]);
		newline = bytes.indexOf(10);
	}

	return bytes.toString('utf8', 0, newline === -1 ? bytes.length : newline);
}

/** Walks whole lines backwards from `completeSize` to the first one that carries a seq. */
async function lastSeqBefore(file: ReadableLogFile, completeSize: number): Promise<number> {
	// `window` holds file bytes [windowStart, lineEnd); lineEnd is just after a '\n'.
	let windowStart = completeSize;
	let window = Buffer.alloc(0);
	let lineEnd = completeSize;
	for (;;) {
		const relativeEnd = lineEnd - windowStart;
		const previousNewline = relativeEnd >= 2 ? window.lastIndexOf(10, relativeEnd - 2) : -1;
		if (previousNewline === -1 && windowStart > 0) {
			const start = Math.max(0, windowStart - BLOCK);
			window = Buffer.concat([await readAt(file, start, windowStart - start), window.subarray(0, relativeEnd)]);
			windowStart = start;
			continue;
		}

		const lineStart = previousNewline + 1;
		if (windowStart + lineStart === 0) {
			return -1; // Reached the header: no event line carries a seq.
		}

		const seq = lastSeqOfLine(window.toString('utf8', lineStart, relativeEnd - 1));
		if (seq !== undefined) {
			return seq;
		}

		lineEnd = windowStart + lineStart;
	}
}

/** The highest seq a line stands for: `seq`, or `seq0 + n - 1` for a packed chunk row. */
export function lastSeqOfLine(text: string): number | undefined {
	const parsed = parseLogJson(text);
	if (!parsed.ok) {
		return undefined;
	}

	const value = parsed.value;

	if (!isPlainRecord(value)) {
		return undefined;
	}

	if (Number.isSafeInteger(value.seq) && (value.seq as number) >= 0) {
		return value.seq as number;
	}

	if (Number.isSafeInteger(value.seq0) && isPlainRecord(value.data)) {
		const parts = value.data.texts ?? value.data.args;
		if (Array.isArray(parts) && parts.length > 0) {
			return (value.seq0 as number) + parts.length - 1;
		}
	}

	return undefined;
}
