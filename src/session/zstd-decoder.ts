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

/**
Largest window a frame may ask for (128 MiB, zstd's own default decoding limit). The decoder
allocates the window up front, so a damaged or hostile frame header could otherwise demand 2 GiB.
*/
export const MAX_ZSTD_WINDOW_BYTES = 128 * 1024 * 1024;

/**
Walks the frame structure (headers, block headers, checksums) of a zstd byte stream without
decoding it, to check each frame header before the decoder sees it. Holds at most one header.
*/
class ZstdFrameWalker {
	private state: 'magic' | 'skippable-size' | 'header' | 'block' | 'skip' = 'magic';
	private held = Buffer.alloc(0);
	private skip = 0;
	private checksum = false;
	private lastBlock = false;

	/** Consumes `chunk`; returns the first problem found, if any. */
	walk(chunk: Uint8Array): string | undefined {
		let at = 0;
		while (at < chunk.length) {
			if (this.state === 'skip') {
				const step = Math.min(this.skip, chunk.length - at);
				this.skip -= step;
				at += step;
				if (this.skip === 0) {
					this.state = this.lastBlock ? (this.checksum ? 'skip' : 'magic') : 'block';
					if (this.lastBlock && this.checksum) {
						this.skip = 4;
						this.checksum = false;
					} else if (this.lastBlock) {
						this.lastBlock = false;
					}
				}

				continue;
			}

			const need = this.needed();
			const take = Math.min(need - this.held.length, chunk.length - at);
			this.held = Buffer.concat([this.held, chunk.subarray(at, at + take)]);
			at += take;
			if (this.held.length < need) {
				continue;
			}

			const complete = this.needed();
			if (complete > this.held.length) {
				continue; // The header descriptor told us the header is longer.
			}

			const problem = this.parse();
			this.held = Buffer.alloc(0);
			if (problem !== undefined) {
				return problem;
			}
		}

		return undefined;
	}

	/** Bytes of the current structure needed (may grow once the descriptor byte is known). */
	private needed(): number {
		switch (this.state) {
			case 'magic':
			case 'skippable-size':
				return 4;
			case 'block':
				return 3;
			case 'header': {
				if (this.held.length === 0) {
					return 1;
				}

				const descriptor = this.held[0];
				const single = (descriptor >> 5) & 1;
				const dictionary = [0, 1, 2, 4][descriptor & 3];
				const contentSize = [single, 2, 4, 8][descriptor >> 6];
				return 1 + (single ? 0 : 1) + dictionary + contentSize;
			}

			default:
				return 0;
		}
	}

	private parse(): string | undefined {
		const bytes = this.held;
		switch (this.state) {
			case 'magic': {
				const magic = bytes.readUInt32LE(0);
				if (magic === 0xfd2fb528) {
					this.state = 'header';
					return undefined;
				}

				if (((magic & 0xfffffff0) >>> 0) === 0x184d2a50) {
					this.state = 'skippable-size';
					return undefined;
				}

				return 'not a zstd frame (bad magic number)';
			}

			case 'header': {
				const descriptor = bytes[0];
				if (descriptor & 8) {
					return 'zstd frame header has its reserved bit set';
				}

				const single = (descriptor >> 5) & 1;
				this.checksum = ((descriptor >> 2) & 1) === 1;
				const dictionary = [0, 1, 2, 4][descriptor & 3];
				const sizeBytes = [single, 2, 4, 8][descriptor >> 6];
				let window: number;
				if (single) {
					const offset = 1 + dictionary;
					window = sizeBytes === 1 ? bytes[offset] : sizeBytes === 2 ? bytes.readUInt16LE(offset) + 256 : sizeBytes === 4 ? bytes.readUInt32LE(offset) : Number(bytes.readBigUInt64LE(offset));
				} else {
					const exponent = bytes[1] >> 3;
					const base = 2 ** (10 + exponent);
					window = base + (base / 8) * (bytes[1] & 7);
				}

				if (window > MAX_ZSTD_WINDOW_BYTES) {
					return `zstd frame asks for a ${window}-byte window, more than the ${MAX_ZSTD_WINDOW_BYTES}-byte limit`;
				}

				this.state = 'block';
				this.lastBlock = false;
				return undefined;
			}

			case 'skippable-size': {
				// A skippable frame's data is skipped like the body of a frame's last block.
				this.skip = bytes.readUInt32LE(0);
				this.lastBlock = true;
				this.checksum = false;
				this.state = 'skip';
				if (this.skip === 0) {
					this.walkEmptyBlock();
				}

				return undefined;
			}

			case 'block': {
				const header = bytes[0] | (bytes[1] << 8) | (bytes[2] << 16);
				const type = (header >> 1) & 3;
				const size = header >> 3;
				if (type === 3) {
					return 'zstd block of reserved type';
				}

				this.lastBlock = (header & 1) === 1;
				this.skip = type === 1 ? 1 : size;
				this.state = 'skip';
				if (this.skip === 0) {
					this.walkEmptyBlock();
				}

				return undefined;
			}

			default:
				return undefined;
		}
	}

	/** An empty raw block: move straight to what follows it. */
	private walkEmptyBlock(): void {
		if (!this.lastBlock) {
			this.state = 'block';
		} else if (this.checksum) {
			this.state = 'skip';
			this.skip = 4;
			this.checksum = false;
		} else {
			this.state = 'magic';
			this.lastBlock = false;
		}
	}
}

/** How compressed input ended. */
export type ZstdEnd = {readonly kind: 'complete'} | {readonly kind: 'truncated'} | {readonly kind: 'corrupt'; readonly message: string};

/** A push-based zstd decoder that turns decoding failures into values instead of throws. */
export class ZstdStreamDecoder {
	private readonly decompress: Decompress;
	private readonly walker = new ZstdFrameWalker();
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

		const problem = this.walker.walk(chunk);
		if (problem !== undefined) {
			this.failure = `zstd data is corrupt in the ${this.consumed}–${this.consumed + chunk.length} byte range: ${problem}`;
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
