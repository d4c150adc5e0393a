/**
@module What the person said: `› ` before the first row, the text in the default tone, wrapped between words with
soft wraps and no indent so a copied paragraph comes out whole.
*/
import type {UserEntry} from '../../presentation/entry.js';
import type {LayoutOptions} from '../text/layout-options.js';
import {foldEntryRows} from './entry-rows.js';
import {sanitizeLines} from '../text/sanitize.js';
import {span, wrapProseSpans} from '../text/spans.js';
import type {StyledLine} from '../text/styled-line.js';

export function layoutUserEntry(entry: UserEntry, options: LayoutOptions): StyledLine[] {
	const {theme, width} = options;
	const rows: StyledLine[] = [];
	const lineStarts: number[] = [];
	const lines = sanitizeLines(entry.text.trim() === '' ? '(empty message)' : entry.text.replace(/^\n+|\n+$/g, ''));
	const marker = entry.source === 'steering' ? '» ' : '› ';
	for (const [index, line] of lines.entries()) {
		lineStarts.push(rows.length);
		const spans = index === 0 ? [span(marker, theme.userMarker), span(line, theme.userText)] : (line === '' ? [] : [span(line, theme.userText)]);
		for (const row of wrapProseSpans(spans, width)) {
			rows.push(row);
		}
	}

	return foldEntryRows(rows, lineStarts, options.expansion ?? 'full', theme, width);
}
