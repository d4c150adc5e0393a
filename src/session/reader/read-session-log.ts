/**
@module Reading a session log (contract.md §E3.7, §E3.8 steps 1–2): header check, then a
stream of events with packed chunk rows expanded and damaged lines reported as diagnostics.

```ts
const log = await openSessionLog('run.jsonl.zstd', {onDiagnostic: d => console.error(d.reason)});
log.header.cwd;                       // the header is read before `openSessionLog` resolves
for await (const event of log.events) { … }
log.diagnostics;                      // every diagnostic so far (the first 1 000; see diagnosticCount)
```

`readSessionLog(source)` is the same stream as a bare generator; its first `next()` throws the
`SessionLogError` of a bad header, and `onHeader` hands over the header.

Sources: a `.jsonl` file, a `.jsonl.zstd`/`.zst` file (or any file or stream starting with the zstd
magic number), a session folder (its `session.jsonl*`), `-` for stdin, or any readable stream.

Memory is bounded by one read chunk (64 KiB) plus the longest line (`maxLineBytes`, default 64 MiB;
longer lines are skipped and reported; the header's bound is 1 MiB), plus for zstd one frame window
(at most 128 MiB; a frame asking for more is reported as corrupt) and one frame's text held until its
checksum matches (at most 16 MiB). Lines nesting deeper than 512 are refused before they are parsed
(log-json.ts). Aborting `signal` ends the stream quietly.
*/
import {assertNever} from '../../presentation/assert-never.js';
import {LogEventDecoder} from './event-decoder.js';
import type {SessionEvent, SessionHeader} from '../events/events.js';
import {KeptDiagnostics} from './kept-diagnostics.js';
import {SessionLogError, type LogDiagnostic} from './log-errors.js';
import {parseHeaderLine} from './log-header.js';
import {LogRecordStream, type LogRecord} from './log-records.js';
import {openLogSource, type SessionLogSource} from './log-source.js';
import {DEFAULT_MAX_LINE_BYTES} from './line-splitter.js';

/** Options of the reader. */
export type ReadSessionLogOptions = {
	/** Called for each damaged line, in file order. */
	readonly onDiagnostic?: (diagnostic: LogDiagnostic) => void;
	/** Ends reading quietly when aborted. */
	readonly signal?: AbortSignal;
	/** Longest line held in memory (bytes); longer ones are skipped and reported. */
	readonly maxLineBytes?: number;
	/** Display name for diagnostics (defaults to the path, `<stdin>` or `<stream>`). */
	readonly name?: string;
	/** Told that a FIFO has sent nothing yet (see log-source.ts). */
	readonly onWaiting?: (message: string) => void;
};

/** Options of `readSessionLog`: the reader's, plus a way to receive the header. */
export type ReadSessionLogGeneratorOptions = ReadSessionLogOptions & {
	readonly onHeader?: (header: SessionHeader, file: string) => void;
};

/** An opened log: header read and checked, events not yet read. */
export type OpenedSessionLog = {
	/** The display name used in diagnostics (the resolved path for files and folders). */
	readonly file: string;
	readonly header: SessionHeader;
	/** Events after the header, in seq order; iterate once. */
	readonly events: AsyncGenerator<SessionEvent, void, undefined>;
	/**
	The same events, a slice of a read at a time: one await per slice instead of one per event, for a
	reader that goes through a whole log (replay). Each batch decodes its lines as it is iterated (so a
	chunk's events are not all held at once, and diagnostics come in line order as with `events`):
	read it to its end before asking for the next. Iterate this or `events`, not both.
	*/
	readonly eventBatches: AsyncGenerator<Iterable<SessionEvent>, void, undefined>;
	/** Diagnostics reported so far (at most `MAX_KEPT_DIAGNOSTICS`). */
	readonly diagnostics: readonly LogDiagnostic[];
	/** All diagnostics reported so far, including those not kept. */
	readonly diagnosticCount: number;
	/** Stops reading and releases the file (also done when `events` finishes or is returned). */
	readonly close: () => Promise<void>;
};

