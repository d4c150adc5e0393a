/**
@module Folding of message-like entries (the person's and the model's text, notice detail): a
bounded entry shows its first rows and one `… N more lines` row; `summary` shows the first row.
Lines are counted, not rows: the marker says how many of the text's own lines are hidden.
*/
import type {Expansion} from './layout-options.js';
import {formatCount} from './format.js';
import {span, truncateSpans} from './spans.js';
import type {StyledLine} from './styled-line.js';
import type {Theme} from './theme.js';

/** Rows a `bounded` message shows before its marker. */
export const MESSAGE_ROW_BUDGET = 24;

/**
`rows` cut to `expansion`. `lineStarts` are the indices of the rows that begin a logical line (the
rest are wraps of it), so the marker counts hidden lines.
*/
export function foldEntryRows(rows: readonly StyledLine[], lineStarts: readonly number[], expansion: Expansion, theme: Theme, width: number): StyledLine[] {
	const keep = expansion === 'full' ? rows.length : (expansion === 'summary' ? 1 : MESSAGE_ROW_BUDGET);
	if (rows.length <= keep || (expansion === 'bounded' && rows.length <= keep + 1)) {
		return rows.slice();
	}

	const shown = expansion === 'summary' ? 1 : keep - 1;
	const kept = rows.slice(0, shown);
	// Lines whose first row is hidden; a line cut in the middle counts as shown.
	const hiddenLines = lineStarts.filter(start => start >= shown).length;
	const marker = hiddenLines > 0 ? `… ${formatCount(hiddenLines)} more ${hiddenLines === 1 ? 'line' : 'lines'}` : '…';
	kept.push({spans: truncateSpans([span(marker, theme.muted)], width)});
	return kept;
}

/**
The last rows of a message that is still growing, under one `… N earlier lines` row: a bounded view
of a streaming answer follows its end, where the new text arrives.
*/
export function foldEntryTail(rows: readonly StyledLine[], lineStarts: readonly number[], theme: Theme, width: number): StyledLine[] {
	if (rows.length <= MESSAGE_ROW_BUDGET) {
		return rows.slice();
	}

	const first = rows.length - (MESSAGE_ROW_BUDGET - 1);
	let startsAbove = 0;
	for (const start of lineStarts) {
		if (start < first) {
			startsAbove++;
		}
	}

	// A line cut by the top of the view counts as shown.
	const hidden = lineStarts.includes(first) ? startsAbove : startsAbove - 1;
	const marker = hidden > 0 ? `… ${formatCount(hidden)} earlier ${hidden === 1 ? 'line' : 'lines'}` : '…';
	return [{spans: truncateSpans([span(marker, theme.muted)], width)}, ...rows.slice(first)];
}
