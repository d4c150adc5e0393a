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

/** The most text of a session saved as one JSON document (Gemini CLI before its JSONL chats) held to be parsed at its end. */
const MAX_DOCUMENT_CHARS = 256 * 1024 * 1024;

export class ForeignLogLines {
	readonly format: ForeignFormat;
	readonly #reader: ForeignReader;

	private constructor(format: ForeignFormat) {
		this.format = format;
		this.#reader = format.reader();
	}

	/**
	A file whose line 1 is a lone `{`: a JSON document written pretty (Gemini CLI's chats before
	0.5x, `session-*.json`). Its lines are held and read at the end; one that is not a session of a
	known format is handed back as it is, for the log reader to judge.
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
	line(text: string): string[] {
		const lines = this.#reader.lines;
		const parsed = parseLogJson(text);
		if (!parsed.ok || !isJsonObject(parsed.value)) {
			lines.raw(text.trim() === '' ? text : (parsed.ok ? '"not an object"' : text));
		} else {
			try {
				this.#reader.record(parsed.value);
			} catch (error) {
				// A reader's slip on a record it did not expect is a note, not the end of the file.
				lines.notice(`slip-${String(error)}`, `${this.format.agent} record not read: ${error instanceof Error ? error.message : String(error)}`);
			}
		}

		lines.counted();
		return lines.take();
	}

	/** The lines the end of the input makes: the header of a file too short to say it, turns still open. */
	end(): string[] {
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
	line(text: string): string[] {
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
	end(): string[] {
		if (this.#tooLong) {
			return ['"a JSON document longer than 256 MiB: not read"'];
		}

		const text = this.#text.join('\n');
		const parsed = parseLogJson(text);
		const value = parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined;
		// Gemini CLI's chat document: the session's fields, and its messages as the JSONL chats' records.
		const format = value === undefined ? undefined : foreignFormatOf({sessionId: value.sessionId, projectHash: value.projectHash, startTime: value.startTime});
		if (value === undefined || format === undefined || !Array.isArray(value.messages)) {
			return this.#text.slice(0, 1);
		}

		const lines = ForeignLogLines.detect(JSON.stringify({sessionId: value.sessionId, projectHash: value.projectHash, startTime: value.startTime}))!;
		const out: string[] = [];
		for (const message of [{sessionId: value.sessionId, projectHash: value.projectHash, startTime: value.startTime}, ...value.messages]) {
			for (const line of lines.line(JSON.stringify(message))) {
				out.push(line);
			}
		}

		for (const line of lines.end()) {
			out.push(line);
		}

		return out;
	}
}
