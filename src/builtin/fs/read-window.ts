/**
@module The pure half of `read`: a bounded, line-numbered window over decoded text chunks, the
model-facing `<path>/<type>/<content>` envelope with its footers, the `lang` hint table, and the
narrowing of persisted `meta` (contract.md §E2.3, §E5.1).
*/
import {langFromPath} from '../../presentation/lang-from-path.js';
import {parsePathEnvelope} from '../../presentation/path-envelope.js';
import type {ReadFileLine} from '../../tools/views.js';
import {FsError} from '../workspace/fs-error.js';

/** Default and largest `limit` of one read (lines). */
export const READ_LIMIT = 2000;
/** Characters kept of one line before the truncation suffix. */
export const READ_MAX_LINE_LENGTH = 2000;
/** UTF-8 bytes of selected lines (with their joining newlines) one read returns at most. */
export const READ_MAX_BYTES = 50 * 1024;

/** The window a read asks for, after defaults. */
export type ReadWindowRequest = {
	readonly offset: number;
	readonly limit: number;
	readonly maxLineLength: number;
	readonly maxBytes: number;
};

/** A built window: the kept lines, the exact line count of the file, and whether the byte cap stopped it. */
export type ReadWindow = {
	readonly lines: ReadFileLine[];
	readonly totalLines: number;
	readonly cappedByBytes: boolean;
};

/** Clip one line to `max` UTF-16 units without splitting a surrogate pair, marking the cut. */
export function clipReadLine(line: string, max: number): string {
	if (line.length <= max) {
		return line;
	}

	let end = max;
	const last = line.charCodeAt(end - 1);
	if (last >= 0xd8_00 && last <= 0xdb_ff) {
		end -= 1;
	}

	return `${line.slice(0, end)}... (line truncated to ${max} chars)`;
}

/**
Incremental window builder: feed decoded chunks in file order with `push`, then `finish`. Only
`maxLineLength + 1` characters of the current line are buffered, so a giant line without newlines
cannot grow memory; lines are still counted to the end so `totalLines` is exact.
*/
export class ReadWindowBuilder {
	readonly #request: ReadWindowRequest;
	readonly #lines: ReadFileLine[] = [];
	#total = 0;
	#bytes = 0;
	#capped = false;
	#buffer = '';
	#pendingText = false;

	constructor(request: ReadWindowRequest) {
		this.#request = request;
	}

	/** Consume one chunk of decoded text. */
	push(chunk: string): void {
		let start = 0;
		for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', start)) {
			this.#append(chunk.slice(start, newline));
			this.#flush();
			start = newline + 1;
		}

		this.#append(chunk.slice(start));
	}

	/**
	End of input: returns the window. Throws `FS_NOT_FOUND` when the offset lies past the last line
	(an empty file still answers offset 1 with an empty window).
	*/
	finish(displayPath: string): ReadWindow {
		if (this.#pendingText) {
			this.#flush();
		}

		const {offset} = this.#request;
		if (!this.#capped && offset > this.#total && !(this.#total === 0 && offset === 1)) {
			throw new FsError(`offset ${offset} is out of range for "${displayPath}" (${this.#total} lines)`, 'FS_NOT_FOUND');
		}

		return {lines: this.#lines, totalLines: this.#total, cappedByBytes: this.#capped};
	}

	#append(segment: string): void {
		if (segment.length > 0) {
			this.#pendingText = true;
		}

		const room = this.#request.maxLineLength + 1 - this.#buffer.length;
		if (room > 0) {
			this.#buffer += segment.length > room ? segment.slice(0, room) : segment;
		}
	}

	#flush(): void {
		const raw = this.#buffer.endsWith('\r') ? this.#buffer.slice(0, -1) : this.#buffer;
		this.#buffer = '';
		this.#pendingText = false;
		this.#total += 1;
		const {offset, limit, maxLineLength, maxBytes} = this.#request;
		if (this.#capped || this.#total < offset || this.#lines.length >= limit) {
			return;
		}

		const text = clipReadLine(raw, maxLineLength);
		const bytes = Buffer.byteLength(text, 'utf8') + (this.#lines.length > 0 ? 1 : 0);
		if (this.#bytes + bytes > maxBytes) {
			this.#capped = true;
			return;
		}

		this.#bytes += bytes;
		this.#lines.push({number: this.#total, text});
	}
}

/** What the envelope renders. */
export type ReadEnvelopeInput = {
	readonly path: string;
	readonly offset: number;
	readonly lines: readonly ReadFileLine[];
	readonly totalLines: number;
	/** The byte cap stopped the window before `limit` lines. */
	readonly cappedByBytes: boolean;
};

