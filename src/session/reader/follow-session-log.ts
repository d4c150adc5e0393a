/**
@module Follow mode: read a log another process is appending to (plain or zstd), yielding the
events already there and then each new one as it lands.

- Reads only from the last offset; bytes are never read twice, except the few bytes of a held-back
  unfinished line, which are re-checked before reading on (a writer that repairs a torn tail
  truncates it and writes the line again; the re-check notices and drops the stale bytes).
- Wakes on `fs.watch` events of the log's folder (they also tell of a rename, delete or create at
  the path) and on a slow safety poll every `pollIntervalMs` (2 s) for file systems without change
  events. An idle follower does nothing between polls.
- An unfinished last line (a torn tail, or a line still being written) is held back until its
  newline arrives; a zstd frame likewise until it is whole.
- The header is awaited while the file is empty; a bad header throws `SessionLogError`.
- The path is watched, not just the file first opened there (`onState`): nothing at the path is
  `deleted` (the follower waits; the same file coming back is `following` again); another file there
  (renamed over, deleted and created again: another inode or device), or the file's first or last
  read bytes changed (overwritten in place) is `replaced`; a file shrunk below what was read is
  `truncated`. After `replaced` or `truncated` the file is read again from its header: the events
  yielded before belong to the old content.
- A session another agent saves as one JSON document it rewrites whole is read again on each change,
  and only what it adds is yielded (`followDocument`).
- Ends quietly when `signal` aborts.
*/
/* eslint-disable no-await-in-loop -- following a file is a loop of waits: each read waits for the writer */
import {watch, type FSWatcher, type Stats} from 'node:fs';
import {open, readFile, stat, type FileHandle} from 'node:fs/promises';
import {basename, dirname} from 'node:path';
import {LogEventDecoder} from './event-decoder.js';
import type {SessionEvent, SessionHeader} from '../events/events.js';
import {SessionLogError, type LogDiagnostic} from './log-errors.js';
import {isRegularLogFile, resolveSessionLogPath} from './log-source.js';
import {DEFAULT_MAX_LINE_BYTES} from './line-splitter.js';
import {LogRecordStream} from './log-records.js';
import {decodeRecord, headerFromRecord} from './read-session-log.js';
import {ForeignDocumentFollower} from '../foreign/foreign-log-lines.js';

/**
What the followed path holds, as `onState` tells it on each change. `replaced` and `truncated` mean the
file is read again from its header: drop what came before.
*/
export type FollowState = 'following' | 'deleted' | 'replaced' | 'truncated';

/** Options of `followSessionLog`. */
export type FollowSessionLogOptions = {
	readonly signal?: AbortSignal;
	readonly onDiagnostic?: (diagnostic: LogDiagnostic) => void;
	readonly onHeader?: (header: SessionHeader, file: string) => void;
	/** Called when the path's state changes, before any event of a re-read file. */
	readonly onState?: (state: FollowState) => void;
	/** Safety poll of the path while waiting, in ms (default 2000). */
	readonly pollIntervalMs?: number;
	readonly maxLineBytes?: number;
};

