/**
@module The one sink: everything cardterm writes to stdout or stderr goes through `writeText` or
`writeOutput` (test/reliability/terminal-writers.test.ts fails on any other writer). Text — messages,
help, listings, copied card text — is sanitized on the way, so whatever argv, a log, a folder name or
a tool put into it is shown escaped. Only `TerminalOutput` is written as is: rows `renderLines` built
from sanitized spans, JSON with every unsafe character escaped, and the control sequences cardterm
composes itself (`controlSequence`).

It sits in layout, next to the sanitizer and `renderLines`, so the CLI and the components reach it.
*/
import {sanitizeText, stringifyForTerminal, terminalSafeJson} from '../text/sanitize.js';

declare const composed: unique symbol;

/** Bytes whose every escape sequence cardterm composed itself. */
export type TerminalOutput = string & {readonly [composed]: true};

/** Mark a sequence cardterm composes (screen switch, clipboard, cursor moves) as terminal output. */
export function controlSequence(sequence: string): TerminalOutput {
	return sequence as TerminalOutput;
}

/** Rendered rows, escaped text and sequences, concatenated. */
export function joinOutput(parts: readonly TerminalOutput[]): TerminalOutput {
	return parts.join('') as TerminalOutput;
}

/** Terminal output already encoded as UTF-8 (`encodeOutput`). */
export type EncodedOutput = Uint8Array & {readonly [composed]: true};

/** Above this many UTF-16 units a batch is joined first: the buffer is sized for the worst case, 3 bytes a unit. */
const ENCODE_LIMIT = 1 << 24;

/**
`parts`, concatenated, as UTF-8 bytes for one write. Each part is encoded straight into one buffer:
joining them first copies every byte once more (a 100 MB `replay --json` spent ~100 ms in the join).
*/
export function encodeOutput(parts: readonly TerminalOutput[]): EncodedOutput {
	let units = 0;
	for (const part of parts) {
		units += part.length;
	}

	if (units > ENCODE_LIMIT) {
		return Buffer.from(joinOutput(parts), 'utf8') as Uint8Array as EncodedOutput;
	}

	const buffer = Buffer.allocUnsafe(units * 3);
	let length = 0;
	for (const part of parts) {
		length += buffer.write(part, length, 'utf8');
	}

	return buffer.subarray(0, length) as Uint8Array as EncodedOutput;
}

/** A value as one line of JSON that is safe on a terminal (`--json`). */
export function jsonLine(value: unknown): TerminalOutput {
	return `${jsonOutput(value)}${lineEnd}` as TerminalOutput;
}

/**
A value as JSON that is safe on a terminal, without the newline of `jsonLine`: a writer that batches
parts for `encodeOutput` adds `lineEnd` as a part of its own, since a joined `json + "\n"` is copied
once more when it is encoded.
*/
function jsonOutput(value: unknown): TerminalOutput {
	return stringifyForTerminal(value) as TerminalOutput;
}

/** The newline that ends a line of output. */
const lineEnd = '\n' as TerminalOutput;

const DEL = 0x7f;
/** The most a batch's buffer starts with (it grows when its lines need more). */
const FIRST_BATCH_BYTES = 1 << 24;

/**
Values as lines of JSON that are safe on a terminal, collected for one write (`replay --json`).
Each value is stringified when added; when taken, each line is encoded as it is, and a line whose
UTF-8 bytes are as many as its characters is ASCII, which JSON.stringify leaves without a C0
control: only DEL could need escaping there, and one search of the batch's bytes rules it out. So
an ASCII line (most lines of any log) costs no check of its own; any other line, and every line of
a batch with a DEL, is made safe by the rule of `jsonOutput`.
*/
export class JsonLines {
	#texts: string[] = [];
	#units = 0;

	/** UTF-16 units held (newlines included). */
	get units(): number {
		return this.#units;
	}

	/** Adds `value` as one line. */
	add(value: unknown): void {
		const json = JSON.stringify(value);
		this.#texts.push(json);
		this.#units += json.length + 1;
	}

