/**
@module The durable session-log writer (presentation-events.md §3.7; issue 7 promise 3).

- One writer per file: `<log>.lock` holds the writer's pid (`log-lock.ts`); a second writer gets
  `SessionLogLockedError` naming the file and the holder's pid.
- New file: the header line is written and synced before `open` resolves, so a log is never
  headerless. Existing file: its own header is kept (the `header` argument is then unused), the
  last seq is read from its end and appends continue contiguously.
- Torn tail left by a crash: truncated away on reopen (`repairedBytes` says how many bytes). Those
  bytes were never acknowledged, and truncating keeps every line of the file whole.
- Appends are batched: `append` serialises the line at once and returns the event with its seq; a
  batch (everything appended in one tick) is written with one `write` of whole lines, then
  `fdatasync`ed. `await flush()` resolves when everything appended before it is durable.
- A failed write (ENOSPC, EACCES, EROFS, …) truncates any partial bytes away, keeps the lines in
  memory for the next attempt (retried once a second, and on `flush()`), is
  reported once per failure streak to `onError` (and its end to `onRecover`), and rejects `flush()` with `SessionLogWriteError`.
  `append` itself never throws for I/O, so the session keeps running.
- A process that exits without `close()` still gets its pending lines written (synchronously, from an
  `exit` handler, when no write is in flight) and its lock removed.
- Streamed deltas are packed (§3.7, `chunk-packer.ts`): a run of delta chunks of one block is held
  until another event ends it (or `flush`, `close`, exit), then written as one row; its seqs count
  as unwritten meanwhile.
- Only plain `.jsonl` is written (there is no zstd compressor among the dependencies); appending to
  a zstd log is refused.
*/
import {fdatasyncSync, writeSync} from 'node:fs';
import {open as openFile, type FileHandle} from 'node:fs/promises';
import {dirname} from 'node:path';
import {isPlainRecord} from '../json/is-plain-record.js';
import {checkEventData} from './event-shape.js';
import {ChunkPacker, type LogLine} from './chunk-packer.js';
import {PACKED_CHUNK_TYPES} from './event-vocabulary.js';
import type {EventEnvelope, SessionEvent, SessionHeader} from './events.js';
import {acquireLogLock, type LogLock} from './log-lock.js';
import {SessionLogWriteError} from './log-errors.js';
import {inspectLogTail, type ReadableLogFile} from './log-tail.js';

/** The file operations the writer uses (a Node `FileHandle` has them); injectable for fault tests. */
export type LogFileHandle = ReadableLogFile & {
	/** Appends (the file is opened in append mode). */
	write(buffer: Uint8Array, offset: number, length: number): Promise<{bytesWritten: number}>;
	datasync(): Promise<void>;
	truncate(length: number): Promise<void>;
	close(): Promise<void>;
	/** The descriptor, when there is one: lets an `exit` handler write what is pending synchronously. */
	readonly fd?: number;
};

/** Options of `SessionLogWriter.open`. */
export type SessionLogWriterOptions = {
	/** Called once per streak of failed writes (the session should show it and keep running). */
	readonly onError?: (error: SessionLogWriteError) => void;
	/** Called when a write succeeds after a streak of failures (everything pending until then is durable). */
	readonly onRecover?: () => void;
	/** Opens the log for reading and appending; defaults to `fs.promises.open(path, 'a+')`. */
	readonly openFile?: (path: string) => Promise<LogFileHandle>;
	/** Clock for events appended without `time` (epoch ms). */
	readonly now?: () => number;
	/** Delay before retrying after a failed write, in ms (default 1 000). */
	readonly retryDelayMs?: number;
};

/** What `append` takes: an event without `seq`; `time` defaults to now. */
export type AppendableEvent<Type extends string = string, Data = unknown> = Omit<EventEnvelope<Type, Data>, 'seq' | 'time'> & {readonly time?: number};

const defaultOpen = async (path: string): Promise<LogFileHandle> => openFile(path, 'a+') as Promise<FileHandle>;

/** Appends events durably to one plain JSONL session log. */
export class SessionLogWriter {
	/** Opens (creating with `header` when new) and locks `path`. Throws `SessionLogLockedError`, `SessionLogWriteError` or `SessionLogError`. */
	static async open(path: string, header: SessionHeader | undefined, options: SessionLogWriterOptions = {}): Promise<SessionLogWriter> {
		const lock = await acquireLogLock(path);
		let handle: LogFileHandle | undefined;
		try {
			try {
				handle = await (options.openFile ?? defaultOpen)(path);
			} catch (error) {
				throw new SessionLogWriteError(path, 'open', error);
			}

			const tail = await inspectLogTail(handle, path);
			let size = tail.completeSize;
			const repairedBytes = tail.size - tail.completeSize;
			let logHeader = tail.header;
			try {
				if (repairedBytes > 0) {
					await handle.truncate(tail.completeSize);
				}

				if (logHeader === undefined) {
					if (header === undefined) {
						throw new Error(`session log ${path} has no header; pass one to create it`);
					}

					const line = Buffer.from(`${JSON.stringify(header)}\n`);
					await writeAll(handle, line);
					size = line.length;
					logHeader = header;
				}

				await handle.datasync();
				if (tail.size === 0) {
					await syncDirectory(dirname(path));
				}
			} catch (error) {
				throw error instanceof Error && !('code' in error) ? error : new SessionLogWriteError(path, 'initialise', error);
			}

			return new SessionLogWriter(path, handle, lock, logHeader, tail.lastSeq + 1, size, repairedBytes, options);
		} catch (error) {
			await handle?.close().catch(() => undefined);
			await lock.release();
			throw error;
		}
	}

