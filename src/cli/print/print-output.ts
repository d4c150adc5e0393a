/**
@module What `replay --print` writes for each entry: its rendered rows, and under a subagent card
whose child session lies beside the log, that session's transcript (a promise while it is read).
Loaded only for printing (`replay --json` needs none of the row layout).
*/
import {layoutEntry} from '../../layout/entries/layout-entry.js';
import type {StyledLine} from '../../layout/text/styled-line.js';
import type {TerminalOutput} from '../../layout/terminal/terminal-sink.js';
import type {TranscriptEntry} from '../../presentation/entry.js';
import type {PresenterLookup} from '../../presentation/presenters.js';
import {isSubagentCard} from '../../session/store/child-sessions.js';
import type {SessionHeader} from '../../session/events/events.js';
import {childRowsOf, inlineChildren} from './child-transcript.js';
import {entryLayoutOptions, entryOutput, renderEntryRows, type EntryOutputOptions} from './entry-output.js';

/** The children of a saved log (`logPath`), read with `presenters`; none for a stream. */
export type PrintChildren = {readonly logPath: string; readonly header: SessionHeader; readonly presenters: (header: SessionHeader) => PresenterLookup} | undefined;

/** The print-mode output of an entry. */
export async function printOutput(options: EntryOutputOptions, children: PrintChildren): Promise<(entry: TranscriptEntry) => TerminalOutput | Promise<TerminalOutput>> {
	const output = entryOutput(options);
	if (children === undefined) {
		return output;
	}

	const layoutOptions = entryLayoutOptions(options);
	const render = (rows: readonly StyledLine[]): TerminalOutput => renderEntryRows(rows, options);
	const inline = await inlineChildren(children.logPath, children.header, children.presenters);
	return entry => {
		if (entry.entry !== 'card' || !isSubagentCard(entry.card)) {
			return output(entry);
		}

		const rows = layoutEntry(entry, layoutOptions);
		return childRowsOf(entry.card, layoutOptions, inline).then(extra => render(extra.length === 0 ? rows : [...rows, ...extra]));
	};
}
