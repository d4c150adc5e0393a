/**
@module What the person said: `› ` before the first row, the text in the default tone, wrapped between words with
soft wraps and no indent so a copied paragraph comes out whole; then a muted row for each attached image
(`image · PNG · 312.0 KB · 1280×800 · shot.png`).
*/
import type {UserEntry} from '../../presentation/entry.js';
import type {LayoutOptions} from '../text/layout-options.js';
import {foldEntryRows} from './entry-rows.js';
import {imageRowText} from '../../presentation/image-row.js';
import {sanitizeInline, sanitizeLines} from '../text/sanitize.js';
import {span, wrapProseSpans} from '../text/spans.js';
import type {StyledLine} from '../text/styled-line.js';

export function layoutUserEntry(entry: UserEntry, options: LayoutOptions): StyledLine[] {
	const {theme, width} = options;
	const rows: StyledLine[] = [];
	const lineStarts: number[] = [];
	const images = entry.images ?? [];
	const said = entry.text.trim() !== '';
	const lines = said ? sanitizeLines(entry.text.replace(/^\n+|\n+$/g, '')) : (images.length === 0 ? ['(empty message)'] : []);
	const marker = entry.source === 'steering' ? '» ' : '› ';
	for (const [index, line] of lines.entries()) {
		lineStarts.push(rows.length);
		const spans = index === 0 ? [span(marker, theme.userMarker), span(line, theme.userText)] : (line === '' ? [] : [span(line, theme.userText)]);
		for (const row of wrapProseSpans(spans, width)) {
			rows.push(row);
		}
	}

	// An attached image: a row of its own under the words (the first row when there are none), like a card's header.
	for (const [index, image] of images.entries()) {
		lineStarts.push(rows.length);
		const lead = index === 0 && lines.length === 0 ? span(marker, theme.userMarker) : span('  ');
		for (const row of wrapProseSpans([lead, span(sanitizeInline(imageRowText(image)), theme.muted)], width)) {
			rows.push(row);
		}
	}

	return foldEntryRows(rows, lineStarts, options.expansion ?? 'full', theme, width);
}
