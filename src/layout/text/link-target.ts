/**
@module Which link targets may become OSC 8 hyperlinks. Only http(s) and file URLs, normalized by
the URL parser and made only of printable ASCII, so a link can never carry an escape sequence or
point at something a click would execute.
*/

const allowedProtocols = new Set(['http:', 'https:', 'file:']);

/** The normalized URL when `url` may be linked, else `undefined`. `web` limits to http(s). */
export function safeLinkTarget(url: string, options: {readonly web?: boolean} = {}): string | undefined {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return undefined;
	}

	if (!allowedProtocols.has(parsed.protocol) || (options.web === true && parsed.protocol === 'file:')) {
		return undefined;
	}

	const href = parsed.href;
	return /^[\x21-\x7e]+$/.test(href) ? href : undefined;
}

/**
An absolute path the URL parser keeps as it is: segments of unreserved characters (nothing to
percent-encode), none empty, `.` or `..` (nothing to normalize away).
*/
const plainAbsolutePath = /^(?:\/(?!\.\.?(?:\/|$))[\w.~-]+)+$/;

/** A `file://` URL for an absolute POSIX path, or `undefined` for a relative one. */
export function fileLinkTarget(absolutePath: string): string | undefined {
	if (!absolutePath.startsWith('/')) {
		return undefined;
	}

	// The commonest path needs neither encoding nor the URL parser: it is its own URL path.
	if (plainAbsolutePath.test(absolutePath)) {
		return `file://${absolutePath}`;
	}

	const encoded = absolutePath.split('/').map(part => encodeURIComponent(part)).join('/');
	return safeLinkTarget(`file://${encoded}`);
}
