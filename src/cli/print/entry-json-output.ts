/**
@module The `--json` line of a transcript entry. Apart from `entry-output.ts` so `replay --json`
loads none of the row layout (Markdown, diffs, highlighting) it never draws.
*/
import {cardOutputHidesText} from '../../layout/cards/terminal-card.js';
import {jsonLine, type TerminalOutput} from '../../layout/terminal/terminal-sink.js';
import {entryToJson, type EntryJson} from '../../presentation/entry-json.js';
import type {TranscriptEntry} from '../../presentation/entry.js';

/** One JSON object per entry, safe on a terminal. */
export function entryJsonLine(entry: TranscriptEntry): TerminalOutput {
	return jsonLine(entryJsonValue(entry));
}

/** The `--json` object of an entry, for a writer that makes it safe itself (`JsonLines`). */
export function entryJsonValue(entry: TranscriptEntry): EntryJson {
	return entryToJson(entry, {outputHidesText: cardOutputHidesText});
}
