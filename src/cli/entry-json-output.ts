/**
@module The `--json` line of a transcript entry. Apart from `entry-output.ts` so `replay --json`
loads none of the row layout (Markdown, diffs, highlighting) it never draws.
*/
import {cardOutputHidesText} from '../layout/terminal-card.js';
import {jsonLine, jsonOutput, type TerminalOutput} from '../layout/terminal-sink.js';
import {entryToJson} from '../presentation/entry-json.js';
import type {TranscriptEntry} from '../presentation/entry.js';

/** One JSON object per entry, safe on a terminal. */
export function entryJsonLine(entry: TranscriptEntry): TerminalOutput {
	return jsonLine(entryToJson(entry, {outputHidesText: cardOutputHidesText}));
}

/** `entryJsonLine` without its newline, for a writer that adds `lineEnd` as a part of its own. */
export function entryJson(entry: TranscriptEntry): TerminalOutput {
	return jsonOutput(entryToJson(entry, {outputHidesText: cardOutputHidesText}));
}