	/** The log's path. */
	readonly path: string;
	/** The log's header (the existing one when appending to a log). */
	readonly header: SessionHeader;
	/** Bytes of a torn tail removed when the log was reopened (0 when it was clean). */
	readonly repairedBytes: number;

	private readonly handle: LogFileHandle;
	private readonly lock: LogLock;
	private readonly options: SessionLogWriterOptions;
	private readonly onExit: () => void;
	private seq: number;
	private durableSeq: number;
	private durableSize: number;
	private pending: LogLine[] = [];
	private readonly packer = new ChunkPacker();
	private writing: Promise<void> | undefined;
	/** The next batch's write: right after this tick, or a retry after a failure. */
	private timer: {readonly retry: false; readonly handle: NodeJS.Immediate} | {readonly retry: true; readonly handle: NodeJS.Timeout} | undefined;
	private failure: SessionLogWriteError | undefined;
	private partialOnDisk = false;
	private closed = false;

	private constructor(path: string, handle: LogFileHandle, lock: LogLock, header: SessionHeader, nextSeq: number, size: number, repairedBytes: number, options: SessionLogWriterOptions) {
		this.path = path;
		this.handle = handle;
		this.lock = lock;
		this.header = header;
		this.seq = nextSeq;
		this.durableSeq = nextSeq;
		this.durableSize = size;
		this.repairedBytes = repairedBytes;
		this.options = options;
		// A process that exits without `close()`: write what is pending if no write is in flight (one
		// synchronous write of whole lines), and do not leave a lock naming a pid that may be reused.
		this.onExit = () => {
			this.writePendingSync();
			lock.releaseSync();
		};

		process.once('exit', this.onExit);
	}

	/** The seq the next appended event gets. */
	get nextSeq(): number {
		return this.seq;
	}

	/** Seqs below this are durable in the file. */
	get durableUpTo(): number {
		return this.durableSeq;
	}

	/** Events appended but not (yet) durable in the file. */
	get unwrittenEvents(): number {
		return this.seq - this.durableSeq;
	}

	/** The current write failure, until a write succeeds again. */
	get lastError(): SessionLogWriteError | undefined {
		return this.failure;
	}

	/**
	Appends `event` with the next seq and returns the event exactly as the log records it (parsed
	back from its line, so live and replayed events are equal). Throws only for programming errors
	(a closed writer, a non-serialisable or ill-shaped event), never for I/O.
	*/
	append<Type extends string, Data>(event: AppendableEvent<Type, Data>): EventEnvelope<Type, Data> {
		if (this.closed) {
			throw new Error(`session log writer for ${this.path} is closed`);
		}

		const {type, time, data, ...rest} = event as AppendableEvent & {seq?: unknown};
		delete rest.seq;
		if (typeof type !== 'string' || type.length === 0 || type === 'session' || PACKED_CHUNK_TYPES.has(type)) {
			throw new TypeError(`cannot append an event of type ${JSON.stringify(type)} to ${this.path}`);
		}

		const line = `${JSON.stringify({type, seq: this.seq, time: time ?? (this.options.now ?? Date.now)(), data, ...rest})}\n`;
		// Check what the log will hold (after `toJSON`, NaN → null, …), not the caller's object, so
		// the reader never rejects a line this writer wrote.
		const recorded = JSON.parse(line) as EventEnvelope<Type, Data>;
		const problem = !Number.isFinite(recorded.time)
			? '"time" must be a finite number'
			: !isPlainRecord(recorded.data)
				? '"data" must be a plain object'
				: checkEventData(type, recorded.data);
		if (problem !== undefined) {
			throw new TypeError(`cannot append "${type}" to ${this.path}: ${problem}`);
		}

		this.seq += 1;
		const lines = this.packer.add(recorded, line);
		if (lines.length > 0) {
			for (const ready of lines) {
				this.pending.push(ready);
			}

			this.schedule();
		}

		return recorded;
	}

	/** Resolves when every event appended before the call is durable; rejects with `SessionLogWriteError`. */
	async flush(): Promise<void> {
		this.closeRun();
		const target = this.seq;
		while (this.durableSeq < target) {
			await this.writeBatch();
		}
	}

