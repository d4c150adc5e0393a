/**
@module The one sink: everything cardterm writes to stdout or stderr goes through `writeText` or
`writeOutput` (test/reliability/terminal-writers.test.ts fails on any other writer). Text — messages,
help, listings, copied card text — is sanitized on the way, so whatever argv, a log, a folder name or
a tool put into it is shown escaped. Only `TerminalOutput` is written as is: rows `renderLines` built
from sanitized spans, JSON with every unsafe character escaped, and the control sequences cardterm
composes itself (`controlSequence`).

It sits in layout, next to the sanitizer and `renderLines`, so the CLI and the components reach it.
*/
import {sanitizeText, stringifyForTerminal} from './sanitize.js';

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

/** A value as one line of JSON that is safe on a terminal (`--json`). */
export function jsonLine(value: unknown): TerminalOutput {
	return `${stringifyForTerminal(value)}\n` as TerminalOutput;
}

/** Text shown as text: no control character but newline and tab. */
export function textOutput(text: string): TerminalOutput {
	return sanitizeText(text) as TerminalOutput;
}

/** The part of a stream the sink uses. */
export type TerminalStream = {
	write(chunk: string): boolean;
	once(event: 'drain', listener: () => void): unknown;
};

/** Write output cardterm composed; resolves once the stream takes more (back-pressure). */
export async function writeOutput(stream: TerminalStream, output: TerminalOutput): Promise<void> {
	if (!stream.write(output)) {
		await new Promise<void>(resolve => {
			stream.once('drain', resolve);
		});
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
