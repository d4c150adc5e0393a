/**
@module The durable session-log writer (contract.md §E3.7; issue 7 promise 3).

- One writer per file: `<log>.lock` holds the writer's pid (`log-lock.ts`); a second writer gets
  `SessionLogLockedError` naming the file and the holder's pid.
- New file: the header line is written and synced before `open` resolves, so a log is never
  headerless. Existing file: its own header is kept (the `header` argument is then unused), the
  last seq is read from its end and appends continue contiguously.
- Torn tail left by a crash: truncated away on reopen (`repairedBytes` says how many bytes). Those
  bytes were never acknowledged, and truncating keeps every line of the file whole.
- Appends are batched: `append` serialises the line at once and returns the event with its seq; a
  batch (everything appended in one tick) is written with one `write` of whole lines right after
  that tick, so a follower reads it and a crash of this process keeps it. With a descriptor (the
  default handle) that write is `writeSync` on the loop's thread: a few kB into the page cache cost
  less than the thread pool's hop and its callback, once per tick of a streaming turn.
- Syncs are coalesced (`fdatasync`, what survives a crash of the machine, costs a streaming turn
  more CPU than everything else the writer does): one runs `syncDelayMs` after the first batch it
  covers, and at once on `flush()`, `close()`, a `turn/end` and the `exit` handler. `await flush()`
  resolves when everything appended before it is durable (written and synced).
- A failed write (ENOSPC, EACCES, EROFS, …) truncates any partial bytes away, keeps the lines in
  memory for the next attempt (retried once a second, and on `flush()`), is
  reported once per failure streak to `onError` (and its end to `onRecover`), and rejects `flush()` with `SessionLogWriteError`.
  A failed sync does the same with every line written since the last sync (the file is cut back to
  it and they are written again). `append` itself never throws for I/O, so the session keeps running.
- A process that exits without `close()` still gets its pending lines written and synced
  (synchronously, from an `exit` handler, when no write or sync is in flight) and its lock removed.
- Streamed deltas are packed (§E3.7, `chunk-packer.ts`): a run of delta chunks of one block is held
  until another event ends it (or `flush`, `close`, exit), then written as one row; its seqs count
  as unwritten meanwhile.
- A line is never one its reader refuses: an event past the reader's line bounds is kept within
  them first (`line-bounds.ts`: deep values replaced, the longest strings cut, each marked).
- Only plain `.jsonl` is written (there is no zstd compressor among the dependencies); appending to
  a zstd log is refused. A new log is the person's alone (0600, as its lock).
*/
import {fdatasyncSync, writeSync} from 'node:fs';
import {open as openFile, type FileHandle} from 'node:fs/promises';
import {dirname} from 'node:path';
import {isPlainRecord} from '../../json/is-plain-record.js';
import {jsonRoundTripCopy} from '../../json/json-round-trip-copy.js';
import {checkEnvelope, checkEventData} from '../events/event-shape.js';
import type {EventDraft} from '../events/event-log.js';
import {ChunkPacker, type LogLine} from './chunk-packer.js';
import {PACKED_CHUNK_TYPES} from '../events/event-vocabulary.js';
import type {SessionEvent, SessionHeader} from '../events/events.js';
import {acquireLogLock, type LogLock} from './log-lock.js';
import {PRIVATE_FILE_MODE} from '../store/private-mode.js';
import {SessionLogWriteError} from '../reader/log-errors.js';
import {exceedsLineBounds, fitLineBounds} from './line-bounds.js';
import {inspectLogTail, type ReadableLogFile} from './log-tail.js';

/** The file operations the writer uses (a Node `FileHandle` has them); injectable for fault tests. */
export type LogFileHandle = ReadableLogFile & {
	/** Appends (the file is opened in append mode). */
	write(buffer: Uint8Array, offset: number, length: number): Promise<{bytesWritten: number}>;
	datasync(): Promise<void>;
	truncate(length: number): Promise<void>;
	close(): Promise<void>;
	/** The descriptor, when there is one: batches are written to it synchronously (an `exit` handler can too); without one, through `write`. */
	readonly fd?: number;
};

