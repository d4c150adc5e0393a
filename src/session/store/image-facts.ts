/**
@module What an image is, read from its first bytes: its type by the magic number (never the file's
extension — a screenshot saved as `.jpg` may be a PNG) and its width and height from the header. The
four types every image-taking provider accepts: PNG, JPEG, GIF and WebP. Pure and bounded: a header
that ends early or lies is no image, never a throw.
*/

/** The image types cardterm attaches (the providers' common set: Anthropic, OpenAI and Gemini take these four). */
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export type ImageFacts = {readonly mediaType: ImageMediaType; readonly width: number; readonly height: number};

/** The file extension of a type, for the side file's name. */
export function imageExtension(mediaType: ImageMediaType): string {
	return {'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp'}[mediaType];
}

/** The type and size of the image `bytes` hold, or `undefined` when they are no image of the four types (or its header is cut or zero-sized). */
export function imageFacts(bytes: Uint8Array): ImageFacts | undefined {
	const facts = pngFacts(bytes) ?? gifFacts(bytes) ?? jpegFacts(bytes) ?? webpFacts(bytes);
	return facts !== undefined && facts.width > 0 && facts.height > 0 ? facts : undefined;
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean => bytes.length >= at + prefix.length && prefix.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string): number[] => [...text].map(char => char.codePointAt(0)!);
const u16be = (bytes: Uint8Array, at: number): number => (bytes[at]! << 8) | bytes[at + 1]!;
const u16le = (bytes: Uint8Array, at: number): number => bytes[at]! | (bytes[at + 1]! << 8);
const u24le = (bytes: Uint8Array, at: number): number => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
const u32be = (bytes: Uint8Array, at: number): number => ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;

/** PNG: the signature, then the IHDR chunk first (its width and height, big-endian). */
function pngFacts(bytes: Uint8Array): ImageFacts | undefined {
	if (!startsWith(bytes, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) || !startsWith(bytes, ascii('IHDR'), 12) || bytes.length < 24) {
		return undefined;
	}

	return {mediaType: 'image/png', width: u32be(bytes, 16), height: u32be(bytes, 20)};
}

/** GIF87a / GIF89a: the logical screen's width and height (little-endian). */
function gifFacts(bytes: Uint8Array): ImageFacts | undefined {
	if (!(startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) || bytes.length < 10) {
		return undefined;
	}

	return {mediaType: 'image/gif', width: u16le(bytes, 6), height: u16le(bytes, 8)};
}

/** JPEG: SOI, then segments up to the first start-of-frame (SOF0–SOF15 but DHT, JPG and DAC), which holds the height and width. */
function jpegFacts(bytes: Uint8Array): ImageFacts | undefined {
	if (!startsWith(bytes, [0xFF, 0xD8, 0xFF])) {
		return undefined;
	}

	let at = 2;
	while (at + 4 <= bytes.length) {
		if (bytes[at] !== 0xFF) {
			return undefined;
		}

		const marker = bytes[at + 1]!;
		if (marker === 0xFF) {
			// Fill bytes before a marker.
			at++;
			continue;
		}

		if (marker === 0x01 || (marker >= 0xD0 && marker <= 0xD9)) {
			// Markers without a length.
			at += 2;
			continue;
		}

		const length = u16be(bytes, at + 2);
		if (length < 2) {
			return undefined;
		}

		if (marker >= 0xC0 && marker <= 0xCF && marker !== 0xC4 && marker !== 0xC8 && marker !== 0xCC) {
			return at + 9 <= bytes.length ? {mediaType: 'image/jpeg', width: u16be(bytes, at + 7), height: u16be(bytes, at + 5)} : undefined;
		}

		at += 2 + length;
	}

	return undefined;
}

/** WebP: a RIFF container whose first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended, with the canvas size). */
function webpFacts(bytes: Uint8Array): ImageFacts | undefined {
	if (!startsWith(bytes, ascii('RIFF')) || !startsWith(bytes, ascii('WEBP'), 8) || bytes.length < 30) {
		return undefined;
	}

	if (startsWith(bytes, ascii('VP8 '), 12)) {
		return startsWith(bytes, [0x9D, 0x01, 0x2A], 23) ? {mediaType: 'image/webp', width: u16le(bytes, 26) & 0x3F_FF, height: u16le(bytes, 28) & 0x3F_FF} : undefined;
	}

	if (startsWith(bytes, ascii('VP8L'), 12)) {
		if (bytes[20] !== 0x2F) {
			return undefined;
		}

		const bits = (bytes[21]! | (bytes[22]! << 8) | (bytes[23]! << 16) | (bytes[24]! << 24)) >>> 0;
		return {mediaType: 'image/webp', width: (bits & 0x3F_FF) + 1, height: ((bits >>> 14) & 0x3F_FF) + 1};
	}

	if (startsWith(bytes, ascii('VP8X'), 12)) {
		return {mediaType: 'image/webp', width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1};
	}

	return undefined;
}