	/** The lines added so far, encoded; the batch is empty afterwards. */
	take(): EncodedOutput {
		const texts = this.#texts;
		// Three bytes a UTF-16 unit at most: room for every line of a usual batch as it is; a huge
		// batch (one 50 MB entry) starts smaller and grows by what its lines really take.
		let buffer: Buffer = Buffer.allocUnsafe(Math.min(3 * this.#units, FIRST_BATCH_BYTES));
		this.#texts = [];
		this.#units = 0;
		let length = 0;
		for (const json of texts) {
			buffer = withRoom(buffer, length, roomFor(json));
			const start = length;
			length += buffer.write(json, length, 'utf8');
			if (length - start !== json.length) {
				const safe = terminalSafeJson(json);
				if (safe !== json) {
					buffer = withRoom(buffer, start, roomFor(safe));
					length = start + buffer.write(safe, start, 'utf8');
				}
			}

			buffer[length++] = 0x0a;
		}

		if (buffer.subarray(0, length).includes(DEL)) {
			return encodeOutput(texts.flatMap(json => [terminalSafeJson(json) as TerminalOutput, lineEnd]));
		}

		return buffer.subarray(0, length) as Uint8Array as EncodedOutput;
	}
}

/**
Rendered output encoded as it is added, for one write (`replay --print`): a part's string — a rope of
its rows' span texts — dies as soon as it is encoded, instead of living (and being copied by the
young generation's collections) until the batch is written.
*/
export class OutputBatch {
	#buffer: Buffer = Buffer.allocUnsafe(0);
	#length = 0;

	/** Bytes held. */
	get bytes(): number {
		return this.#length;
	}

	/** Adds `part`, encoded. */
	add(part: TerminalOutput): void {
		if (this.#length === 0 && this.#buffer.length === 0) {
			this.#buffer = Buffer.allocUnsafe(FIRST_OUTPUT_BATCH_BYTES);
		}

		this.#buffer = withRoom(this.#buffer, this.#length, utf8Room(part));
		this.#length += this.#buffer.write(part, this.#length, 'utf8');
	}

	/** The parts added so far, as bytes; the batch is empty afterwards. */
	take(): EncodedOutput {
		const taken = this.#buffer.subarray(0, this.#length) as Uint8Array as EncodedOutput;
		this.#buffer = Buffer.allocUnsafe(0);
		this.#length = 0;
		return taken;
	}
}

/** What an output batch starts with: a little more than the MiB a replay writes at a time. */
const FIRST_OUTPUT_BATCH_BYTES = (1 << 20) + (1 << 18);

/** Bytes that surely hold `json` and its newline. */
function roomFor(json: string): number {
	return utf8Room(json) + 1;
}

/** Bytes that surely hold `text` in UTF-8: three a unit, or counted for a long text (a bound of 3× would over-allocate MBs). */
function utf8Room(text: string): number {
	return text.length > 1 << 16 ? Buffer.byteLength(text, 'utf8') : 3 * text.length;
}

/** `buffer`, or a larger copy of its first `used` bytes, with at least `room` bytes after them. */
function withRoom(buffer: Buffer, used: number, room: number): Buffer {
	if (buffer.length - used >= room) {
		return buffer;
	}

	const larger = Buffer.allocUnsafe(Math.max(2 * buffer.length, used + room));
	buffer.copy(larger, 0, 0, used);
	return larger;
}

/** Text shown as text: no control character but newline and tab. */
export function textOutput(text: string): TerminalOutput {
	return sanitizeText(text) as TerminalOutput;
}

/** The part of a stream the sink uses. */
export type TerminalStream = {
	write(chunk: string | Uint8Array): boolean;
	once(event: 'drain', listener: () => void): unknown;
};

/** The reader of an output went away (EPIPE: `| head` has read enough); the command ends quietly. */
export class OutputClosedError extends Error {
	constructor() {
		super('the reader of the output closed it');
		this.name = 'OutputClosedError';
	}
}

/** Streams whose reader went away: writing to them throws `OutputClosedError`. */
const readerGone = new WeakSet<object>();
/** Writers waiting for a drain that will never come once the reader is gone. */
const waiting = new WeakMap<object, Set<() => void>>();

/**
Watch `stream` for its reader going away: an EPIPE marks it closed (later writes throw
`OutputClosedError`, a write waiting for a drain is released) instead of crashing the process on an
unhandled error. Other write errors are not this listener's business: another listener (the
termination handling's, for EIO of a closed terminal) takes them, and without one they surface as
before.
*/
export function watchForClosedReader(stream: NodeJS.WritableStream = process.stdout): void {
	const listener = (error: NodeJS.ErrnoException): void => {
		if (error.code !== 'EPIPE') {
			if (stream.listeners('error').every(other => other === listener)) {
				throw error;
			}

			return;
		}

		readerGone.add(stream);
		for (const release of waiting.get(stream) ?? []) {
			release();
		}
	};

	stream.on('error', listener);
}

/** Write output cardterm composed; resolves once the stream takes more (back-pressure). */
export async function writeOutput(stream: TerminalStream, output: TerminalOutput | EncodedOutput): Promise<void> {
	if (readerGone.has(stream)) {
		throw new OutputClosedError();
	}

	if (!stream.write(output)) {
		await new Promise<void>(resolve => {
			const releases = waiting.get(stream) ?? new Set<() => void>();
			waiting.set(stream, releases);
			const done = (): void => {
				releases.delete(done);
				resolve();
			};

			releases.add(done);
			stream.once('drain', done);
		});
		if (readerGone.has(stream)) {
			throw new OutputClosedError();
		}
	}
}

/** Show `text` as text on `stream`. */
export async function writeText(stream: TerminalStream, text: string): Promise<void> {
	await writeOutput(stream, textOutput(text));
}

/**
Listens to write errors of the process's stdout and stderr (EIO once the terminal is gone); returns
the function that stops listening. Here, beside the writers, so nothing else handles those streams.
*/
export function onOutputError(listener: (error: NodeJS.ErrnoException) => void): () => void {
	const streams = [process.stdout, process.stderr];
	for (const stream of streams) {
		stream.on('error', listener);
	}

	return () => {
		for (const stream of streams) {
			stream.off('error', listener);
		}
	};
}
