/**
@module Streaming zstd decoding of a log (contract.md §E3.7: concatenated independent
frames, one per durable batch). Node 20 has no built-in zstd; `fzstd` decodes as bytes arrive, so a
followed or torn file yields every whole frame it holds.

What fzstd does not do, done here:
- Frame checksums (XXH64 of the frame's content, low 32 bits, when the header's Content_Checksum_flag
  is set) are verified. A checksummed frame's text is held back until its checksum matches (up to
  FRAME_HOLD_BYTES; a larger frame's text passes on as it decodes), so a damaged frame is dropped
  and named instead of read as altered text. Reading goes on with the next frame.
- Decoding is cut at block ends (a block is at most 128 KiB decompressed), so the reader consumes
  each block before the next is decoded: memory does not grow with how far one input chunk expands.
- Decompressed bytes are capped relative to the compressed bytes read (MAX_ZSTD_EXPANSION, after
  ZSTD_EXPANSION_ALLOWANCE bytes): past the cap the input is refused as a decompression bomb.
*/
import {Decompress} from 'fzstd';
import xxhash from 'xxhash-wasm';
import {DEFAULT_MAX_LINE_BYTES} from './line-splitter.js';
import {ZstdFrameWalker, type ZstdBoundary} from './zstd-frame-walker.js';

const {create64} = await xxhash();

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

/** Text of a checksummed frame held until its checksum is checked (16 MiB); a larger frame streams unverified. */
const FRAME_HOLD_BYTES = 16 * 1024 * 1024;

/**
Most decompressed bytes per compressed byte (1024×). JSONL logs compress 3–12× (the dsh corpus at
zstd -19), the whole corpus repeated 50 times 583×; zstd's own limit is about 32 000× (RLE blocks).
*/
export const MAX_ZSTD_EXPANSION = 1024;

/** Decompressed bytes always allowed before the expansion cap applies: one longest line that can be shown (64 MiB). */
export const ZSTD_EXPANSION_ALLOWANCE = DEFAULT_MAX_LINE_BYTES;

/**
fzstd allocates (and zeroes) each frame's window anew, so a few bytes of frame header can cost
128 MiB of work: 1 000 empty frames asking for 128 MiB windows (9 KB) took 11 s. Window bytes are
capped at WINDOW_ALLOWANCE_BYTES plus MAX_WINDOW_PER_BYTE per compressed byte (a log of small frames
with 2 MiB windows, as zstd writes them, asks for about 20 000 per byte).
*/
export const MAX_WINDOW_PER_BYTE = 1024 * 1024;
export const WINDOW_ALLOWANCE_BYTES = 1024 * 1024 * 1024;

/** How compressed input ended. */
export type ZstdEnd = {readonly kind: 'complete'} | {readonly kind: 'truncated'} | {readonly kind: 'corrupt'; readonly message: string};

/** A frame whose text was dropped (checksum mismatch); the frames after it are read. */
type ZstdFrameDamage = {readonly kind: 'bad-frame'; readonly frame: number; readonly message: string};

/** What `push` produces: decompressed bytes, or a dropped frame where its text would have been. */
export type ZstdOutput = Uint8Array | ZstdFrameDamage;

/** The frame being decoded. */
type Frame = {
	readonly number: number;
	readonly hash: ReturnType<typeof create64> | undefined;
	held: Uint8Array[];
	heldBytes: number;
	/** Bytes passed on before the checksum could be checked (the frame outgrew FRAME_HOLD_BYTES). */
	released: number;
};

/** A push-based zstd decoder that turns decoding failures into values instead of throws. */
export class ZstdStreamDecoder {
	private readonly decompress: Decompress;
	private readonly walker = new ZstdFrameWalker();
	private output: Uint8Array[] = [];
	private failure: string | undefined;
	/** Compressed bytes consumed so far (for messages and the expansion cap). */
	private consumed = 0;
	private decompressed = 0;
	/** Window bytes the frames so far asked for. */
	private windows = 0;
	private frames = 0;
	private frame: Frame | undefined;

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

	/** Decodes `chunk`, yielding its output as it decodes (consume each piece before asking for the next). */
	* push(chunk: Uint8Array): Generator<ZstdOutput, void, undefined> {
		if (this.failure !== undefined || chunk.length === 0) {
			return;
		}

		let from = 0;
		for (const boundary of this.walker.walk(chunk)) {
			if (boundary.kind === 'problem') {
				this.fail(boundary.at, boundary.message);
				return;
			}

			yield * this.feed(chunk.subarray(from, boundary.at), boundary);
			from = boundary.at;
			if (this.failure !== undefined) {
				return;
			}
		}

		if (from < chunk.length) {
			yield * this.feed(chunk.subarray(from), undefined);
		}
	}

