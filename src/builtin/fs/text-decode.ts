/**
@module Strict text decoding for the mutating file tools: a file is text when it has no NUL byte
and is valid UTF-8. A byte-order mark is kept as part of the text so a rewrite preserves it.
*/

/** The UTF-8 text of `bytes`, or `undefined` when they hold a NUL byte or are not valid UTF-8. */
export function decodeUtf8Text(bytes: Uint8Array): string | undefined {
	if (bytes.includes(0)) {
		return undefined;
	}

	try {
		return new TextDecoder('utf-8', {fatal: true, ignoreBOM: true}).decode(bytes);
	} catch {
		return undefined;
	}
}
