/**
@module A notice: one muted row `· source: summary`, cut to the width; expanded (`full`), its
detail follows in the same tone.
*/
import type {NoticeEntry} from '../../presentation/entry.js';
import type {LayoutOptions} from '../text/layout-options.js';
import {sanitizeInline, sanitizeLines} from '../text/sanitize.js';
import {span, truncateSpans, wrapProseSpans} from '../text/spans.js';
import type {StyledLine} from '../text/styled-line.js';

export function layoutNoticeEntry(entry: NoticeEntry, options: LayoutOptions): StyledLine[] {
	const {theme, width} = options;
	const more = entry.detail === undefined ? '' : (options.expansion === 'full' ? '' : ' …');
	const rows: StyledLine[] = [{spans: truncateSpans([span(`· ${sanitizeInline(entry.source)}: ${sanitizeInline(entry.summary)}${more}`, theme.notice)], width)}];
	if (entry.detail !== undefined && options.expansion === 'full') {
		// The detail goes on from the summary, which is its first line.
		const detail = entry.detail.startsWith(entry.summary) ? entry.detail.slice(entry.summary.length).replace(/^\n+/, '') : entry.detail;
		for (const line of sanitizeLines(detail)) {
			for (const row of wrapProseSpans(line === '' ? [] : [span(line, theme.notice)], width)) {
				rows.push(row);
			}
		}
	}

	return rows;
}
