/**
@module Byte bounds for job-tool content (contract.md §T5.5): a job's `outputLimitBytes`
caps what one control-tool result may say about it.
*/

/** The last `maxBytes` bytes of `text` at most, never starting inside a character. */
function utf8Tail(text: string, maxBytes: number): string {
	const bytes = Buffer.from(text, 'utf8');
	if (bytes.length <= maxBytes) {
		return text;
	}

	let start = bytes.length - Math.max(0, maxBytes);
	while (start < bytes.length && (bytes[start] & 0xc0) === 0x80) {
		start++;
	}

	return bytes.subarray(start).toString('utf8');
}

const statusPrefix = '[status: ';

/**
Bound `text` to `limit` UTF-8 bytes: keep a trailing `[status: …]` line, keep the tail of the rest
and follow it with `marker` on its own line (unless the rest already ends with a marker).
*/
export function boundJobText(text: string, limit: number, marker: '[output truncated]' | '[result truncated]'): string {
	if (Buffer.byteLength(text, 'utf8') <= limit) {
		return text;
	}

	const lastBreak = text.lastIndexOf('\n');
	const hasStatus = text.slice(lastBreak + 1).startsWith(statusPrefix);
	const body = hasStatus ? text.slice(0, lastBreak) : text;
	const suffix = hasStatus ? `\n${text.slice(lastBreak + 1)}` : '';
	const endsWithMarker = /\[(output|result) truncated\]$/.test(body);
	const markerLine = endsWithMarker ? '' : `\n${marker}`;
	const room = limit - Buffer.byteLength(markerLine + suffix, 'utf8');
	return `${utf8Tail(body, room)}${markerLine}${suffix}`;
}
