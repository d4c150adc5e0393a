/**
@module What a printing command writes for an entry, with the options `output-options.ts` read from
its flags: the entry's rows (`replay --print`, `-p`, `acp -p`; a card of `call` and `run` is printed
as its entry) or its JSON object (`--json`, `entry` naming the kind, for cards too). Every command
prints through this, so the same entry prints the same bytes everywhere.
*/
import type {Card} from '../../presentation/card.js';
import {layoutEntry} from '../../layout/entries/layout-entry.js';
import type {LayoutOptions} from '../../layout/text/layout-options.js';
import type {StyledLine} from '../../layout/text/styled-line.js';
import {plainTheme} from '../../layout/text/theme.js';
import {renderLines} from '../../layout/terminal/render-lines.js';
import type {TerminalOutput} from '../../layout/terminal/terminal-sink.js';
import type {TranscriptEntry} from '../../presentation/entry.js';
import {entryJsonLine} from './entry-json-output.js';
import type {OutputOptions} from './output-options.js';

/** The layout options an entry is printed with. */
export function entryLayoutOptions(options: OutputOptions): LayoutOptions {
	// A stream prints each entry once: nothing would read the layout caches again. Without colour no
	// style is written: the plain theme lets layout skip the work that only styles rows.
	return {width: options.width, theme: options.color ? options.theme : plainTheme, now: options.now, sessionCwd: options.sessionCwd, cache: false, ...(options.expansion === undefined ? {} : {expansion: options.expansion})};
}

/** Rows as the stream gets them: a terminal of that width wraps rows itself; `unwrap` joins them back. */
export function renderEntryRows(rows: readonly StyledLine[], options: OutputOptions): TerminalOutput {
	return renderLines(rows, {color: options.color, depth: options.depth, hyperlinks: options.hyperlinks, width: options.isTTY ? options.width : undefined, ...(options.unwrap ? {unwrap: true} : {})});
}

/** A function that turns an entry into what the stream gets. */
export function entryOutput(options: OutputOptions): (entry: TranscriptEntry) => TerminalOutput {
	const layoutOptions = entryLayoutOptions(options);
	return entry => options.json
		? entryJsonLine(entry)
		: renderEntryRows(layoutEntry(entry, layoutOptions), options);
}

/** One card (`call`, `run`) as the stream gets it: printed as its transcript entry. */
export function cardOutput(card: Card, options: OutputOptions): TerminalOutput {
	return entryOutput(options)({entry: 'card', card});
}
