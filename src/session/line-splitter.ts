/**
@module Incremental splitting of bytes into newline-terminated lines, with byte offsets for the
pager's index. Only the unfinished last line is buffered, and never more than `maxLineBytes` of it,
so memory stays bounded whatever the file size.
*/

/** Longest line kept by default (64 MiB); a longer one is skipped and reported. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** A whole line (without its `\n`). `line` is 1-based; `offset`/`length` are in bytes. */
export type SplitLine = {
	readonly kind: 'line';
	readonly text: string;
	readonly line: number;
	readonly offset: number;
	readonly length: number;
};

/** A line longer than the bound: its bytes were dropped while streaming. */
export type OverlongLine = {
	readonly kind: 'overlong';
	readonly line: number;
	readonly offset: number;
	readonly length: number;
};

/** What `push` produces. */
export type SplitRecord = SplitLine | OverlongLine;

/** Bytes after the last newline when input ended: a torn tail. */
export type TornTail = {readonly line: number; readonly offset: number; readonly length: number};

/** Splits a byte stream into lines; feed it with `push`, finish with `end`. */
export class LineSplitter {
	private readonly maxLineBytes: number;
	private pending: Buffer[] = [];
	private pendingLength = 0;
	private skipping = false;
	private lineNumber: number;
	private lineOffset: number;

	constructor(options: {maxLineBytes?: number; firstLine?: number; firstOffset?: number} = {}) {
		this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
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
				this.keep(bytes.subarray(start));
				return out;
			}

			out.push(this.complete(bytes, start, newline));
			start = newline + 1;
		}
	}

	/** Ends input: reports a final line without `\n`, which is never returned as a line. */
	end(): TornTail | undefined {
		if (this.pendingLength === 0) {
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

	private complete(bytes: Buffer, start: number, newline: number): SplitRecord {
		const length = this.pendingLength + (newline - start);
		const line = this.lineNumber;
		const offset = this.lineOffset;
		this.lineNumber += 1;
		this.lineOffset += length + 1;
		if (this.skipping || length > this.maxLineBytes) {
			this.pending = [];
			this.pendingLength = 0;
			this.skipping = false;
			return {kind: 'overlong', line, offset, length};
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

	private keep(part: Buffer): void {
		if (part.length === 0) {
			return;
		}

		this.pendingLength += part.length;
		if (this.skipping) {
			return;
		}

		if (this.pendingLength > this.maxLineBytes) {
			// Drop what we held: the line is reported as overlong when its newline arrives.
			this.skipping = true;
			this.pending = [];
			return;
		}

		// Copy: the caller may reuse the chunk's memory (and a slice would pin the whole chunk).
		this.pending.push(Buffer.from(part));
	}
}