const READ_CHUNK = 64 * 1024;
/** Bytes at the start of the file and before the end of what was read that must not change. */
const HEAD_CHECK_BYTES = 4096;
const TAIL_CHECK_BYTES = 64;

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
	const waiter = new ChangeWaiter(path, options.pollIntervalMs ?? 2000);
	if (LONE_BRACE.test((await bytesAt(handle, 0, 16)).toString('utf8'))) {
		// A session saved as one JSON document, rewritten whole as it grows: read again on each change.
		await handle.close().catch(() => undefined);
		try {
			yield * followDocument(path, waiter, report, options);
		} finally {
			waiter.close();
		}

		return;
	}

	let identity: Stats = await handle.stat();
	let state = 'following' as FollowState;
	const setState = (next: FollowState): void => {
		if (next !== state) {
			state = next;
			options.onState?.(next);
		}
	};

	// Reading state, started again when the file is replaced or truncated. The record stream tells
	// plain text from zstd, verifies and bounds zstd frames, and checks the header's first bytes.
	let decoder = new LogEventDecoder(path, report);
	let records = new LogRecordStream({name: path, maxLineBytes});
	let splitter = records.splitter;
	let offset = 0;
	let header: SessionHeader | undefined;
	let headerText: string | undefined;
	let previousHeaderText: string | undefined;
	/** Bytes already read that an append-only writer never changes, to notice an overwrite in place. */
	let checked: {readonly head: Buffer; readonly tail: Buffer; readonly tailAt: number} | undefined;
	/**
	The file's first bytes and the last bytes before `stableEnd()`, as they were read and parsed. Kept
	from the reads themselves: reading them again after parsing could already see an overwrite the
	parse did not, and the check would then miss it (issue 16 item 21: a splice under load).
	*/
	let headRead: Buffer = Buffer.alloc(0);
	let tailRead: Buffer = Buffer.alloc(0);
	/** The path's stat when last looked at: a change is what makes the checked bytes worth reading. */
	let seen: Stats | undefined;
	const restart = (): void => {
		decoder = new LogEventDecoder(path, report);
		records = new LogRecordStream({name: path, maxLineBytes});
		splitter = records.splitter;
		offset = 0;
		previousHeaderText = headerText ?? previousHeaderText;
		header = undefined;
		headerText = undefined;
		checked = undefined;
		headRead = Buffer.alloc(0);
		tailRead = Buffer.alloc(0);
	};

	/** Keeps what `bytes` (read at `at`, while `before` was the stable end and `pending` the held line) adds to the checked bytes. */
	const keepRead = (bytes: Buffer, at: number, before: number, pending: Buffer | undefined): void => {
		if (at < HEAD_CHECK_BYTES) {
			headRead = Buffer.concat([headRead.subarray(0, at), bytes.subarray(0, HEAD_CHECK_BYTES - at)]);
		}

		const end = stableEnd();
		if (end <= before) {
			return;
		}

		// Bytes from `before` on: the held line (when it was held, not skipped as overlong), then these.
		const parts = pending !== undefined && before + pending.length === at ? [pending, bytes] : undefined;
		tailRead = parts === undefined ? tailBytes(Buffer.alloc(0), [bytes], end - at, TAIL_CHECK_BYTES) : tailBytes(tailRead, parts, end - before, TAIL_CHECK_BYTES);
	};

	restart();
	/** Where the bytes no writer rewrites end: a plain log's held-back partial line may be repaired. */
	const stableEnd = (): number => (records.compressed === false ? splitter.completedBytes : offset);
	const changedInPlace = async (): Promise<boolean> => {
		if (checked === undefined) {
			return false;
		}

		return !(await bytesAt(handle, 0, checked.head.length)).equals(checked.head)
			|| !(await bytesAt(handle, checked.tailAt, checked.tail.length)).equals(checked.tail);
	};

	try {
		for (;;) {
			if (options.signal?.aborted) {
				return;
			}
			const current = await stat(path).catch(() => undefined);
			if (current === undefined) {
				setState('deleted');
				await waiter.wait(options.signal);
				continue;
			}

			if (current.ino !== identity.ino || current.dev !== identity.dev) {
				// Another file at the path: read it from its header (it may vanish again meanwhile).
				const next = await open(path, 'r').catch(() => undefined);
				if (next === undefined) {
					await waiter.wait(options.signal);
					continue;
				}
				await handle.close().catch(() => undefined);
				handle = next;
				identity = await handle.stat();
				seen = undefined;
				restart();
				setState('replaced');
				continue;
			}

			if (state === 'deleted') {
				// The same file came back (renamed away and back).
				setState('following');
			}

			const {size} = current;
			const changed = seen === undefined || seen.size !== current.size || seen.mtimeMs !== current.mtimeMs || seen.ctimeMs !== current.ctimeMs;
			seen = current;
			if (size < offset && !(records.compressed === false && size >= splitter.completedBytes)) {
				restart();
				setState('truncated');
				continue;
			}
			if (changed && await changedInPlace()) {
				restart();
				setState('replaced');
				continue;
			}

			if (size < offset) {
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

				const before = stableEnd();
				const pending = records.compressed === false ? splitter.peekPending() : Buffer.alloc(0);
				const at = offset;
				offset += bytes.length;
				progressed = true;
				for (const record of records.push(bytes)) {
					if (header === undefined) {
						header = headerFromRecord(record, path);
						headerText = record.kind === 'line' ? record.text : undefined;
						if (previousHeaderText !== undefined && headerText !== previousHeaderText) {
							// Read again after a truncation, the file turned out to hold another log.
							setState('replaced');
						}

						options.onHeader?.(header, path);
						continue;
					}

					yield * decodeRecord(record, decoder, report, path);
					if (options.signal?.aborted) {
						return;
					}
				}

				keepRead(bytes, at, before, pending);
				if (records.done) {
					return; // Corrupt compressed data: nothing after it can be read (reported above).
				}
			}

			if (progressed) {
				const end = stableEnd();
				// A line longer than one read, skipped as overlong, leaves fewer kept bytes than asked: those are checked.
				checked = {head: headRead.subarray(0, Math.min(end, HEAD_CHECK_BYTES)), tail: tailRead, tailAt: end - tailRead.length};
			} else {
				await waiter.wait(options.signal);
			}
		}
	} finally {
		waiter.close();
		await handle.close().catch(() => undefined);
	}
}

