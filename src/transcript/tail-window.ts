/**
@module The tail window of a large log: its last MB (about 270 cards of the benchmark log), cut at
line boundaries, read before the full index exists so the pager's first frame does not depend on the
log's size. `indexed-entry-source.ts` indexes the window's lines on their own and shows only the cards
whose `tool/call` lies inside it: a result, sub-call or late settle whose call is further back would
otherwise show as an orphan, so those wait for the full index. When the window holds the whole file,
every card is kept.
*/
import {closeSync, fstatSync, openSync, readSync} from 'node:fs';

/** Bytes read from the end of the log by default. */
export const DEFAULT_TAIL_BYTES = 1024 * 1024;

/** The whole lines at the end of a log file. */
export type TailWindow = {
	/** The window's bytes, from `from` to the end of the file as it was when read. */
	readonly bytes: Buffer;
	/** File offset of `bytes[0]`. */
	readonly from: number;
	/** Whether the window is the whole file (its first line is the header). */
	readonly whole: boolean;
	/** File size when the window was read. */
	readonly size: number;
};

/** Reads the last `tailBytes` of the plain log at `path`. */
export function readLogTail(path: string, tailBytes = DEFAULT_TAIL_BYTES): TailWindow {
	const fd = openSync(path, 'r');
	try {
		const size = fstatSync(fd).size;
		const from = Math.max(0, size - tailBytes);
		const bytes = Buffer.allocUnsafe(size - from);
		let filled = 0;
		while (filled < bytes.length) {
			const read = readSync(fd, bytes, filled, bytes.length - filled, from + filled);
			if (read === 0) {
				break;
			}

			filled += read;
		}

		return {bytes: bytes.subarray(0, filled), from, whole: from === 0, size};
	} finally {
		closeSync(fd);
	}
}

/**
Calls `line` for each whole event line of the window with its text, file offset and byte length.
The first line is skipped: the header when the window is the whole file, otherwise maybe a partial
line. A torn last line (no newline yet) is left out, as the reader does.
*/
export function forEachTailLine(window: TailWindow, line: (text: string, offset: number, length: number) => void): void {
	const {bytes, from} = window;
	let start = bytes.indexOf(10);
	start = start === -1 ? bytes.length : start + 1;
	for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, start)) {
		line(bytes.toString('utf8', start, end), from + start, end - start);
		start = end + 1;
	}
}
