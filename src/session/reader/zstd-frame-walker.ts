/**
@module The frame structure of a zstd byte stream (RFC 8878 §3.1): frame headers, block headers,
checksums and skippable frames, walked without decoding. The decoder uses it to check each frame
header before decoding starts (window limit), to cut its input at block and frame ends (so it never
decodes more than one block ahead of its reader) and to get each frame's checksum. Holds at most one
header's bytes between chunks.
*/

/** The zstd frame magic number (read little-endian). */
const ZSTD_MAGIC = 0xfd2fb528;

/**
Largest window a frame may ask for (128 MiB, zstd's own default decoding limit). The decoder
allocates the window up front, so a damaged or hostile frame header could otherwise demand 2 GiB.
*/
export const MAX_ZSTD_WINDOW_BYTES = 128 * 1024 * 1024;

/** Largest decompressed size of one block (RFC 8878 §3.1.1.2.4). */
export const MAX_ZSTD_BLOCK_BYTES = 128 * 1024;

/** A place in a chunk where the structure says something. `at` is the offset just after it. */
export type ZstdBoundary =
	/** A frame header was read: what follows is that frame's blocks. */
	| {readonly kind: 'header'; readonly at: number; readonly checksum: boolean; readonly window: number}
	/** A block ended; the frame goes on. */
	| {readonly kind: 'block'; readonly at: number}
	/** A frame ended (after its checksum, if it has one). `checksum` is the low 32 bits of XXH64 of its content. */
	| {readonly kind: 'frame'; readonly at: number; readonly checksum: number | undefined; readonly skippable: boolean}
	/** The bytes before `at` do not form a valid frame structure. */
	| {readonly kind: 'problem'; readonly at: number; readonly message: string};

type State = 'magic' | 'skippable-size' | 'header' | 'block' | 'body' | 'checksum' | 'skip';

/** Walks zstd frames chunk by chunk; see the module comment. */
export class ZstdFrameWalker {
	private state: State = 'magic';
	private held = Buffer.alloc(0);
	/** Bytes left of a block body or skippable frame. */
	private skip = 0;
	private checksum = false;
	private lastBlock = false;
	private failed = false;

	/** Whether the walk is between frames (a stream may end here). */
	get betweenFrames(): boolean {
		return this.state === 'magic' && this.held.length === 0;
	}

	/** Consumes `chunk`; returns its boundaries in order (a problem is last: nothing after it is walked). */
	walk(chunk: Uint8Array): ZstdBoundary[] {
		const out: ZstdBoundary[] = [];
		let at = 0;
		while (at < chunk.length && !this.failed) {
			if (this.state === 'body' || this.state === 'skip') {
				const step = Math.min(this.skip, chunk.length - at);
				this.skip -= step;
				at += step;
				if (this.skip === 0) {
					this.endBody(at, out);
				}

				continue;
			}

			const need = this.needed();
			const take = Math.min(need - this.held.length, chunk.length - at);
			this.held = Buffer.concat([this.held, chunk.subarray(at, at + take)]);
			at += take;
			if (this.held.length < need || this.needed() > this.held.length) {
				continue; // Not whole yet, or the descriptor byte told us the header is longer.
			}

			const problem = this.parse(at, out);
			this.held = Buffer.alloc(0);
			if (problem !== undefined) {
				this.failed = true;
				out.push({kind: 'problem', at, message: problem});
			}
		}

		return out;
	}

	/** Bytes of the current fixed-size structure needed (a header's size is known once its descriptor is). */
	private needed(): number {
		switch (this.state) {
			case 'magic':
			case 'skippable-size':
			case 'checksum':
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

	private parse(at: number, out: ZstdBoundary[]): string | undefined {
		const bytes = this.held;
		switch (this.state) {
			case 'magic': {
				const magic = bytes.readUInt32LE(0);
				if (magic === ZSTD_MAGIC) {
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
				out.push({kind: 'header', at, checksum: this.checksum, window});
				return undefined;
			}

			case 'skippable-size': {
				this.skip = bytes.readUInt32LE(0);
				this.state = 'skip';
				if (this.skip === 0) {
					this.endBody(at, out);
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

				if (size > MAX_ZSTD_BLOCK_BYTES) {
					return `zstd block of ${size} bytes, more than the ${MAX_ZSTD_BLOCK_BYTES}-byte maximum`;
				}

				this.lastBlock = (header & 1) === 1;
				// An RLE block's body is its one byte, whatever size it stands for.
				this.skip = type === 1 ? 1 : size;
				this.state = 'body';
				if (this.skip === 0) {
					this.endBody(at, out);
				}

				return undefined;
			}

			case 'checksum': {
				out.push({kind: 'frame', at, checksum: bytes.readUInt32LE(0), skippable: false});
				this.state = 'magic';
				return undefined;
			}

			default:
				return undefined;
		}
	}

	/** A block body or a skippable frame's data ended at `at`. */
	private endBody(at: number, out: ZstdBoundary[]): void {
		if (this.state === 'skip') {
			out.push({kind: 'frame', at, checksum: undefined, skippable: true});
			this.state = 'magic';
		} else if (!this.lastBlock) {
			out.push({kind: 'block', at});
			this.state = 'block';
		} else if (this.checksum) {
			out.push({kind: 'block', at});
			this.state = 'checksum';
		} else {
			out.push({kind: 'frame', at, checksum: undefined, skippable: false});
			this.state = 'magic';
		}
	}
}
