/**
@module A GFM table fitted to a width. Columns keep their natural width when the table fits; else the
room is shared out (narrow columns keep theirs, wide ones share the rest equally) and cells wrap
inside their column. When not even `MIN_COLUMN_WIDTH` a column fits, each row is shown as one
`header: value` line per cell instead, rows separated by a blank line.
*/
import type {Tokens} from 'marked';
import {inlineLines} from './markdown-inline.js';
import {maxOf, pushAll} from '../text/push-all.js';
import {span, spansWidth, wrapProseSpans} from '../text/spans.js';
import type {Span, Style} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';

/** Narrowest column drawn; below it the table falls back to `header: value` lines. */
export const MIN_COLUMN_WIDTH = 4;

const SEPARATOR = ' │ ';

type Align = 'left' | 'right' | 'center' | null;

/** A cell's inline content on one line (hard breaks become spaces). */
function cellSpans(cell: Tokens.TableCell, style: Style, theme: Theme): Span[] {
	const out: Span[] = [];
	for (const [index, line] of inlineLines(cell.tokens, style, theme).entries()) {
		if (index > 0) {
			out.push(span(' ', style));
		}

		pushAll(out, line);
	}

	return out;
}

/** Column widths within `room`: natural when they fit, else water-filled. */
function columnWidths(natural: readonly number[], room: number): number[] {
	const total = natural.reduce((sum, width) => sum + width, 0);
	if (total <= room) {
		return [...natural];
	}

	const widths = [...natural];
	const order = natural.map((_, index) => index).sort((a, b) => natural[a]! - natural[b]!);
	let remaining = room;
	for (const [position, column] of order.entries()) {
		const share = Math.floor(remaining / (order.length - position));
		widths[column] = Math.min(natural[column]!, share);
		remaining -= widths[column]!;
	}

	return widths;
}

function pad(spans: readonly Span[], width: number, align: Align, last: boolean): Span[] {
	const gap = width - spansWidth(spans);
	if (gap <= 0) {
		return [...spans];
	}

	if (align === 'right') {
		return [span(' '.repeat(gap)), ...spans];
	}

	if (align === 'center') {
		const left = Math.floor(gap / 2);
		return [span(' '.repeat(left)), ...spans, ...(last ? [] : [span(' '.repeat(gap - left))])];
	}

	return last ? [...spans] : [...spans, span(' '.repeat(gap))];
}

/**
A cell's rows wrapped between words, without the space each row broke at: the rows of a table are
hard rows (not copied as one line), and the space would push a centred or right-aligned row off its place.
*/
function cellRows(cell: readonly Span[], width: number): Span[][] {
	const rows = wrapProseSpans(cell, width).map(row => [...row.spans]);
	for (const row of rows.slice(0, -1)) {
		const last = row.at(-1);
		if (last !== undefined && last.text.endsWith(' ')) {
			row[row.length - 1] = span(last.text.replace(/ +$/, ''), last.style, last.link);
		}
	}

	return rows;
}

/** One table row as physical lines: every cell wrapped in its column, then side by side. */
function rowLines(cells: ReadonlyArray<readonly Span[]>, widths: readonly number[], aligns: readonly Align[], theme: Theme): Span[][] {
	const wrapped = cells.map((cell, index) => cellRows(cell, Math.max(1, widths[index]!)));
	const height = maxOf(wrapped.map(rows => rows.length), 1);
	const lines: Span[][] = [];
	for (let row = 0; row < height; row++) {
		const line: Span[] = [];
		for (const [index, rows] of wrapped.entries()) {
			if (index > 0) {
				line.push(span(SEPARATOR, theme.muted));
			}

			pushAll(line, pad(rows[row] ?? [], widths[index]!, aligns[index] ?? null, index === wrapped.length - 1));
		}

		lines.push(line.filter(item => item.text !== ''));
	}

	return lines;
}

/** A table as logical lines no wider than `width` (hard rows: a table row is not a paragraph). */
export function tableLines(token: Tokens.Table, width: number, style: Style, theme: Theme): Span[][] {
	const headerStyle = {...style, bold: true};
	const header = token.header.map(cell => cellSpans(cell, headerStyle, theme));
	const rows = token.rows.map(row => header.map((_, index) => (row[index] === undefined ? [] : cellSpans(row[index]!, style, theme))));
	const columns = header.length;
	const room = width - SEPARATOR.length * (columns - 1);
	if (columns === 0) {
		return [];
	}

	if (room < columns * MIN_COLUMN_WIDTH) {
		return recordLines(header, rows, theme);
	}

	const natural = header.map((cell, index) => maxOf(rows.map(row => spansWidth(row[index]!)), spansWidth(cell)));
	const widths = columnWidths(natural, room);
	const aligns = token.align as Align[];
	const rule = widths.map(columnWidth => '─'.repeat(columnWidth)).join('─┼─');
	return [
		...rowLines(header, widths, aligns, theme),
		[span(rule, theme.muted)],
		...rows.flatMap(row => rowLines(row, widths, aligns, theme)),
	];
}

/** The narrow fallback: `header: value` per cell, a blank line between rows. */
function recordLines(header: ReadonlyArray<readonly Span[]>, rows: ReadonlyArray<ReadonlyArray<readonly Span[]>>, theme: Theme): Span[][] {
	const lines: Span[][] = [];
	const records = rows.length === 0 ? [header.map(() => [] as Span[])] : rows;
	for (const [index, row] of records.entries()) {
		if (index > 0) {
			lines.push([]);
		}

		for (const [column, cell] of row.entries()) {
			lines.push([...header[column]!, span(': ', theme.muted), ...cell].filter(item => item.text !== ''));
		}
	}

	return lines;
}
