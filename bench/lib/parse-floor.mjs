// The replay floor: read a JSONL file in 1 MiB chunks, split lines, JSON.parse each, keep nothing.
//   node bench/lib/parse-floor.mjs FILE
// replay-stages.mjs imports `parseFloor` so both measure the same floor.
import {closeSync, openSync, readSync} from 'node:fs';
import {StringDecoder} from 'node:string_decoder';

/** Reads and parses every line of `file`; returns how many lines there were. */
export function parseFloor(file) {
	const fd = openSync(file, 'r');
	const buffer = Buffer.allocUnsafe(1 << 20);
	const decoder = new StringDecoder('utf8');
	let rest = '';
	let lines = 0;
	for (;;) {
		const read = readSync(fd, buffer, 0, buffer.length, null);
		if (read === 0) {
			break;
		}

		const text = rest + decoder.write(buffer.subarray(0, read));
		let start = 0;
		for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
			JSON.parse(text.slice(start, end));
			lines++;
			start = end + 1;
		}

		rest = text.slice(start);
	}

	closeSync(fd);
	return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	process.stderr.write(`parse-floor: ${parseFloor(process.argv[2])} lines\n`);
}
