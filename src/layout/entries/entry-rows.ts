/**
@module Folding of message-like entries: a bounded message (the person's, when the pager asks for
it) shows its first rows and one `… N more lines` row; `summary` shows the first row; a streaming
answer's bounded view shows its last rows. A settled answer is never folded but to its summary
(assistant-entry.ts). Lines are counted, not rows: the marker says how many of the text's own lines
are hidden.
*/
import type {Expansion} from '../text/layout-options.js';
import {formatCount} from '../text/format.js';
import {span, truncateSpans} from '../text/spans.js';
import type {StyledLine} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';

/** Rows a `bounded` message shows before its marker. */
export const MESSAGE_ROW_BUDGET = 24;

/**
`rows` cut to `expansion`. `lineStarts` are the indices of the rows that begin a logical line (the
rest are wraps of it), so the marker counts hidden lines.
*/
export function foldEntryRows(rows: readonly StyledLine[], lineStarts: readonly number[], expansion: Expansion, theme: Theme, width: number): StyledLine[] {
	return foldRows(rows, rows.length, shown => lineStarts.filter(start => start >= shown).length, expansion, theme, width);
}

/**
The first rows of a message's layout and what a fold needs to know of the rest, so a long message
is folded without wrapping the rows it hides: `rows` are its first rows (all of them, or at least
`headRows(expansion)`), `more` says whether rows follow them, `lines` counts its logical lines.
*/
export type RowsHead = {readonly rows: readonly StyledLine[]; readonly more: boolean; readonly lines: number};

/** How many first rows `foldEntryHead` needs at `expansion`: all it may show, and whether one more follows decides the marker. */
export function headRows(expansion: Exclude<Expansion, 'full'>): number {
	return expansion === 'summary' ? 1 : MESSAGE_ROW_BUDGET + 1;
}

/** A message's head (`RowsHead`, at least `headRows(expansion)` rows) cut to `expansion`, as `foldEntryRows` cuts all its rows. */
export function foldEntryHead(head: RowsHead, expansion: Exclude<Expansion, 'full'>, theme: Theme, width: number): StyledLine[] {
	const hidden = (shown: number) => {
		let startsShown = 0;
		for (let index = 0; index < shown; index++) {
			startsShown += head.rows[index]!.softWrap === true ? 0 : 1;
		}

		return head.lines - startsShown;
	};

	return foldRows(head.rows, head.more ? head.rows.length + 1 : head.rows.length, hidden, expansion, theme, width);
}

/**
The one folding rule: `rows` (the first rows of `count`, as many as the fold may show) cut to
`expansion`; `hiddenLines(shown)` counts the logical lines whose first row is past the `shown` first rows.
*/
function foldRows(rows: readonly StyledLine[], count: number, hiddenLines: (shown: number) => number, expansion: Expansion, theme: Theme, width: number): StyledLine[] {
	const keep = expansion === 'full' ? count : (expansion === 'summary' ? 1 : MESSAGE_ROW_BUDGET);
	if (count <= keep || (expansion === 'bounded' && count <= keep + 1)) {
		return rows.slice();
	}

	const shown = expansion === 'summary' ? 1 : keep - 1;
	const kept = rows.slice(0, shown);
	// Lines whose first row is hidden; a line cut in the middle counts as shown.
	const hidden = hiddenLines(shown);
	const marker = hidden > 0 ? `… ${formatCount(hidden)} more ${hidden === 1 ? 'line' : 'lines'}` : '…';
	kept.push({spans: truncateSpans([span(marker, theme.muted)], width)});
	return kept;
}

/** The last rows of a message and what is above them. */
export type MessageTail = {
	/** The last rows, at most the count asked for. */
	readonly rows: readonly StyledLine[];
	/** Whether the message has rows above them. */
	readonly more: boolean;
	/** Lines that begin above `rows` (when `rows` begins inside a line, that line too). */
	readonly startsAbove: number;
};

/**
The last `count` of `rows`, the end of a text laid out from a point where `startsAbove` lines began
(`above`: the text has rows above that point).
*/
export function lastRows(rows: readonly StyledLine[], count: number, startsAbove: number, above = startsAbove > 0): MessageTail {
	const first = Math.max(0, rows.length - count);
	let starts = startsAbove;
	for (let index = 0; index < first; index++) {
		starts += rows[index]!.softWrap === true ? 0 : 1;
	}

	return {rows: first === 0 ? rows : rows.slice(first), more: above || first > 0, startsAbove: starts};
}

/**
The end of a message that is still growing, in `count` rows: its last rows under one `… N earlier
lines` row when any are hidden — a bounded view of a streaming answer follows its end, where the
new text arrives.
*/
export function foldEntryTail(tail: MessageTail, count: number, theme: Theme, width: number): StyledLine[] {
	if (!tail.more && tail.rows.length <= count) {
		return [...tail.rows];
	}

	const {rows, startsAbove} = lastRows(tail.rows, count - 1, tail.startsAbove, true);
	// A line cut by the top of the view counts as shown.
	const hiddenLines = startsAbove - (rows[0]?.softWrap === true ? 1 : 0);
	const marker = hiddenLines > 0 ? `… ${formatCount(hiddenLines)} earlier ${hiddenLines === 1 ? 'line' : 'lines'}` : '…';
	return [{spans: truncateSpans([span(marker, theme.muted)], width)}, ...rows];
}
