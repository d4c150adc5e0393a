/**
@module Incremental splitting of bytes into newline-terminated lines, with byte offsets for the
pager's index. Only the unfinished last line is buffered, and never more than `maxLineBytes` of it,
so memory stays bounded whatever the file size. A line is reported as overlong as soon as it passes
the bound, not when its newline comes: input without newlines (`/dev/zero`) is named at once.
*/

/** Longest line kept by default (64 MiB); a longer one is skipped and reported. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** A whole line (without its `\n`). `line` is 1-based; `offset`/`length` are in bytes. */
type SplitLine = {
	readonly kind: 'line';
	readonly text: string;
	/**
	The line's JSON value when the reader made the line itself (another agent's record translated
	into the contract's lines, src/session/foreign): the decoder takes it instead of parsing the text
	again. Never set for a line read from the file.
	*/
	readonly value?: object;
	readonly line: number;
	readonly offset: number;
	readonly length: number;
};

/** A line longer than the bound, reported when it passed it; its bytes are dropped up to its newline. */
export type OverlongLine = {
	readonly kind: 'overlong';
	readonly line: number;
	readonly offset: number;
	/** Its bound (the first line may have a smaller one). */
	readonly limit: number;
};

/** What `push` produces. */
export type SplitRecord = SplitLine | OverlongLine;

/** Bytes after the last newline when input ended: a torn tail. */
export type TornTail = {readonly line: number; readonly offset: number; readonly length: number};

/** Splits a byte stream into lines; feed it with `push`, finish with `end`. */
export class LineSplitter {
	private readonly maxLineBytes: number;
	private readonly maxFirstLineBytes: number;
	private pending: Buffer[] = [];
	private pendingLength = 0;
	private skipping = false;
	private lineNumber: number;
	private lineOffset: number;

	/** `maxFirstLineBytes` bounds line 1 (a log's header), when this splitter starts at line 1. */
	constructor(options: {maxLineBytes?: number; maxFirstLineBytes?: number; firstLine?: number; firstOffset?: number} = {}) {
		this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
		this.maxFirstLineBytes = Math.min(this.maxLineBytes, options.maxFirstLineBytes ?? this.maxLineBytes);
		this.lineNumber = options.firstLine ?? 1;
		this.lineOffset = options.firstOffset ?? 0;
	}

	/** Number of the next line to complete. */
	get nextLine(): number {
		return this.lineNumber;
	}

	/** Byte offset where the unfinished line starts (= bytes consumed by complete lines). */
	get completedBytes(): number {
		return this.lineOffset;
	}

	/** Bytes held (or skipped) for the unfinished line. */
	get pendingBytes(): number {
		return this.pendingLength;
	}

	/** Consumes `chunk`; returns the lines it completed. */
	push(chunk: Uint8Array): SplitRecord[] {
		const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
		const out: SplitRecord[] = [];
		let start = 0;
		for (;;) {
			const newline = bytes.indexOf(10, start);
			if (newline === -1) {
				const overlong = this.keep(bytes.subarray(start));
				if (overlong !== undefined) {
					out.push(overlong);
				}

				return out;
			}

			const record = this.complete(bytes, start, newline);
			if (record !== undefined) {
				out.push(record);
			}

			start = newline + 1;
		}
	}

	/** Ends input: reports a final line without `\n`, which is never returned as a line (nor again when already overlong). */
	end(): TornTail | undefined {
		if (this.pendingLength === 0 || this.skipping) {
			this.dropPending();
			return undefined;
		}

		const torn = {line: this.lineNumber, offset: this.lineOffset, length: this.pendingLength};
		this.pending = [];
		this.pendingLength = 0;
		this.skipping = false;
		return torn;
	}

	/** The held bytes of the unfinished line, or `undefined` when it is being skipped as overlong. */
	peekPending(): Buffer | undefined {
		return this.skipping ? undefined : Buffer.concat(this.pending, this.pendingLength);
	}

	/** Forgets the unfinished line (its bytes changed under a follower); returns how many bytes it held. */
	dropPending(): number {
		const dropped = this.pendingLength;
		this.pending = [];
		this.pendingLength = 0;
		this.skipping = false;
		return dropped;
	}

	/** The bound of the line being split. */
	private get limit(): number {
		return this.lineNumber === 1 ? this.maxFirstLineBytes : this.maxLineBytes;
	}

	/** The line that ends at `newline`; `undefined` when it was already reported as overlong. */
	private complete(bytes: Buffer, start: number, newline: number): SplitRecord | undefined {
		const length = this.pendingLength + (newline - start);
		const line = this.lineNumber;
		const offset = this.lineOffset;
		const limit = this.limit;
		this.lineNumber += 1;
		this.lineOffset += length + 1;
		if (this.skipping || length > limit) {
			const reported = this.skipping;
			this.pending = [];
			this.pendingLength = 0;
			this.skipping = false;
			return reported ? undefined : {kind: 'overlong', line, offset, limit};
		}

		let text: string;
		if (this.pendingLength === 0) {
			text = bytes.toString('utf8', start, newline);
		} else {
			this.pending.push(bytes.subarray(start, newline));
			text = Buffer.concat(this.pending, length).toString('utf8');
			this.pending = [];
			this.pendingLength = 0;
		}

		return {kind: 'line', text, line, offset, length};
	}

	/** Holds the start of an unfinished line; returns it as overlong the moment it passes its bound. */
	private keep(part: Buffer): OverlongLine | undefined {
		if (part.length === 0) {
			return undefined;
		}

		this.pendingLength += part.length;
		if (this.skipping) {
			return undefined;
		}

		if (this.pendingLength > this.limit) {
			// Drop what we held and skip to the newline: the line is reported now, not when (if ever) it ends.
			this.skipping = true;
			this.pending = [];
			return {kind: 'overlong', line: this.lineNumber, offset: this.lineOffset, limit: this.limit};
		}

		// Copy: the caller may reuse the chunk's memory (and a slice would pin the whole chunk).
		this.pending.push(Buffer.from(part));
		return undefined;
	}
}
