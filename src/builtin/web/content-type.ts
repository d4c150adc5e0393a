/**
@module What `web_fetch` does with a response, decided by its `Content-Type`: HTML is converted to
Markdown, text-like types pass through, everything else is refused before the body is read.
*/
import {TextDecoder} from 'node:util';

/** The parsed `Content-Type`: lower-case `type/subtype` (empty when absent) and its charset, if any. */
export type MediaType = {readonly essence: string; readonly charset?: string};

/** How to read a body: convert, pass through, sniff the bytes (no type given), or refuse. */
export type BodyTreatment = 'html' | 'text' | 'sniff' | 'refuse';

/** Parse a `Content-Type` header value; tolerant of junk (an unparsable value yields its lower-cased essence). */
export function parseMediaType(header: string | null): MediaType {
	if (header === null) {
		return {essence: ''};
	}

	const [essencePart = '', ...parameters] = header.split(';');
	const essence = essencePart.trim().toLowerCase();
	for (const parameter of parameters) {
		const separator = parameter.indexOf('=');
		if (separator !== -1 && parameter.slice(0, separator).trim().toLowerCase() === 'charset') {
			const charset = parameter.slice(separator + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
			if (charset !== '') {
				return {essence, charset};
			}
		}
	}

	return {essence};
}

const textApplicationTypes = new Set([
	'application/json',
	'application/ld+json',
	'application/x-ndjson',
	'application/xml',
	'application/javascript',
	'application/x-javascript',
	'application/ecmascript',
	'application/yaml',
	'application/x-yaml',
	'application/toml',
]);

/** Decide how to treat a body of this media type. */
export function bodyTreatment(mediaType: MediaType): BodyTreatment {
	const {essence} = mediaType;
	if (essence === '') {
		return 'sniff';
	}

	if (essence === 'text/html' || essence === 'application/xhtml+xml') {
		return 'html';
	}

	if (essence.startsWith('text/') || textApplicationTypes.has(essence) || essence.endsWith('+json') || essence.endsWith('+xml')) {
		return 'text';
	}

	return 'refuse';
}

/**
Classify an untyped body by its first bytes: a NUL byte means binary (refused), an HTML-looking
start means HTML, anything else is text.
*/
export function sniffBody(bytes: Uint8Array): 'html' | 'text' | 'refuse' {
	const head = bytes.subarray(0, 1024);
	if (head.includes(0)) {
		return 'refuse';
	}

	const start = new TextDecoder().decode(head).trimStart().slice(0, 64).toLowerCase();
	return start.startsWith('<!doctype html') || start.startsWith('<html') ? 'html' : 'text';
}

/** A decoder for `charset`, falling back to UTF-8 for unknown labels; invalid bytes become U+FFFD. */
export function decoderFor(charset: string | undefined): TextDecoder {
	if (charset !== undefined) {
		try {
			return new TextDecoder(charset, {fatal: false});
		} catch {
			// An unknown label is the server's mistake, not a reason to fail the fetch.
		}
	}

	return new TextDecoder('utf-8', {fatal: false});
}

/** The charset an HTML document declares in a `<meta>` within its first 1 024 bytes, if any. */
export function metaCharset(bytes: Uint8Array): string | undefined {
	const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
	const match = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head);
	return match?.[1]?.toLowerCase();
}