	/** Ends input: whether the last frame was whole. A cut frame's held text is dropped with it. */
	end(): {output: Uint8Array[]; end: ZstdEnd} {
		if (this.failure !== undefined) {
			return {output: [], end: {kind: 'corrupt', message: this.failure}};
		}

		if (!this.walker.betweenFrames) {
			this.frame = undefined;
			return {output: [], end: {kind: 'truncated'}};
		}

		return {output: [], end: {kind: 'complete'}};
	}

	/** Decodes `bytes` (ending at `boundary`, if any) and passes on or holds what they decode to. */
	private * feed(bytes: Uint8Array, boundary: ZstdBoundary | undefined): Generator<ZstdOutput, void, undefined> {
		if (boundary?.kind === 'header') {
			// Checked before fzstd sees the header, which is when it allocates the window.
			this.windows += boundary.window;
			if (this.windows > WINDOW_ALLOWANCE_BYTES + MAX_WINDOW_PER_BYTE * (this.consumed + bytes.length)) {
				this.failure = `zstd frame ${this.frames + 1}: the frames so far ask for ${this.windows} bytes of window from ${this.consumed + bytes.length} compressed bytes, past the limit of ${WINDOW_ALLOWANCE_BYTES} plus ${MAX_WINDOW_PER_BYTE} per byte: refused as a decompression bomb`;
				return;
			}
		}

		try {
			// A frame's last bytes are pushed as final, so fzstd hands over all of the frame's text now.
			this.decompress.push(bytes, boundary?.kind === 'frame');
		} catch (error) {
			this.fail(bytes.length, error instanceof Error ? error.message : String(error));
			return;
		}

		this.consumed += bytes.length;
		const output = this.output;
		this.output = [];
		for (const piece of output) {
			this.decompressed += piece.length;
			if (this.decompressed > ZSTD_EXPANSION_ALLOWANCE + MAX_ZSTD_EXPANSION * this.consumed) {
				this.failure = `zstd frame ${this.frames} expands past the limit of ${ZSTD_EXPANSION_ALLOWANCE} bytes plus ${MAX_ZSTD_EXPANSION} per compressed byte (${this.decompressed} bytes from ${this.consumed}): refused as a decompression bomb`;
				return;
			}

			yield * this.take(piece);
		}

		if (boundary?.kind === 'header') {
			this.frames += 1;

			this.frame = {number: this.frames, hash: boundary.checksum ? create64() : undefined, held: [], heldBytes: 0, released: 0};
		} else if (boundary?.kind === 'frame') {
			yield * this.endFrame(boundary.checksum);
		}
	}

	/** Passes a decoded piece on, or holds it while its frame's checksum is pending. */
	private * take(piece: Uint8Array): Generator<ZstdOutput, void, undefined> {
		const frame = this.frame;
		if (frame?.hash === undefined) {
			yield piece;
			return;
		}

		frame.hash.update(piece);
		if (frame.heldBytes + piece.length <= FRAME_HOLD_BYTES && frame.released === 0) {
			frame.held.push(piece);
			frame.heldBytes += piece.length;
			return;
		}

		yield * this.release(frame);
		frame.released += piece.length;
		yield piece;
	}

	private * release(frame: Frame): Generator<ZstdOutput, void, undefined> {
		const held = frame.held;
		frame.released += frame.heldBytes;
		frame.held = [];
		frame.heldBytes = 0;
		yield * held;
	}

	private * endFrame(expected: number | undefined): Generator<ZstdOutput, void, undefined> {
		const frame = this.frame;
		this.frame = undefined;
		if (frame === undefined || frame.hash === undefined || expected === undefined) {
			return;
		}

		const actual = Number(frame.hash.digest() & 0xff_ff_ff_ffn);
		if (actual === expected) {
			yield * this.release(frame);
			return;
		}

		const size = frame.heldBytes + frame.released;
		const fate = frame.released === 0 ? `its ${size} bytes of text were dropped` : `its first ${frame.released} of ${size} bytes were read before the mismatch showed`;
		yield {kind: 'bad-frame', frame: frame.number, message: `zstd frame ${frame.number}: checksum mismatch (content hashes to ${hex(actual)}, the frame says ${hex(expected)}): ${fate}`};
	}

	private fail(extra: number, problem: string): void {
		this.failure = `zstd data is corrupt in the ${this.consumed}–${this.consumed + extra} byte range (frame ${Math.max(1, this.frames)}): ${problem}`;
	}
}

function hex(value: number): string {
	return `0x${value.toString(16).padStart(8, '0')}`;
}