/**
Opens a log and reads its header. Throws `SessionLogError` (exit code 65) when the header is missing,
unparsable or of another version, when the file is empty, or when the file cannot be opened.
*/
export async function openSessionLog(source: SessionLogSource, options: ReadSessionLogOptions = {}): Promise<OpenedSessionLog> {
	const opened = await openLogSource(source, options.name, {onWaiting: options.onWaiting});
	const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
	const records = new ChunkRecords(opened.chunks, new LogRecordStream({name: opened.path ?? options.name, maxLineBytes}), options.signal);
	const damage = new KeptDiagnostics();
	const report = (diagnostic: LogDiagnostic): void => {
		damage.add(diagnostic);
		options.onDiagnostic?.(diagnostic);
	};

	let closed = false;
	const close = async (): Promise<void> => {
		if (!closed) {
			closed = true;
			opened.close();
			records.close();
		}
	};

	let header: SessionHeader;
	try {
		header = await readHeader(records, opened.file);
	} catch (error) {
		await close();
		throw error;
	}

	const decoder = new LogEventDecoder(opened.file, report);
	const events = (async function * (): AsyncGenerator<SessionEvent, void, undefined> {
		try {
			// A slice's records (ChunkRecords) are decoded in one go: one await per slice, not per line.
			// eslint-disable-next-line no-await-in-loop -- one batch after another, bounded memory
			for (let batch: LogRecord[] | undefined = records.takeBuffered(); ; batch = await readRecords(records, opened.file)) {
				if (batch === undefined) {
					return;
				}

				for (const record of batch) {
					if (options.signal?.aborted === true) {
						return;
					}

					for (const event of decodeRecord(record, decoder, report, opened.file)) {
						yield event;
					}
				}
			}
		} finally {
			await close();
		}
	})();

	const eventBatches = (async function * (): AsyncGenerator<Iterable<SessionEvent>, void, undefined> {
		try {
			// eslint-disable-next-line no-await-in-loop -- one batch after another, bounded memory
			for (let batch: LogRecord[] | undefined = records.takeBuffered(); ; batch = await readRecords(records, opened.file)) {
				if (batch === undefined || options.signal?.aborted === true) {
					return;
				}

				yield decodeRecords(batch, decoder, report, opened.file);
			}
		} finally {
			await close();
		}
	})();

	return {
		file: opened.file,
		header,
		events,
		eventBatches,
		diagnostics: damage.kept,
		get diagnosticCount() {
			return damage.total;
		},
		close: async () => {
			await events.return(undefined);
			await eventBatches.return(undefined);
			await close();
		},
	};
}

/**
Streams a log's events (header checked first). The first `next()` throws `SessionLogError` for an
unreadable header; `options.onHeader` receives a good one before any event.
*/
export async function * readSessionLog(source: SessionLogSource, options: ReadSessionLogGeneratorOptions = {}): AsyncGenerator<SessionEvent, void, undefined> {
	const log = await openSessionLog(source, options);
	try {
		options.onHeader?.(log.header, log.file);
		yield * log.events;
	} finally {
		await log.close();
	}
}

/** The most bytes of a chunk split into records at once (see `ChunkRecords`). */
export const RECORD_SLICE_BYTES = 128 * 1024;

/**
The records of raw log bytes, a slice at a time: `next()` reads chunks until a slice completes
records (or the input ends) and returns them, so the reader awaits once per slice instead of once
per line. A chunk read (1 MiB) is split into slices of `RECORD_SLICE_BYTES`: a slice's line texts
are made when the slice is taken, so they die before the young generation's next collection instead
of being promoted with a whole chunk's (issue 12: a replay of small events promoted ~60 MB).
*/
class ChunkRecords {
	readonly #chunks: AsyncIterator<Uint8Array | string>;
	readonly #stream: LogRecordStream;
	readonly #signal: AbortSignal | undefined;
	#buffered: LogRecord[] = [];
	#ended = false;
	/** The part of the last chunk read that is not split yet. */
	#unsplit: Buffer | undefined;

	constructor(chunks: AsyncIterable<Uint8Array | string>, stream: LogRecordStream, signal: AbortSignal | undefined) {
		this.#chunks = chunks[Symbol.asyncIterator]();
		this.#stream = stream;
		this.#signal = signal;
	}

