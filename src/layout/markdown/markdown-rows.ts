/**
@module Assistant Markdown as rows, through the Markdown layout, with the rows that start a line
(not a soft-wrapped continuation) marked so a fold can count hidden lines.
*/
import {layoutMarkdown, type MarkdownLayoutOptions} from './markdown-layout.js';
import type {StyledLine} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';

/** Rows, and the indices of rows that begin a line (for `… N more lines`). */
export function markdownRows(text: string, options: MarkdownLayoutOptions): {readonly rows: readonly StyledLine[]; readonly lineStarts: number[]} {
	const rows = layoutMarkdown(text, options);
	const lineStarts: number[] = [];
	for (const [index, row] of rows.entries()) {
		if (row.softWrap !== true) {
			lineStarts.push(index);
		}
	}

	return {rows, lineStarts};
}
