/**
@module Another agent's session file, line by line, as the contract's log lines: line 1 says which
agent wrote it (foreign-formats.ts); each later line is parsed and handed to that agent's reader,
whose lines replace it. A line that is not JSON is passed on as it is, so the log reader reports it
as damaged at its own line number; a record the reader cannot read never stops the rest.
*/
import {isJsonObject} from '../../json/is-plain-record.js';
import {parseLogJson} from '../reader/log-json.js';
import {foreignFormatOf, type ForeignFormat} from './foreign-formats.js';
import type {ForeignReader} from './foreign-reader.js';
import {TranslatedLine} from './contract-lines.js';

/** The most text of a session saved as one JSON document (Gemini CLI before its JSONL chats) held to be parsed at its end. */
const MAX_DOCUMENT_CHARS = 256 * 1024 * 1024;

export class ForeignLogLines {
	readonly format: ForeignFormat;
	readonly #reader: ForeignReader;

	constructor(format: ForeignFormat) {
		this.format = format;
		this.#reader = format.reader();
	}

	/**
	A file whose line 1 is a lone `{`: a JSON document written pretty (Gemini CLI's chats before
	0.5x, `session-*.json`; `opencode export`). Its lines are held and read at the end; one that is
	not a session of a known format is handed back as it is, for the log reader to judge.
	*/
	static document(): ForeignDocument {
		return new ForeignDocument();
	}

	/** A translator for the file whose line 1 is `text`, or `undefined` when no agent's format claims it. */
	static detect(text: string): ForeignLogLines | undefined {
		const parsed = parseLogJson(text.startsWith('\uFEFF') ? text.slice(1) : text);
		const format = parsed.ok ? foreignFormatOf(parsed.value) : undefined;
		return format === undefined ? undefined : new ForeignLogLines(format);
	}

	/** The contract's lines for one line of the file (line 1 included). */
	line(text: string): TranslatedLine[] {
		const parsed = parseLogJson(text);
		if (!parsed.ok || !isJsonObject(parsed.value)) {
			const lines = this.#reader.lines;
			lines.raw(text.trim() === '' ? text : (parsed.ok ? '"not an object"' : text));
			lines.counted();
			return lines.take();
		}

		return this.read(parsed.value);
	}

	/** The contract's lines for one record (a line's object, or one of a document's records). */
	read(record: Readonly<Record<string, unknown>>): TranslatedLine[] {
		const lines = this.#reader.lines;
		try {
			this.#reader.record(record);
		} catch (error) {
			// A reader's slip on a record it did not expect is a note, not the end of the file.
			lines.notice(`slip-${String(error)}`, `${this.format.agent} record not read: ${error instanceof Error ? error.message : String(error)}`);
		}

		lines.counted();
		return lines.take();
	}

	/** The lines the end of the input makes: the header of a file too short to say it, turns still open. */
	end(): TranslatedLine[] {
		this.#reader.end();
		this.#reader.lines.writeHeader();
		return this.#reader.lines.take();
	}
}

/** A session saved as one JSON document: its lines held until the end of the input, then read as records. */
export class ForeignDocument {
	#text: string[] = [];
	#chars = 0;
	#tooLong = false;

	/** Holds a line; nothing comes out before the end. */
	line(text: string): TranslatedLine[] {
		this.#chars += text.length + 1;
		if (this.#chars > MAX_DOCUMENT_CHARS) {
			this.#tooLong = true;
			this.#text = [];
		} else if (!this.#tooLong) {
			this.#text.push(text);
		}

		return [];
	}

	/** The document's lines, read as the session it is (or as it was, when it is none). */
	end(): TranslatedLine[] {
		if (this.#tooLong) {
			return [new TranslatedLine(undefined, '"a JSON document longer than 256 MiB: not read"')];
		}

		const parsed = parseLogJson(this.#text.join('\n'));
		const value = parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined;
		const format = value === undefined ? undefined : foreignFormatOf(value);
		if (value === undefined || format?.documentRecords === undefined) {
			return this.#text.slice(0, 1).map(text => new TranslatedLine(undefined, text));
		}

		const lines = new ForeignLogLines(format);
		const out: TranslatedLine[] = [];
		for (const record of format.documentRecords(value)) {
			for (const line of lines.read(record)) {
				out.push(line);
			}
		}

		for (const line of lines.end()) {
			out.push(line);
		}

		return out;
	}
}

/**
`watch` of a session another agent saves as one JSON document it rewrites whole (Gemini CLI's chats
before its JSONL ones): each version of the document is read again, and its records handed to one
reader from the last one it had (by index: the last may have been rewritten, its calls completed;
the readers read a message or a call once), so only what the new version adds comes out.
*/
export class ForeignDocumentFollower {
	#lines: ForeignLogLines | undefined;
	/** Records of the document read so far. */
	#read = 0;

	/**
	The lines a version of the document adds: none while it does not parse (being written), or
	`undefined` when it is no session document of a format cardterm reads.
	*/
	update(text: string): TranslatedLine[] | undefined {
		if (text.length > MAX_DOCUMENT_CHARS) {
			return undefined;
		}

		const parsed = parseLogJson(text);
		if (!parsed.ok) {
			return [];
		}

		const format = isJsonObject(parsed.value) ? foreignFormatOf(parsed.value) : undefined;
		if (format?.documentRecords === undefined || (this.#lines !== undefined && format !== this.#lines.format)) {
			return undefined;
		}

		this.#lines ??= new ForeignLogLines(format);
		const records = format.documentRecords(parsed.value as Readonly<Record<string, unknown>>);
		const out: TranslatedLine[] = [];
		// The session's own record once, then from the last record read (it may have changed) on.
		for (let index = this.#read === 0 ? 0 : Math.max(1, this.#read - 1); index < records.length; index++) {
			for (const line of this.#lines.read(records[index]!)) {
				out.push(line);
			}
		}

		this.#read = Math.max(this.#read, records.length);
		return out;
	}
}
