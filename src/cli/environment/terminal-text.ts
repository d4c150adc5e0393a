/**
@module Text for a terminal (help, messages on stderr): a line wider than the terminal is wrapped by
cardterm between words, its continuation rows indented under its own indent and two more
(spans.ts `fitRow`), so the terminal never breaks a word; to a pipe the text is left as it is. A
line holding a word too long for a row (a path) is left to the terminal: cut by cardterm, the path
would hold a newline when copied, where the terminal's own wrap copies whole.
*/
import {fitRow, lineText} from '../../layout/text/spans.js';
import {displayWidth} from '../../layout/text/text-width.js';
import type {CliIo} from './cli-io.js';

/** `text` fitted to a terminal `columns` wide; unchanged when `columns` is undefined (not a terminal). */
export function fitText(text: string, columns: number | undefined): string {
	if (columns === undefined || columns <= 0) {
		return text;
	}

	return text.split('\n').map(line => (displayWidth(line) <= columns || !wordsFit(line, columns) ? line : fitRow({spans: [{text: line}]}, columns).map(row => lineText(row).trimEnd()).join('\n'))).join('\n');
}

/** Whether every word of `line` fits a continuation row (`fitRow` indents those by the line's indent and two). */
function wordsFit(line: string, columns: number): boolean {
	const room = columns - (line.length - line.trimStart().length) - 2;
	return line.split(' ').every(word => displayWidth(word) <= room);
}

/** A command's `--help`, fitted to stdout when it is a terminal. */
export async function printHelp(io: CliIo, help: string): Promise<void> {
	await io.print(`${fitText(help, io.isTTY ? io.columns : undefined)}\n`);
}