	/** Flushes, syncs, closes the file and releases the lock. Rejects if the final flush failed (the lock is released anyway). */
	async close(): Promise<void> {
		if (this.closed) {
			return;
		}

		let error: unknown;
		try {
			await this.flush();
		} catch (thrown) {
			error = thrown;
		}

		this.closed = true;
		this.cancelTimer();
		await this.writing?.catch(() => undefined);
		await this.handle.close().catch(() => undefined);
		process.removeListener('exit', this.onExit);
		await this.lock.release();
		if (error !== undefined) {
			throw error;
		}
	}

	/** Ends the open delta run so its events become lines. */
	private closeRun(): void {
		for (const line of this.packer.close()) {
			this.pending.push(line);
		}
	}

	private writePendingSync(): void {
		this.closeRun();
		const fd = this.handle.fd;
		if (this.closed || this.writing !== undefined || this.partialOnDisk || this.pending.length === 0 || typeof fd !== 'number') {
			return;
		}

		try {
			const bytes = Buffer.from(this.pending.map(line => line.text).join(''));
			let written = 0;
			while (written < bytes.length) {
				written += writeSync(fd, bytes, written, bytes.length - written);
			}

			fdatasyncSync(fd);
			this.durableSeq += eventsOf(this.pending);
			this.pending = [];
		} catch {
			// Exiting anyway: the lines stay unwritten, exactly as if the process had been killed.
		}
	}

	private schedule(): void {
		if (this.timer !== undefined || this.writing !== undefined) {
			return;
		}

		const run = () => {
			this.timer = undefined;
			this.writeBatch().catch(() => undefined);
		};

		// After a failure, retry slowly instead of hammering a full disk; the retry alone does not keep
		// the process alive.
		this.timer = this.failure === undefined ? {retry: false, handle: setImmediate(run)} : {retry: true, handle: setTimeout(run, this.options.retryDelayMs ?? 1000).unref()};
	}

	private cancelTimer(): void {
		// Each with its own clear: `clearImmediate` of a timeout miscounts Node's pending immediates,
		// after which no `setImmediate` callback of the process runs again.
		if (this.timer?.retry === true) {
			clearTimeout(this.timer.handle);
		} else if (this.timer !== undefined) {
			clearImmediate(this.timer.handle);
		}

		this.timer = undefined;
	}

	/** Writes what is pending as one batch (or joins the batch in flight). */
	private writeBatch(): Promise<void> {
		if (this.writing === undefined) {
			this.writing = this.writePending().finally(() => {
				this.writing = undefined;
				if (this.pending.length > 0 && !this.closed) {
					this.schedule();
				}
			});
		}

		return this.writing;
	}

	private async writePending(): Promise<void> {
		this.cancelTimer();
		const lines = this.pending;
		if (lines.length === 0) {
			return;
		}

		this.pending = [];
		try {
			if (this.partialOnDisk) {
				await this.handle.truncate(this.durableSize);
				this.partialOnDisk = false;
			}

			const bytes = Buffer.from(lines.map(line => line.text).join(''));
			this.partialOnDisk = true;
			await writeAll(this.handle, bytes);
			await this.handle.datasync();
			this.partialOnDisk = false;
			this.durableSize += bytes.length;
			this.durableSeq += eventsOf(lines);
			const recovered = this.failure !== undefined;
			this.failure = undefined;
			if (recovered) {
				this.options.onRecover?.();
			}
		} catch (error) {
			this.pending = [...lines, ...this.pending];
			// Take partial bytes back out so the file keeps only whole lines; if that fails too, the
			// next batch tries again before writing.
			if (this.partialOnDisk) {
				await this.handle.truncate(this.durableSize).then(() => {
					this.partialOnDisk = false;
				}, () => undefined);
			}

			const failure = error instanceof SessionLogWriteError ? error : new SessionLogWriteError(this.path, 'append to', error);
			const firstOfStreak = this.failure === undefined;
			this.failure = failure;
			if (firstOfStreak) {
				this.options.onError?.(failure);
			}

			throw failure;
		}
	}
}

/** How many events (seqs) these lines stand for. */
function eventsOf(lines: readonly LogLine[]): number {
	let events = 0;
	for (const line of lines) {
		events += line.events;
	}

	return events;
}

/** Writes all of `bytes` (looping over short writes). */
async function writeAll(handle: LogFileHandle, bytes: Uint8Array): Promise<void> {
	let written = 0;
	while (written < bytes.length) {
		const {bytesWritten} = await handle.write(bytes, written, bytes.length - written);
		if (bytesWritten <= 0) {
			throw new Error('write made no progress');
		}

		written += bytesWritten;
	}
}

/** Makes a newly created file's directory entry durable (best effort: not every platform allows it). */
async function syncDirectory(directory: string): Promise<void> {
	const handle = await openFile(directory, 'r').catch(() => undefined);
	await handle?.sync().catch(() => undefined);
	await handle?.close().catch(() => undefined);
}