/** The window body: numbered lines, a blank line, one footer (just the footer when there are no lines). */
function formatReadBody(input: Omit<ReadEnvelopeInput, 'path'>): string {
	const last = input.lines.at(-1)?.number ?? Math.max(0, input.offset - 1);
	let footer: string;
	if (input.cappedByBytes) {
		footer = `(Output capped. Showing lines ${input.offset}-${last}. Use offset=${last + 1} to continue.)`;
	} else if (last < input.totalLines) {
		footer = `(Showing lines ${input.offset}-${last} of ${input.totalLines}. Use offset=${last + 1} to continue.)`;
	} else {
		footer = `(End of file - total ${input.totalLines} lines)`;
	}

	if (input.lines.length === 0) {
		return footer;
	}

	return `${input.lines.map((line) => `${line.number}: ${line.text}`).join('\n')}\n\n${footer}`;
}

/** The model-facing read text: `<path>…</path>\n<type>file</type>\n<content>\n…\n</content>`. */
export function formatReadEnvelope(input: ReadEnvelopeInput): string {
	return `<path>${input.path}</path>\n<type>file</type>\n<content>\n${formatReadBody(input)}\n</content>`;
}

/** The envelope body of a read text, or `undefined` when the text is not a read envelope. */
export function readEnvelopeBody(text: string): string | undefined {
	const envelope = parsePathEnvelope(text);
	return envelope?.type === 'file' ? envelope.body : undefined;
}

const numberedLine = /^([1-9]\d*): (.*)$/su;
const endOfFile = /^\(End of file - total (\d+) lines\)$/u;
const moreLines = /^\(Showing lines \d+-\d+ of (\d+)\. Use offset=\d+ to continue\.\)$/u;

/**
The read window an envelope's body stands for — the inverse of `formatReadBody` — for logs whose
`read` results carry no `meta` (other producers, older versions). `undefined` unless every line is
numbered in order and the footer gives the file's length (a byte-capped window does not).
*/
export function readMetaFromEnvelope(text: string): ReadMeta | undefined {
	const envelope = parsePathEnvelope(text);
	if (envelope?.type !== 'file') {
		return undefined;
	}

	const rows = envelope.body.split('\n');
	const footer = rows.pop() ?? '';
	const totalText = (endOfFile.exec(footer) ?? moreLines.exec(footer))?.[1];
	if (totalText === undefined) {
		return undefined;
	}

	if (rows.length > 0 && rows.pop() !== '') {
		return undefined;
	}

	const lines: ReadFileLine[] = [];
	for (const row of rows) {
		const match = numberedLine.exec(row);
		const number = match === null ? Number.NaN : Number(match[1]);
		if (match === null || (lines.length > 0 && number !== lines.at(-1)!.number + 1)) {
			return undefined;
		}

		lines.push({number, text: match[2]!});
	}

	const totalLines = Number(totalText);
	if (lines.length === 0 && moreLines.test(footer)) {
		return undefined;
	}

	const offset = lines[0]?.number ?? totalLines + 1;
	if (lines.length > 0 && lines.at(-1)!.number > totalLines) {
		return undefined;
	}

	const lang = langFromPath(envelope.path);
	return {path: envelope.path, offset, lines, totalLines, ...(lang === undefined ? {} : {lang})};
}

/** A read window as persisted in `meta`. */
export type ReadMeta = {
	readonly path: string;
	readonly offset: number;
	readonly lines: readonly ReadFileLine[];
	readonly totalLines: number;
	readonly lang?: string;
};

function isReadLine(value: unknown): value is ReadFileLine {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return false;
	}

	const {number, text} = value as Record<string, unknown>;
	return typeof number === 'number' && Number.isInteger(number) && number >= 1 && typeof text === 'string';
}

/**
Narrow persisted read `meta` (offset int ≥ 1, totalLines int ≥ 0, line numbers ints ≥ 1, strictly
increasing, ≥ offset, ≤ totalLines, lang a string when present), else `undefined`.
*/
export function readMetaFromMeta(meta: unknown): ReadMeta | undefined {
	if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
		return undefined;
	}

	const {path, offset, lines, totalLines, lang} = meta as Record<string, unknown>;
	if (typeof path !== 'string' || typeof offset !== 'number' || !Number.isInteger(offset) || offset < 1) {
		return undefined;
	}

	if (typeof totalLines !== 'number' || !Number.isInteger(totalLines) || totalLines < 0) {
		return undefined;
	}

	if (!Array.isArray(lines) || !lines.every(isReadLine) || (lang !== undefined && typeof lang !== 'string')) {
		return undefined;
	}

	let previous = offset - 1;
	for (const line of lines) {
		if (line.number <= previous || line.number > totalLines) {
			return undefined;
		}

		previous = line.number;
	}

	const copied = lines.map((line) => ({number: line.number, text: line.text}));
	return lang === undefined ? {path, offset, lines: copied, totalLines} : {path, offset, lines: copied, totalLines, lang};
}
