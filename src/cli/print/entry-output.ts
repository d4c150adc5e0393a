/**
@module How a transcript entry is printed on a stream: rendered rows (`--print`, `-p`) or one JSON
object (`--json`). `replay` and `cardterm -p` print through this, so their output agrees.
*/
import {layoutEntry} from '../../layout/entries/layout-entry.js';
import type {Expansion, LayoutOptions} from '../../layout/text/layout-options.js';
import type {StyledLine} from '../../layout/text/styled-line.js';
import type {ColorDepth} from '../../layout/terminal/color-depth.js';
import {renderLines} from '../../layout/terminal/render-lines.js';
import type {TerminalOutput} from '../../layout/terminal/terminal-sink.js';
import {colorTheme, monochromeTheme} from '../../layout/text/theme.js';
import type {TranscriptEntry} from '../../presentation/entry.js';
import {entryJsonLine} from './entry-json-output.js';

export type EntryOutputOptions = {
	readonly json: boolean;
	readonly width: number;
	readonly color: boolean;
	/** The terminal's colour depth (`colorDepth`); the 16 colours when absent. */
	readonly depth?: ColorDepth;
	readonly hyperlinks: boolean;
	readonly isTTY: boolean;
	/** Join every soft-wrapped row back to its line (a pipe or a file without `--width`: `printRows`). */
	readonly unwrap?: boolean;
	/** The session's workspace (relative paths in cards). */
	readonly sessionCwd: string;
	readonly expansion?: Expansion;
	/** The clock relative times are shown against. */
	readonly now: number;
};

/** The layout options an entry is printed with. */
export function entryLayoutOptions(options: EntryOutputOptions): LayoutOptions {
	// A stream prints each entry once: nothing would read the layout caches again.
	return {width: options.width, theme: options.color ? colorTheme : monochromeTheme, now: options.now, sessionCwd: options.sessionCwd, cache: false, ...(options.expansion === undefined ? {} : {expansion: options.expansion})};
}

/** Rows as the stream gets them (`--print`): a terminal of that width wraps rows itself; `unwrap` joins them back. */
export function renderEntryRows(rows: readonly StyledLine[], options: EntryOutputOptions): TerminalOutput {
	return renderLines(rows, {color: options.color, ...(options.depth === undefined ? {} : {depth: options.depth}), hyperlinks: options.hyperlinks, width: options.isTTY ? options.width : undefined, ...(options.unwrap === true ? {unwrap: true} : {})});
}

/** A function that turns an entry into what the stream gets. */
export function entryOutput(options: EntryOutputOptions): (entry: TranscriptEntry) => TerminalOutput {
	const layoutOptions = entryLayoutOptions(options);
	return entry => options.json
		? entryJsonLine(entry)
		: renderEntryRows(layoutEntry(entry, layoutOptions), options);
}
