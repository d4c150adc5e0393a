/**
@module Raw bytes → line records, decompressing zstd on the way (detected by extension or by the
frame magic number). One chunk is in memory at a time plus at most one unfinished line (and, for
zstd, one frame window and one held frame: see zstd-decoder.ts).

Line 1 is checked while it arrives (log-header.ts): a first byte that cannot start a header, or no
newline within MAX_HEADER_BYTES, ends the records at once with `not-a-log` / `overlong`, so endless
input is refused instead of read forever.
*/
import {ForeignDocument, ForeignLogLines} from '../foreign/foreign-log-lines.js';
import type {TranslatedLine} from '../foreign/contract-lines.js';
import {HeaderStartCheck, MAX_HEADER_BYTES} from './log-header.js';
import {LineSplitter, type SplitRecord, type TornTail} from './line-splitter.js';
import {hasZstdExtension, startsWithZstdMagic, ZstdStreamDecoder} from './zstd-decoder.js';

/** A line, an overlong line, a damaged stretch, or how the input ended. */
export type LogRecord =
	| SplitRecord
	| ({readonly kind: 'torn'} & TornTail)
	| {readonly kind: 'zstd-truncated'; readonly line: number}
	/** Compressed data that cannot be decoded: the last record. */
	| {readonly kind: 'zstd-corrupt'; readonly line: number; readonly message: string}
	/** A zstd frame whose checksum did not match: its text is left out, reading goes on at `line`. */
	| {readonly kind: 'zstd-bad-frame'; readonly line: number; readonly message: string}
	/** Line 1 cannot be a header (its first byte): the last record. */
	| {readonly kind: 'not-a-log'; readonly line: 1; readonly message: string};

/** Options of `logRecords`. */
export type LogRecordOptions = {
	/** Path or name of the source, for extension-based zstd detection. */
	readonly name?: string;
	readonly maxLineBytes?: number;
};

/**
Push-based line records of one log's bytes (plain or zstd), for readers that pull (`logRecords`) and
for follow mode, which pushes what the file grew by.
*/
export class LogRecordStream {
	/** The splitter of the (decompressed) text: line numbers and offsets so far. */
	readonly splitter: LineSplitter;
	private zstd: ZstdStreamDecoder | undefined;
	/** Until 4 bytes arrived we cannot tell plain text from a zstd frame. */
	private head: Buffer | undefined;
	private header: HeaderStartCheck | undefined = new HeaderStartCheck();
	private stopped = false;
	/** Another agent's session file, read as the contract's lines (decided by line 1); `null`: a log of the contract. */
	private foreign: ForeignLogLines | ForeignDocument | null | undefined;

	constructor(options: LogRecordOptions = {}) {
		this.splitter = new LineSplitter({maxLineBytes: options.maxLineBytes, maxFirstLineBytes: MAX_HEADER_BYTES});
		this.zstd = options.name !== undefined && hasZstdExtension(options.name) ? new ZstdStreamDecoder() : undefined;
		this.head = this.zstd === undefined ? Buffer.alloc(0) : undefined;
	}

	/** Whether the input is zstd; `undefined` while fewer than 4 bytes arrived. */
	get compressed(): boolean | undefined {
		return this.head === undefined ? this.zstd !== undefined : undefined;
	}

	/** Whether a last record (corrupt data, not a log) was produced: later input is ignored. */
	get done(): boolean {
		return this.stopped;
	}

	/** Consumes raw bytes; yields the records they complete. */
	* push(chunk: Uint8Array): Generator<LogRecord, void, undefined> {
		if (this.stopped) {
			return;
		}

		if (this.head !== undefined) {
			this.head = Buffer.concat([this.head, chunk]);
			if (this.head.length < 4) {
				return;
			}

			if (startsWithZstdMagic(this.head)) {
				this.zstd = new ZstdStreamDecoder();
			}

			chunk = this.head;
			this.head = undefined;
		}

		yield * this.feed(chunk);
	}

