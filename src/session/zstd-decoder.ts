/**
@module Streaming zstd decoding of a log (presentation-events.md §3.7: concatenated independent
frames, one per durable batch). Node 20 has no built-in zstd; `fzstd` decodes frame by frame as
bytes arrive, so a followed or torn file yields every whole block it holds.
*/
import {Decompress} from 'fzstd';

/** The zstd frame magic number, little-endian `0xFD2FB528`. */
const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

/** Whether `bytes` starts with a zstd frame. */
export function startsWithZstdMagic(bytes: Uint8Array): boolean {
	return bytes.length >= 4 && ZSTD_MAGIC.every((byte, index) => bytes[index] === byte);
}

/** Whether a path names a compressed log by its extension. */
export function hasZstdExtension(path: string): boolean {
	return path.endsWith('.zstd') || path.endsWith('.zst');
}

/** How compressed input ended. */
export type ZstdEnd = {readonly kind: 'complete'} | {readonly kind: 'truncated'} | {readonly kind: 'corrupt'; readonly message: string};

/** A push-based zstd decoder that turns decoding failures into values instead of throws. */
export class ZstdStreamDecoder {
	private readonly decompress: Decompress;
	private output: Uint8Array[] = [];
	private failure: string | undefined;
	/** Compressed bytes consumed so far (for the corruption message). */
	private consumed = 0;

	constructor() {
		this.decompress = new Decompress(data => {
			if (data.length > 0) {
				this.output.push(data);
			}
		});
	}

	/** The decoding failure, once one happened; later pushes are ignored. */
	get corrupt(): string | undefined {
		return this.failure;
	}

	/** Decodes `chunk`; returns the decompressed bytes that became available. */
	push(chunk: Uint8Array): Uint8Array[] {
		if (this.failure !== undefined || chunk.length === 0) {
			return [];
		}

		try {
			this.decompress.push(chunk);
		} catch (error) {
			this.failure = `zstd data is corrupt in the ${this.consumed}–${this.consumed + chunk.length} byte range: ${error instanceof Error ? error.message : String(error)}`;
		}

		this.consumed += chunk.length;
		return this.take();
	}

	/** Ends input: whether the last frame was whole. */
	end(): {output: Uint8Array[]; end: ZstdEnd} {
		if (this.failure !== undefined) {
			return {output: this.take(), end: {kind: 'corrupt', message: this.failure}};
		}

		try {
			this.decompress.push(new Uint8Array(0), true);
			return {output: this.take(), end: {kind: 'complete'}};
		} catch (error) {
			// fzstd reports a frame cut short as code 5 (UnexpectedEOF).
			if ((error as {code?: unknown}).code === 5) {
				return {output: this.take(), end: {kind: 'truncated'}};
			}

			return {output: this.take(), end: {kind: 'corrupt', message: `zstd data is corrupt at its end: ${error instanceof Error ? error.message : String(error)}`}};
		}
	}

	private take(): Uint8Array[] {
		const out = this.output;
		this.output = [];
		return out;
	}
}
