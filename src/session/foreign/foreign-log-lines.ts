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

export class ForeignLogLines {
	readonly format: ForeignFormat;
	readonly #reader: ForeignReader;

	private constructor(format: ForeignFormat) {
		this.format = format;
		this.#reader = format.reader();
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
