/**
@module Assistant Markdown as rows. For now the text as written (fences hidden, trimmed), wrapped
with soft wraps: readable, copyable, and the one place the Markdown layout plugs in.
*/
import {readableText} from './body-text.js';
import {sanitizeLines} from './sanitize.js';
import {span, wrapSpans} from './spans.js';
import type {StyledLine} from './styled-line.js';
import type {Theme} from './theme.js';

/** Rows, and the indices of rows that begin a source line (for `… N more lines`). */
export function markdownRows(text: string, options: {readonly width: number; readonly theme: Theme}): {readonly rows: StyledLine[]; readonly lineStarts: number[]} {
	const rows: StyledLine[] = [];
	const lineStarts: number[] = [];
	const readable = readableText(text);
	if (readable === '') {
		return {rows, lineStarts};
	}

	for (const line of sanitizeLines(readable)) {
		lineStarts.push(rows.length);
		for (const row of wrapSpans(line === '' ? [] : [span(line, options.theme.title)], options.width)) {
			rows.push(row);
		}
	}

	return {rows, lineStarts};
}
