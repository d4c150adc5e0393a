/**
Hand-built zstd frames (RFC 8878) for hostile-input tests: raw-block frames that carry given text,
and RLE-block frames that stand for gigabytes in a few hundred kilobytes (a decompression bomb).
No zstd CLI needed.
*/

const MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
/** Frame header descriptor: no single segment, no checksum, no dictionary, no content size. */
const DESCRIPTOR = 0x00;
/** Window descriptor: 2^(10+7) = 128 KiB, enough for 128 KiB blocks. */
const WINDOW_128K = 7 << 3;
const MAX_BLOCK = 128 * 1024;

function blockHeader(type: 0 | 1, size: number, last: boolean): Buffer {
	const value = (size << 3) | (type << 1) | (last ? 1 : 0);
	return Buffer.from([value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff]);
}

/** One frame holding `text` in raw blocks. */
export function rawFrame(text: string | Buffer): Buffer {
	const bytes = typeof text === 'string' ? Buffer.from(text) : text;
	const parts: Buffer[] = [MAGIC, Buffer.from([DESCRIPTOR, WINDOW_128K])];
	for (let at = 0; at < bytes.length || at === 0; at += MAX_BLOCK) {
		const block = bytes.subarray(at, at + MAX_BLOCK);
		parts.push(blockHeader(0, block.length, at + MAX_BLOCK >= bytes.length), block);
		if (bytes.length === 0) {
			break;
		}
	}

	return Buffer.concat(parts);
}

/** One frame of `blocks` RLE blocks of 128 KiB of `byte` each: 4 bytes per block, 32 768× expansion. */
export function rleBombFrame(blocks: number, byte: number): Buffer {
	const parts: Buffer[] = [MAGIC, Buffer.from([DESCRIPTOR, WINDOW_128K])];
	for (let index = 0; index < blocks; index++) {
		parts.push(blockHeader(1, MAX_BLOCK, index === blocks - 1), Buffer.from([byte]));
	}

	return Buffer.concat(parts);
}

/** A frame with no content that asks for a 2^(10+exponent)-byte window (17: 128 MiB, the most allowed): 9 bytes. */
export function emptyFrame(exponent: number): Buffer {
	return Buffer.concat([MAGIC, Buffer.from([DESCRIPTOR, exponent << 3]), blockHeader(0, 0, true)]);
}

/** Blocks of a 10 GiB bomb (as reported: 330 KB compressed). */
export const TEN_GIB_BLOCKS = (10 * 1024 * 1024 * 1024) / MAX_BLOCK;
