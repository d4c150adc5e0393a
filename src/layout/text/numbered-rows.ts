/**
@module A line with a number gutter (a read card's file lines, a diff's line numbers and `-`/`+`
markers) as rows: the gutter, then the text wrapped beside it, continuation rows indented under the
text so a wrapped line never reads as a new line number. The indent is a hang (styled-line.ts), so a
pipe joins the rows back into the line without it. Too narrow for the gutter: no indent.
*/
import {span, wrapSpans} from './spans.js';
import type {Span, StyledLine} from './styled-line.js';

/** Rows of `body` beside `gutter` (spans `gutterWidth` columns wide) at `width`. */
export function numberedRows(gutter: readonly Span[], body: readonly Span[], gutterWidth: number, width: number): StyledLine[] {
	if (width <= gutterWidth * 2) {
		return wrapSpans([...gutter, ...body], width);
	}

	const rows = wrapSpans(body, width - gutterWidth);
	const indent = span(' '.repeat(gutterWidth));
	return rows.map((row, index) => (index === 0 ? {spans: [...gutter, ...row.spans]} : {spans: [indent, ...row.spans], softWrap: true, hang: gutterWidth}));
}