/** A file whose first line is a lone `{`: a pretty-printed JSON document (foreign-log-lines.ts). */
const LONE_BRACE = /^\uFEFF?\s*\{\s*\n/;
/** The largest such document followed (each change reads it whole). */
const MAX_DOCUMENT_BYTES = 256 * 2 ** 20;

/**
Follows a session another agent saves as one JSON document (Gemini CLI's chats before its JSONL
ones): each time the path changes, the whole document is read again and what its new version adds
is yielded (ForeignDocumentFollower: by record index, each message and call once). A version that
does not parse (being written) is read again at the next change.
*/
async function * followDocument(path: string, waiter: ChangeWaiter, report: (diagnostic: LogDiagnostic) => void, options: FollowSessionLogOptions): AsyncGenerator<SessionEvent, void, undefined> {
	const follower = new ForeignDocumentFollower();
	const decoder = new LogEventDecoder(path, report);
	let header: SessionHeader | undefined;
	let seen: Stats | undefined;
	let deleted = false;
	for (;;) {
		if (options.signal?.aborted) {
			return;
		}

		const current = await stat(path).catch(() => undefined);
		if (current === undefined) {
			if (!deleted) {
				deleted = true;
				options.onState?.('deleted');
			}

			await waiter.wait(options.signal);
			continue;
		}

		if (deleted) {
			deleted = false;
			options.onState?.('following');
		}

		if (seen !== undefined && seen.size === current.size && seen.mtimeMs === current.mtimeMs && seen.ino === current.ino) {
			await waiter.wait(options.signal);
			continue;
		}

		seen = current;
		if (current.size > MAX_DOCUMENT_BYTES) {
			throw new SessionLogError(path, 1, `a JSON document longer than ${MAX_DOCUMENT_BYTES / 2 ** 20} MiB: not followed`);
		}

		const text = await readFile(path, 'utf8').catch(() => undefined);
		const lines = text === undefined ? [] : follower.update(text);
		if (lines === undefined) {
			throw new SessionLogError(path, 1, 'not a session of an agent cardterm reads (a JSON document, but no format claims it)');
		}

		for (const line of lines) {
			const record = line.value === undefined ? {kind: 'line' as const, line: 1, offset: 0, length: 0, text: line.text} : {kind: 'line' as const, line: 1, offset: 0, length: 0, text: line.text, value: line.value};
			if (header === undefined) {
				header = headerFromRecord(record, path);
				options.onHeader?.(header, path);
				continue;
			}

			yield * decodeRecord(record, decoder, report, path);
		}
	}
}

/** The last `n` bytes of `previous` followed by the first `length` bytes of `parts`. */
function tailBytes(previous: Buffer, parts: readonly Buffer[], length: number, n: number): Buffer {
	const pieces: Buffer[] = [];
	let want = n;
	let start = parts.reduce((total, part) => total + part.length, 0);
	for (let index = parts.length - 1; index >= 0 && want > 0; index--) {
		const part = parts[index]!;
		start -= part.length;
		const stop = Math.min(part.length, length - start);
		if (stop <= 0) {
			continue;
		}

		const from = Math.max(0, stop - want);
		pieces.unshift(part.subarray(from, stop));
		want -= stop - from;
	}

	if (want > 0) {
		pieces.unshift(previous.subarray(Math.max(0, previous.length - want)));
	}

	return Buffer.concat(pieces);
}

async function bytesAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
	const buffer = Buffer.alloc(length);
	const {bytesRead} = await handle.read(buffer, 0, length, position);
	return buffer.subarray(0, bytesRead);
}

/**
Resolves waits on a change event for the path or a poll tick, whichever comes first. The folder is
watched, not the file: a watch on the file follows its inode and stays silent when another file is
renamed over the path, or when it is deleted and created again.
*/
class ChangeWaiter {
	readonly #folder: string;
	readonly #name: string;
	readonly #pollIntervalMs: number;
	#watcher: FSWatcher | undefined;
	#changed = false;
	#closed = false;
	#wake: (() => void) | undefined;

	constructor(path: string, pollIntervalMs: number) {
		this.#folder = dirname(path);
		this.#name = basename(path);
		this.#pollIntervalMs = pollIntervalMs;
		this.#startWatching();
	}

	/** Waits for a change, a poll tick, or the abort of `signal`. */
	async wait(signal: AbortSignal | undefined): Promise<void> {
		if (this.#changed) {
			this.#changed = false;
			return;
		}

		if (signal?.aborted) {
			return;
		}

		// The folder itself may have been removed and made again since the last wait.
		this.#startWatching();
		await new Promise<void>(resolve => {
			const done = () => {
				clearTimeout(timer);
				signal?.removeEventListener('abort', done);
				this.#wake = undefined;
				this.#changed = false;
				resolve();
			};

			const timer = setTimeout(done, this.#pollIntervalMs);
			signal?.addEventListener('abort', done, {once: true});
			this.#wake = done;
		});
	}

	close(): void {
		this.#closed = true;
		this.#watcher?.close();
		this.#watcher = undefined;
		this.#wake?.();
	}

	#startWatching(): void {
		if (this.#watcher !== undefined || this.#closed) {
			return;
		}

		try {
			const watcher = watch(this.#folder, {persistent: false}, (_event, name) => {
				// Events name the entry that changed; the log's lock file and neighbours are not the log.
				if (name === null || String(name) === this.#name) {
					this.#notify();
				}
			});
			watcher.on('error', () => {
				watcher.close();
				if (this.#watcher === watcher) {
					this.#watcher = undefined;
				}

				this.#notify();
			});
			this.#watcher = watcher;
		} catch {
			// No change events here (or no folder right now): the poll drives reading.
			this.#watcher = undefined;
		}
	}

	#notify(): void {
		if (this.#wake === undefined) {
			this.#changed = true;
		} else {
			this.#wake();
		}
	}
}
