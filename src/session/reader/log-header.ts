/**
@module The header line of a session log (contract.md §E3.7, line 1). Any problem with it
makes the whole log unreadable, so it throws `SessionLogError` instead of reporting a diagnostic.
*/
import {isPlainRecord} from '../../json/is-plain-record.js';
import {quoteLogValue, SessionLogError} from './log-errors.js';
import {parseLogJson} from './log-json.js';
import {SESSION_LOG_VERSION, type SessionHeader} from '../events/events.js';

/** The largest time a `Date` holds (ECMA-262 §21.4.1.1), in ms either side of the epoch. */
const MAX_EPOCH_MS = 8.64e15;

/**
Longest header line read (1 MiB). Headers are a few hundred bytes (the dsh corpus: 136); the bound
lets input with no newline (`/dev/zero`, a stray binary) be refused after 1 MiB instead of 64.
*/
export const MAX_HEADER_BYTES = 1024 * 1024;

const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

/** Compressed formats cardterm does not read, by magic number, and how to decompress each. */
const COMPRESSED_FORMATS: ReadonlyArray<{readonly name: string; readonly magic: readonly number[]; readonly decompress: string}> = [
	{name: 'gzip', magic: [0x1f, 0x8b], decompress: 'gunzip -k'},
	{name: 'bzip2', magic: [0x42, 0x5a, 0x68], decompress: 'bunzip2 -k'},
	{name: 'xz', magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], decompress: 'unxz -k'},
	{name: 'zip', magic: [0x50, 0x4b, 0x03, 0x04], decompress: 'unzip'},
	{name: 'lz4', magic: [0x04, 0x22, 0x4d, 0x18], decompress: 'unlz4'},
];

/** The problem of a file that starts with a compressed format's magic number, or undefined. */
function compressedProblem(bytes: Uint8Array, at: number): string | undefined {
	const format = COMPRESSED_FORMATS.find(candidate => candidate.magic.every((byte, index) => bytes[at + index] === byte));
	return format === undefined
		? undefined
		: `missing header: this is a ${format.name}-compressed file; cardterm reads plain .jsonl logs and zstd-compressed ones (.zst, .zstd): decompress it first (${format.decompress})`;
}

/**
Checks line 1 as its bytes arrive, before its newline: only a UTF-8 byte-order mark and blanks may
come before the `{` of the header, so anything else is refused at its first byte instead of after
reading (maybe endless) input up to a newline.
*/
export class HeaderStartCheck {
	private index = 0;
	private inMark = true;
	private decided = false;

	/** Looks at the next bytes of line 1; returns the problem, or `undefined` (fine, or not decided yet). */
	check(bytes: Uint8Array): string | undefined {
		for (let at = 0; at < bytes.length && !this.decided; at++, this.index++) {
			const byte = bytes[at];
			if (this.inMark && this.index < BYTE_ORDER_MARK.length && byte === BYTE_ORDER_MARK[this.index]) {
				continue;
			}

			this.inMark = false;
			if (byte === 0x20 || byte === 0x09 || byte === 0x0d) {
				continue;
			}

			this.decided = true;
			// A `{` starts a header; a newline ends line 1, which the header parser then judges.
			if (byte !== 0x7b && byte !== 0x0a) {
				const compressed = this.index === 0 ? compressedProblem(bytes, at) : undefined;
				if (compressed !== undefined) {
					return compressed;
				}

				const hex = `0x${byte.toString(16).padStart(2, '0')}`;
				const shown = byte > 0x20 && byte < 0x7f ? `${hex} (${JSON.stringify(String.fromCharCode(byte))})` : hex;
				return `missing header: line 1 starts with ${shown}, not "{"; this is not a session log`;
			}
		}

		return undefined;
	}
}

/** Parses and checks line 1 of `file`. Throws `SessionLogError` naming file, line 1 and the reason. */
export function parseHeaderLine(text: string, file: string): SessionHeader {
	const fail = (reason: string): never => {
		throw new SessionLogError(file, 1, reason);
	};

	// A UTF-8 byte-order mark is the only thing tolerated before the JSON.
	const parsed = parseLogJson(text.startsWith('\uFEFF') ? text.slice(1) : text);
	if (!parsed.ok) {
		return fail(parsed.problem === 'not valid JSON' ? 'missing header: line 1 is not valid JSON' : `missing header: line 1: ${parsed.problem}`);
	}

	const value = parsed.value;

	if (!isPlainRecord(value)) {
		return fail('missing header: line 1 is not a JSON object');
	}

	if (value.type !== 'session') {
		const found = typeof value.type === 'string' ? `a ${quoteLogValue(value.type)} event` : 'an object without "type": "session"';
		return fail(`missing header: line 1 is ${found}, not the session header {"type":"session",…}`);
	}

	const version = value.version;
	if (version !== SESSION_LOG_VERSION) {
		if (typeof version === 'number' && Number.isFinite(version) && version > SESSION_LOG_VERSION) {
			return fail(`session log version ${version} is newer than this cardterm supports (version ${SESSION_LOG_VERSION}); upgrade cardterm to read it`);
		}

		return fail(`unsupported session log version ${version === undefined ? 'undefined' : quoteLogValue(version)} (this cardterm reads version ${SESSION_LOG_VERSION})`);
	}

	if (typeof value.id !== 'string') {
		return fail('invalid header: "id" must be a string');
	}

	if (typeof value.createdAt !== 'number' || !Number.isFinite(value.createdAt)) {
		return fail('invalid header: "createdAt" must be a number (epoch ms)');
	}

	// Beyond ±8.64e15 ms a Date is invalid: such a time cannot be shown, so it is no creation time.
	if (Math.abs(value.createdAt) > MAX_EPOCH_MS) {
		return fail(`invalid header: "createdAt" must be epoch ms within ±8.64e15 (got ${value.createdAt})`);
	}

	for (const key of ['cwd', 'title'] as const) {
		if (value[key] !== undefined && typeof value[key] !== 'string') {
			return fail(`invalid header: "${key}" must be a string when present`);
		}
	}

	return value as SessionHeader;
}
