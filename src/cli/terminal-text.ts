/**
@module Text for a terminal (help, messages on stderr): a line wider than the terminal is wrapped by
cardterm between words, its continuation rows indented under its own indent and two more
(spans.ts `fitRow`), so the terminal never breaks a word; to a pipe the text is left as it is.
*/
import {fitRow, lineText} from '../layout/spans.js';
import {displayWidth} from '../layout/text-width.js';
import type {CliIo} from './cli-io.js';

/** `text` fitted to a terminal `columns` wide; unchanged when `columns` is undefined (not a terminal). */
export function fitText(text: string, columns: number | undefined): string {
	if (columns === undefined || columns <= 0) {
		return text;
	}

	return text.split('\n').map(line => (displayWidth(line) <= columns ? line : fitRow({spans: [{text: line}]}, columns).map(row => lineText(row).trimEnd()).join('\n'))).join('\n');
}

/** A command's `--help`, fitted to stdout when it is a terminal. */
export async function printHelp(io: CliIo, help: string): Promise<void> {
	await io.print(`${fitText(help, io.isTTY ? io.columns : undefined)}\n`);
}
