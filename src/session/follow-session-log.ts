/**
@module Follow mode: read a log another process is appending to (plain or zstd), yielding the
events already there and then each new one as it lands.

- Reads only from the last offset; bytes are never read twice, except the few bytes of a held-back
  unfinished line, which are re-checked before reading on (a writer that repairs a torn tail
  truncates it and writes the line again; the re-check notices and drops the stale bytes).
- Wakes on `fs.watch` events and, as a fallback for file systems without change events, on a poll of
  the file size every `pollIntervalMs` (250 ms) while it waits. No busy loop.
- An unfinished last line (a torn tail, or a line still being written) is held back until its
  newline arrives; a zstd frame likewise until it is whole.
- The header is awaited while the file is empty; a bad header throws `SessionLogError`. A file that
  shrinks below what was already read (replaced or truncated) throws `SessionLogError`.
- Ends quietly when `signal` aborts.
*/
import {watch, type FSWatcher} from 'node:fs';
import {open, type FileHandle} from 'node:fs/promises';
import {LogEventDecoder} from './event-decoder.js';
import type {SessionEvent, SessionHeader} from './events.js';
import {SessionLogError, type LogDiagnostic} from './log-errors.js';
import {parseHeaderLine} from './log-header.js';
import {isRegularLogFile, resolveSessionLogPath} from './log-source.js';
import {DEFAULT_MAX_LINE_BYTES} from './line-splitter.js';
import {LogRecordStream, type LogRecord} from './log-records.js';
import {decodeRecord} from './read-session-log.js';

/** Options of `followSessionLog`. */
export type FollowSessionLogOptions = {
	readonly signal?: AbortSignal;
	readonly onDiagnostic?: (diagnostic: LogDiagnostic) => void;
	readonly onHeader?: (header: SessionHeader, file: string) => void;
	/** Fallback poll of the file size while waiting, in ms (default 250). */
	readonly pollIntervalMs?: number;
	readonly maxLineBytes?: number;
};

const READ_CHUNK = 64 * 1024;

/** Yields a log's events, then keeps yielding new ones until `signal` aborts. */
export async function * followSessionLog(source: string, options: FollowSessionLogOptions = {}): AsyncGenerator<SessionEvent, void, undefined> {
	const path = await resolveSessionLogPath(source);
	if (!(await isRegularLogFile(path).catch(() => true))) {
		// Following reads at offsets and polls the size: a FIFO or device has neither (replay reads it as a stream).
		throw new SessionLogError(path, 0, 'not a regular file: only a file can be followed (cardterm replay reads a FIFO or a device as a stream)');
	}

	let handle: FileHandle;
	try {
		handle = await open(path, 'r');
	} catch (error) {
		throw new SessionLogError(path, 0, `cannot open: ${error instanceof Error ? error.message : String(error)}`, {cause: error});
	}

	const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
	const report = (diagnostic: LogDiagnostic) => options.onDiagnostic?.(diagnostic);
	const decoder = new LogEventDecoder(path, report);
	const records = new LogRecordStream({name: path, maxLineBytes});
	const {splitter} = records;
	const waiter = new ChangeWaiter(path, options.pollIntervalMs ?? 250);
	let offset = 0;
	let header: SessionHeader | undefined;

	try {
		for (;;) {
			if (options.signal?.aborted) {
				return;
			}

			const {size} = await handle.stat();
			if (size < offset) {
				if (records.compressed !== false || size < splitter.completedBytes) {
					throw new SessionLogError(path, splitter.nextLine, `the file shrank to ${size} bytes while being followed (it was replaced or truncated below the ${offset} bytes already read); follow stopped`);
				}

				// Only the held-back partial line was cut (a writer repairing a torn tail).
				splitter.dropPending();
				offset = splitter.completedBytes;
			} else if (records.compressed === false && splitter.pendingBytes > 0 && size > offset) {
				const held = splitter.peekPending();
				if (held !== undefined && !(await bytesAt(handle, splitter.completedBytes, held.length)).equals(held)) {
					splitter.dropPending();
					offset = splitter.completedBytes;
				}
			}

			let progressed = false;
			while (offset < size) {
				const bytes = await bytesAt(handle, offset, Math.min(READ_CHUNK, size - offset));
				if (bytes.length === 0) {
					break;
				}

				offset += bytes.length;
				progressed = true;
				for (const record of records.push(bytes)) {
					if (header === undefined) {
						header = readHeaderRecord(record, path);
						options.onHeader?.(header, path);
						continue;
					}

					yield * decodeRecord(record, decoder, report, path);
					if (options.signal?.aborted) {
						return;
					}
				}

				if (records.done) {
					return; // Corrupt compressed data: nothing after it can be read (reported above).
				}
			}

			if (!progressed) {
				await waiter.wait(options.signal);
			}
		}
	} finally {
		waiter.close();
		await handle.close().catch(() => undefined);
	}
}

function readHeaderRecord(record: LogRecord, path: string): SessionHeader {
	switch (record.kind) {
		case 'line':
			return parseHeaderLine(record.text, path);
		case 'overlong':
			throw new SessionLogError(path, 1, `missing header: line 1 is longer than the ${record.limit}-byte limit of a header`);
		case 'not-a-log':
			throw new SessionLogError(path, 1, record.message);
		case 'zstd-corrupt':
		case 'zstd-bad-frame':
			throw new SessionLogError(path, 1, `missing header: ${record.message}`);
		default:
			// A torn tail or cut frame is only reported when input ends, which follow mode never does.
			throw new SessionLogError(path, 1, 'missing header: line 1 is incomplete');
	}
}

async function bytesAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
	const buffer = Buffer.alloc(length);
	const {bytesRead} = await handle.read(buffer, 0, length, position);
	return buffer.subarray(0, bytesRead);
}

/** Resolves waits on a file change event or a poll tick, whichever comes first. */
class ChangeWaiter {
	private readonly pollIntervalMs: number;
	private readonly watcher: FSWatcher | undefined;
	private changed = false;
	private wake: (() => void) | undefined;

	constructor(path: string, pollIntervalMs: number) {
		this.pollIntervalMs = pollIntervalMs;
		try {
			this.watcher = watch(path, {persistent: false}, () => {
				this.notify();
			});
			this.watcher.on('error', () => undefined);
		} catch {
			// No change events here: the poll alone drives reading.
			this.watcher = undefined;
		}
	}

	/** Waits for a change, a poll tick, or the abort of `signal`. */
	async wait(signal: AbortSignal | undefined): Promise<void> {
		if (this.changed) {
			this.changed = false;
			return;
		}

		if (signal?.aborted) {
			return;
		}

		await new Promise<void>(resolve => {
			const done = () => {
				clearTimeout(timer);
				signal?.removeEventListener('abort', done);
				this.wake = undefined;
				this.changed = false;
				resolve();
			};

			const timer = setTimeout(done, this.pollIntervalMs);
			signal?.addEventListener('abort', done, {once: true});
			this.wake = done;
		});
	}

	close(): void {
		this.watcher?.close();
		this.wake?.();
	}

	private notify(): void {
		if (this.wake === undefined) {
			this.changed = true;
		} else {
			this.wake();
		}
	}
}