	/** The next records, at least one; `undefined` once the input and its end are read (or `signal` aborted). */
	async next(): Promise<LogRecord[] | undefined> {
		while (!this.#ended) {
			if (this.#unsplit === undefined) {
				// eslint-disable-next-line no-await-in-loop -- one chunk after another, bounded memory
				const next = await nextOrAbort(this.#chunks, this.#signal);
				if (next === undefined) {
					// Aborted: a quiet end, without the input's end records.
					this.#ended = true;
					return undefined;
				}

				if (next.done === true) {
					this.#ended = true;
					const records = [...this.#stream.end()];
					return records.length > 0 ? records : undefined;
				}

				this.#unsplit = typeof next.value === 'string' ? Buffer.from(next.value, 'utf8') : Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
			}

			const chunk = this.#unsplit;
			const slice = chunk.length > RECORD_SLICE_BYTES ? chunk.subarray(0, RECORD_SLICE_BYTES) : chunk;
			this.#unsplit = slice === chunk ? undefined : chunk.subarray(RECORD_SLICE_BYTES);
			const records = [...this.#stream.push(slice)];
			// A last record (corrupt data, not a log) ends the records: nothing more is read.
			this.#ended = this.#stream.done;
			if (records.length > 0) {
				return records;
			}
		}

		return undefined;
	}

	/** Records read but not yet handed out (those after line 1, once the header was taken). */
	takeBuffered(): LogRecord[] {
		const records = this.#buffered;
		this.#buffered = [];
		return records;
	}

	/** The first record; the rest of its chunk stays buffered for `takeBuffered`. */
	async first(): Promise<LogRecord | undefined> {
		const records = await this.next();
		if (records === undefined) {
			return undefined;
		}

		this.#buffered = records.slice(1);
		return records[0];
	}

	/** Stops reading. Not awaited: a caller's stream that never ends would keep a pending read forever. */
	close(): void {
		this.#ended = true;
		this.#chunks.return?.(undefined)?.catch(() => undefined);
	}
}

/** The next records, a read failure named as the log's. */
async function readRecords(records: ChunkRecords, file: string): Promise<LogRecord[] | undefined> {
	try {
		return await records.next();
	} catch (error) {
		throw new SessionLogError(file, 0, `cannot read: ${error instanceof Error ? error.message : String(error)}`, {cause: error});
	}
}

/** Reads line 1 and checks it. */
async function readHeader(records: ChunkRecords, file: string): Promise<SessionHeader> {
	let first;
	try {
		first = await records.first();
	} catch (error) {
		throw new SessionLogError(file, 0, `cannot read: ${error instanceof Error ? error.message : String(error)}`, {cause: error});
	}

	if (first === undefined) {
		throw new SessionLogError(file, 1, 'missing header: the file is empty');
	}

	return headerFromRecord(first, file);
}

/** The header in line 1's record, or the `SessionLogError` saying why there is none. */
export function headerFromRecord(record: LogRecord, file: string): SessionHeader {
	switch (record.kind) {
		case 'line':
			return parseHeaderLine(record.text, file);
		case 'overlong':
			throw new SessionLogError(file, 1, `missing header: line 1 is longer than the ${record.limit}-byte limit of a header`);
		case 'torn':
		case 'zstd-truncated':
			throw new SessionLogError(file, 1, 'missing header: line 1 is incomplete (no newline; the writer stopped before the header was written)');
		case 'zstd-corrupt':
		case 'zstd-bad-frame':
			throw new SessionLogError(file, 1, `missing header: ${record.message}`);
		case 'not-a-log':
			throw new SessionLogError(file, 1, record.message);
		default:
			return assertNever(record, 'log record');
	}
}

/** Events of a chunk's records, decoded as they are iterated. */
function * decodeRecords(records: readonly LogRecord[], decoder: LogEventDecoder, report: (d: LogDiagnostic) => void, file: string): Generator<SessionEvent, void, undefined> {
	for (const record of records) {
		yield * decodeRecord(record, decoder, report, file);
	}
}

/** Events of one record; diagnostics for damaged ones. */
export function decodeRecord(record: LogRecord, decoder: LogEventDecoder, report: (d: LogDiagnostic) => void, file: string): SessionEvent[] {
	switch (record.kind) {
		case 'line':
			// A translated line's value is decoded as it is: its text is never written.
			return record.value === undefined ? decoder.decode(record.text, record.line) : decoder.decodeValue(record.value, record.line);
		case 'overlong':
			decoder.overlong(record.line, record.limit);
			return [];
		case 'torn':
			report({file, line: record.line, kind: 'torn-tail', reason: `torn tail: the last line has no newline (${record.length} bytes ignored; the writer stopped mid-append)`});
			return [];
		case 'zstd-truncated':
			report({file, line: record.line, kind: 'torn-tail', reason: 'torn tail: the last zstd frame is incomplete (ignored; the writer stopped mid-append)'});
			return [];
		case 'zstd-corrupt':
			report({file, line: record.line, kind: 'corrupt-compression', reason: `${record.message}; nothing after it can be read`});
			return [];
		case 'zstd-bad-frame':
			decoder.lost(record.line, 'corrupt-compression', `${record.message}; reading goes on with the next frame`);
			return [];
		case 'not-a-log':
			report({file, line: record.line, kind: 'malformed', reason: record.message});
			return [];
		default:
			return assertNever(record, 'log record');
	}
}

/** The next record, or `undefined` once `signal` aborts (also while waiting for a slow stream). */
async function nextOrAbort<T>(iterator: AsyncIterator<T>, signal: AbortSignal | undefined): Promise<IteratorResult<T> | undefined> {
	if (signal === undefined) {
		return iterator.next();
	}

	if (signal.aborted) {
		return undefined;
	}

	let onAbort: (() => void) | undefined;
	const aborted = new Promise<undefined>(resolve => {
		onAbort = () => {
			resolve(undefined);
		};

		signal.addEventListener('abort', onAbort, {once: true});
	});
	try {
		return await Promise.race([iterator.next(), aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort!);
	}
}