	/** Ends input: yields how it ended (torn tail, cut frame, corrupt data). */
	* end(): Generator<LogRecord, void, undefined> {
		if (this.stopped) {
			return;
		}

		if (this.head !== undefined && this.head.length > 0) {
			const rest = this.head;
			this.head = undefined;
			yield * this.feed(rest);
			if (this.stopped) {
				return;
			}
		}

		this.stopped = true;
		const finished = this.zstd?.end();
		if (this.foreign instanceof ForeignDocument) {
			// A JSON document may end without a newline: its last line is no torn tail.
			const held = this.splitter.peekPending();
			if (held !== undefined && held.length > 0) {
				this.foreign.line(held.toString('utf8'));
				this.splitter.dropPending();
			}
		}

		if (this.foreign) {
			const line = this.splitter.nextLine;
			for (const translated of this.foreign.end()) {
				yield lineOf({line, offset: this.splitter.completedBytes, length: 0}, translated);
			}
		}

		if (finished?.end.kind === 'corrupt') {
			yield {kind: 'zstd-corrupt', line: this.splitter.nextLine, message: finished.end.message};
			return;
		}

		const torn = this.splitter.end();
		if (finished?.end.kind === 'truncated') {
			// The frame's partial line, if any, is part of the same torn tail.
			yield {kind: 'zstd-truncated', line: this.splitter.nextLine};
			return;
		}

		if (torn !== undefined) {
			yield {kind: 'torn', ...torn};
		}
	}

	private * feed(bytes: Uint8Array): Generator<LogRecord, void, undefined> {
		if (this.zstd === undefined) {
			yield * this.text(bytes);
			return;
		}

		for (const piece of this.zstd.push(bytes)) {
			if (piece instanceof Uint8Array) {
				yield * this.text(piece);
			} else {
				yield {kind: 'zstd-bad-frame', line: this.splitter.nextLine, message: piece.message};
			}

			if (this.stopped) {
				return;
			}
		}

		if (this.zstd.corrupt !== undefined) {
			this.stopped = true;
			yield {kind: 'zstd-corrupt', line: this.splitter.nextLine, message: this.zstd.corrupt};
		}
	}

	/** Text (plain, or decompressed) → lines, checking line 1 as it comes. */
	private * text(bytes: Uint8Array): Generator<LogRecord, void, undefined> {
		if (this.header !== undefined) {
			const problem = this.splitter.nextLine === 1 ? this.header.check(bytes) : undefined;
			if (problem !== undefined) {
				this.stopped = true;
				yield {kind: 'not-a-log', line: 1, message: problem};
				return;
			}

			if (this.splitter.nextLine > 1) {
				this.header = undefined;
			}
		}

		for (const record of this.splitter.push(bytes)) {
			yield * this.translated(record);
			if (record.kind === 'overlong' && record.line === 1) {
				// A header that long is no header: stop before reading (maybe endless) input to its end.
				this.stopped = true;
				return;
			}
		}
	}

	/** A line of another agent's session file becomes the contract's lines it says (none, one or more), at its line number. */
	private * translated(record: SplitRecord): Generator<LogRecord, void, undefined> {
		if (record.kind !== 'line' || this.foreign === null) {
			yield record;
			return;
		}

		if (this.foreign === undefined) {
			this.foreign = record.line === 1 ? (record.text.trim() === '{' ? ForeignLogLines.document() : ForeignLogLines.detect(record.text)) ?? null : null;
			if (this.foreign === null) {
				yield record;
				return;
			}
		}

		for (const translated of this.foreign.line(record.text)) {
			yield lineOf(record, translated);
		}
	}
}

/** A translated line's record: its value, and its text written when asked for (a class: one shape, its getter shared). */
class TranslatedRecord {
	readonly kind = 'line';
	readonly line: number;
	readonly offset: number;
	readonly length: number;
	readonly value: object | undefined;
	readonly #translated: TranslatedLine;

	constructor(at: {readonly line: number; readonly offset: number; readonly length: number}, translated: TranslatedLine) {
		this.line = at.line;
		this.offset = at.offset;
		this.length = at.length;
		this.value = translated.value;
		this.#translated = translated;
	}

	get text(): string {
		return this.#translated.text;
	}
}

/** The record of a translated line at `at`'s place. */
function lineOf(at: {readonly line: number; readonly offset: number; readonly length: number}, translated: TranslatedLine): LogRecord {
	return new TranslatedRecord(at, translated);
}

/** Streams line records out of raw log bytes. */
export async function * logRecords(chunks: AsyncIterable<Uint8Array | string>, options: LogRecordOptions = {}): AsyncGenerator<LogRecord, void, undefined> {
	const stream = new LogRecordStream(options);
	for await (const raw of chunks) {
		yield * stream.push(typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw);
		if (stream.done) {
			return;
		}
	}

	yield * stream.end();
}
