/**
@module What a settled entry writes into the terminal's scrollback: its layout at the width of the
moment and a blank row after it, or a notice's rows, or `/clear`'s line feeds. The live app writes
through Ink; a continued session's history is written with the same rule before Ink has loaded
(src/cli/interactive/run-interactive.ts), so this module imports no React and no Ink.
*/
import {layoutEntry} from '../src/layout/entries/layout-entry.js';
import type {ColorDepth} from '../src/layout/terminal/color-depth.js';
import {renderLines} from '../src/layout/terminal/render-lines.js';
import {controlSequence, type TerminalOutput} from '../src/layout/terminal/terminal-sink.js';
import type {Theme} from '../src/layout/text/theme.js';
import type {ScrollbackEntry} from './session-model.js';

export type ScrollbackStyle = {
	readonly theme: Theme;
	readonly color: boolean;
	readonly depth: ColorDepth;
	readonly hyperlinks: boolean;
	readonly sessionCwd: string;
};

/** The terminal when the entry is written. */
export type ScrollbackTerminal = {readonly width: number; readonly rows: number; readonly now: number};

export function scrollbackOutput(entry: ScrollbackEntry, style: ScrollbackStyle, terminal: ScrollbackTerminal): TerminalOutput {
	if (entry.kind === 'clear') {
		// Scroll every row on screen into the scrollback (never ESC[2J/3J: the user's history stays),
		// then home: Ink redraws the frame at the top of the cleared screen.
		return clearScreenOutput(terminal.rows);
	}

	const {width} = terminal;
	const lines = entry.kind === 'entry' ? layoutEntry(entry.entry, {width, theme: style.theme, now: terminal.now, sessionCwd: style.sessionCwd}) : (entry.fit?.(width) ?? entry.lines);
	// A blank row after each entry keeps them apart in the scrollback.
	return renderLines(entry.kind === 'entry' ? [...lines, {spans: []}] : lines, {color: style.color, depth: style.depth, hyperlinks: style.hyperlinks, width});
}

/** What `/clear` writes: enough line feeds to push every row on screen into the scrollback, then home. */
export function clearScreenOutput(rows: number): TerminalOutput {
	return controlSequence(`${'\n'.repeat(Math.max(0, rows - 1))}\u001B[H`);
}