/** Options of `SessionLogWriter.open`. */
export type SessionLogWriterOptions = {
	/** Called once per streak of failed writes (the session should show it and keep running). */
	readonly onError?: (error: SessionLogWriteError) => void;
	/** Called when a write succeeds after a streak of failures (everything pending until then is written; a flush syncs it). */
	readonly onRecover?: () => void;
	/** Opens the log for reading and appending; defaults to `fs.promises.open(path, 'a+')`. */
	readonly openFile?: (path: string) => Promise<LogFileHandle>;
	/** Clock for events appended without `time` (epoch ms). */
	readonly now?: () => number;
	/** Delay before retrying after a failed write, in ms (default 1 000). */
	readonly retryDelayMs?: number;
	/** Longest a written batch waits for its sync while events stream, in ms (default `SYNC_DELAY_MS`). */
	readonly syncDelayMs?: number;
};

/** Default of `syncDelayMs`: what a crash of the machine may lose of a stream (the lead's bound is 100 ms–1 s). */
export const SYNC_DELAY_MS = 200;

/** Events after which the log is synced at once, not after the delay: the end of a turn is when a person looks away. */
const SYNC_AT_ONCE_TYPES: ReadonlySet<string> = new Set(['turn/end']);

/** What `append` takes: a draft (an event without `seq`); `time` defaults to now. */
export type AppendableEvent = EventDraft & {readonly time?: number};

