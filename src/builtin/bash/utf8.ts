/**
@module UTF-8 boundaries for byte-bounded output: a tail may start inside a character and a chunk
may end inside one; neither may turn into a replacement character when the full text is fine.
*/

/** Whether `byte` continues a multi-byte UTF-8 sequence (`10xxxxxx`). */
function isContinuation(byte: number): boolean {
	return (byte & 0xc0) === 0x80;
}

/** Length of the sequence a lead byte announces; 1 for ASCII and for bytes that lead nothing. */
function sequenceLength(lead: number): number {
	if (lead >= 0xf0 && lead <= 0xf7) {
		return 4;
	}

	if (lead >= 0xe0) {
		return lead <= 0xef ? 3 : 1;
	}

	return lead >= 0xc0 ? 2 : 1;
}

/** Skip at most three continuation bytes at the start: the rest of a character cut off by a tail. */
export function dropLeadingPartial(bytes: Buffer): Buffer {
	let start = 0;
	while (start < bytes.length && start < 3 && isContinuation(bytes[start])) {
		start++;
	}

	return start === 0 ? bytes : bytes.subarray(start);
}

/** Split off an incomplete character at the end, so it can be completed by the next chunk. */
export function splitCompleteUtf8(bytes: Buffer): {complete: Buffer; rest: Buffer} {
	// Look back at most 3 bytes for the lead of the last character.
	for (let back = 1; back <= Math.min(4, bytes.length); back++) {
		const byte = bytes[bytes.length - back];
		if (!isContinuation(byte)) {
			const needed = sequenceLength(byte);
			return needed > back
				? {complete: bytes.subarray(0, bytes.length - back), rest: bytes.subarray(bytes.length - back)}
				: {complete: bytes, rest: bytes.subarray(bytes.length)};
		}
	}

	return {complete: bytes, rest: bytes.subarray(bytes.length)};
}

const decoder = new TextDecoder('utf-8');

/** Decode bytes; invalid sequences become U+FFFD (output is shown, never trusted). */
export function decodeUtf8(bytes: Uint8Array): string {
	return decoder.decode(bytes);
}