const defaultOpen = async (path: string): Promise<LogFileHandle> => openFile(path, 'a+', PRIVATE_FILE_MODE) as Promise<FileHandle>;

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
	/** Seqs below this, and bytes up to this, are written to the file. */
	private writtenSeq: number;
	private writtenSize: number;
	/** Seqs below this, and bytes up to this, are synced. */
	private syncedSeq: number;
	private syncedSize: number;
	private pending: LogLine[] = [];
	/** Lines written since the last sync, written again if that sync fails. */
	private unsynced: LogLine[] = [];
	private readonly packer = new ChunkPacker();
	/** The write or sync in flight (one at a time, so a sync knows what it covers). */
	private writing: Promise<void> | undefined;
	/** The next batch's write: right after this tick, or a retry after a failure. */
	private timer: {readonly retry: false; readonly handle: NodeJS.Immediate} | {readonly retry: true; readonly handle: NodeJS.Timeout} | undefined;
	private syncTimer: NodeJS.Timeout | undefined;
	/** A sync is wanted before the writer goes idle: its delay has passed, or a flush or turn end asked. */
	private syncWanted = false;
	private failure: SessionLogWriteError | undefined;
	private partialOnDisk = false;
	private closed = false;

	private constructor(path: string, handle: LogFileHandle, lock: LogLock, header: SessionHeader, nextSeq: number, size: number, repairedBytes: number, options: SessionLogWriterOptions) {
		this.path = path;
		this.handle = handle;
		this.lock = lock;
		this.header = header;
		this.seq = nextSeq;
		this.writtenSeq = nextSeq;
		this.writtenSize = size;
		this.syncedSeq = nextSeq;
		this.syncedSize = size;
		this.repairedBytes = repairedBytes;
		this.options = options;
		// A process that exits without `close()`: write and sync what is pending if no write is in flight
		// (one synchronous write of whole lines), and do not leave a lock naming a pid that may be reused.
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

	/** Seqs below this are durable in the file (written and synced). */
	get durableUpTo(): number {
		return this.syncedSeq;
	}

	/** Seqs below this are written to the file (a follower reads them; a crash of this process keeps them). */
	get writtenUpTo(): number {
		return this.writtenSeq;
	}

	/** Events appended but not (yet) written to the file. */
	get unwrittenEvents(): number {
		return this.seq - this.writtenSeq;
	}

	/** The current write failure, until a write succeeds again. */
	get lastError(): SessionLogWriteError | undefined {
		return this.failure;
	}

	/**
	Appends `event` with the next seq and returns the event exactly as the log records it (equal to
	its line parsed back, so live and replayed events are equal). Throws only for programming errors
	(a closed writer, a non-serialisable or ill-shaped event), never for I/O.
	*/
	append(event: AppendableEvent): SessionEvent {
		if (this.closed) {
			throw new Error(`session log writer for ${this.path} is closed`);
		}

		// A caller outside TypeScript may pass anything: the type is checked as any string.
		const {type, time, data, ...rest} = event as {readonly type: string; readonly time?: number; readonly data: unknown; seq?: unknown};
		delete rest.seq;
		if (typeof type !== 'string' || type.length === 0 || type === 'session' || PACKED_CHUNK_TYPES.has(type)) {
			throw new TypeError(`cannot append an event of type ${JSON.stringify(type)} to ${this.path}`);
		}

		const envelope = {type, seq: this.seq, time: time ?? (this.options.now ?? Date.now)(), data, ...rest};
		// The event as the log records it (after `toJSON`, NaN → null, …), so live and replayed events
		// are equal and the check below sees what the reader will: plain data is copied as the round
		// trip would, anything else goes through the round trip itself.
		const copy = jsonRoundTripCopy(envelope);
		let line = `${JSON.stringify(copy ?? envelope)}\n`;
		let parsed = (copy ?? JSON.parse(line)) as Record<string, unknown>;
		if (exceedsLineBounds(line)) {
			// A line the reader would refuse is never written: the event is kept within its bounds.
			const fitted = fitLineBounds(parsed, value => JSON.stringify(value));
			parsed = fitted.record;
			line = `${fitted.line}\n`;
		}

		const checked = !Number.isFinite(parsed.time)
			? '"time" must be a finite number'
			: !isPlainRecord(parsed.data)
				? '"data" must be a plain object'
				: checkEnvelope(parsed) ?? checkEventData(type, parsed.data);
		if (typeof checked === 'string') {
			throw new TypeError(`cannot append "${type}" to ${this.path}: ${checked}`);
		}

		// What the reader will make of the line (the same checks): its arm's event.
		const recorded = (checked === parsed.data ? parsed : {...parsed, data: checked}) as SessionEvent;

		this.seq += 1;
		if (SYNC_AT_ONCE_TYPES.has(type)) {
			this.syncWanted = true;
		}

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
		while (this.syncedSeq < target) {
			this.syncWanted = true;
			// eslint-disable-next-line no-await-in-loop -- one batch written after another, in order
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
		this.cancelSyncTimer();
		await this.writing?.catch(() => undefined);
		await this.handle.close().catch(() => undefined);
		process.removeListener('exit', this.onExit);
		await this.lock.release();
		if (error !== undefined) {
			// eslint-disable-next-line @typescript-eslint/only-throw-error -- what the last flush threw, rethrown once the file is closed
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
		if (this.closed || this.writing !== undefined || this.partialOnDisk || (this.pending.length === 0 && this.syncedSeq === this.writtenSeq) || typeof fd !== 'number') {
			return;
		}

		try {
			const bytes = Buffer.from(this.pending.map(line => line.text).join(''));
			let written = 0;
			while (written < bytes.length) {
				written += writeSync(fd, bytes, written, bytes.length - written);
			}

			this.writtenSeq += eventsOf(this.pending);
			this.writtenSize += bytes.length;
			this.pending = [];
			fdatasyncSync(fd);
			this.syncedSeq = this.writtenSeq;
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

	/** The sync of what was just written, after the delay; it does not keep the process alive (the `exit` handler syncs). */
	private scheduleSync(): void {
		if (this.syncTimer !== undefined || this.syncWanted) {
			return;
		}

		this.syncTimer = setTimeout(() => {
			this.syncTimer = undefined;
			this.syncWanted = true;
			this.writeBatch().catch(() => undefined);
		}, this.options.syncDelayMs ?? SYNC_DELAY_MS).unref();
	}

	private cancelSyncTimer(): void {
		clearTimeout(this.syncTimer);
		this.syncTimer = undefined;
	}

	/** Writes what is pending as one batch, then syncs if a sync is wanted (or joins the batch in flight). */
	private writeBatch(): Promise<void> {
		if (this.writing === undefined) {
			this.writing = this.writePending().finally(() => {
				this.writing = undefined;
				if ((this.pending.length > 0 || this.syncWanted) && !this.closed) {
					this.schedule();
				}
			});
		}

		return this.writing;
	}

	private async writePending(): Promise<void> {
		this.cancelTimer();
		const lines = this.pending;
		if (lines.length === 0 && !this.syncWanted) {
			return;
		}

		this.pending = [];
		try {
			if (this.partialOnDisk) {
				await this.handle.truncate(this.writtenSize);
				this.partialOnDisk = false;
			}

			if (lines.length > 0) {
				const bytes = Buffer.from(lines.map(line => line.text).join(''));
				this.partialOnDisk = true;
				await writeAll(this.handle, bytes);
				this.partialOnDisk = false;
				this.writtenSize += bytes.length;
				this.writtenSeq += eventsOf(lines);
				for (const line of lines) {
					this.unsynced.push(line);
				}
			}
		} catch (error) {
			this.pending = [...lines, ...this.pending];
			await this.cutBackTo(this.writtenSize);
			throw this.failed(error);
		}

		if (this.syncWanted) {
			await this.syncWritten();
		} else {
			this.scheduleSync();
		}

		this.recovered();
	}

	/** Syncs everything written so far. A failure cuts the file back to the last sync and queues those lines again. */
	private async syncWritten(): Promise<void> {
		this.syncWanted = false;
		this.cancelSyncTimer();
		if (this.syncedSeq === this.writtenSeq) {
			return;
		}

		const seq = this.writtenSeq;
		const size = this.writtenSize;
		const lines = this.unsynced;
		this.unsynced = [];
		try {
			await this.handle.datasync();
		} catch (error) {
			this.pending = [...lines, ...this.pending];
			this.writtenSeq = this.syncedSeq;
			this.writtenSize = this.syncedSize;
			this.partialOnDisk = true;
			await this.cutBackTo(this.syncedSize);
			throw this.failed(error);
		}

		this.syncedSeq = seq;
		this.syncedSize = size;
	}

	/**
	Takes bytes after `size` back out so the file keeps only whole lines that will not be written
	again; if that fails too, the next batch tries again before writing.
	*/
	private async cutBackTo(size: number): Promise<void> {
		if (this.partialOnDisk) {
			await this.handle.truncate(size).then(() => {
				this.partialOnDisk = false;
			}, () => undefined);
		}
	}

	private recovered(): void {
		const recovered = this.failure !== undefined;
		this.failure = undefined;
		if (recovered) {
			this.options.onRecover?.();
		}
	}

	/** Records a failed write or sync: reported once per streak, rethrown to `flush()`. */
	private failed(error: unknown): SessionLogWriteError {
		const failure = error instanceof SessionLogWriteError ? error : new SessionLogWriteError(this.path, 'append to', error);
		const firstOfStreak = this.failure === undefined;
		this.failure = failure;
		if (firstOfStreak) {
			this.options.onError?.(failure);
		}

		return failure;
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

/**
Writes all of `bytes` (looping over short writes): with `write(2)` on this thread when the handle
has a descriptor (a batch of a tick is a few kB into the page cache, cheaper than a hop to the thread
pool and back), else through the handle's `write`. With a descriptor it is settled when it returns:
the caller goes on in the same turn of the loop, not after the pool's completion in a later one.
*/
async function writeAll(handle: LogFileHandle, bytes: Uint8Array): Promise<void> {
	const {fd} = handle;
	let written = 0;
	while (written < bytes.length) {
		// eslint-disable-next-line no-await-in-loop -- a short write continues where it stopped
		const bytesWritten = typeof fd === 'number' ? writeSync(fd, bytes, written, bytes.length - written) : (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
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
