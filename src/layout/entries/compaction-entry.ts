/**
@module A compaction card: a headline with the tokens before → after, a row for what was pruned and
one for what was summarised (with their log seq ranges), then — expanded (`full`) — the summary and
the evidence lists. Collapsed it says `…` when there is more to see.
*/
import {compactionText} from '../../presentation/compaction-text.js';
import type {CompactionEntry} from '../../presentation/entry.js';
import type {LayoutOptions} from '../text/layout-options.js';
import {pushAll} from '../text/push-all.js';
import {sanitizeInline, sanitizeLines} from '../text/sanitize.js';
import {span, wrapHanging} from '../text/spans.js';
import type {StyledLine} from '../text/styled-line.js';

export function layoutCompactionEntry(entry: CompactionEntry, options: LayoutOptions): StyledLine[] {
	const {theme, width} = options;
	const text = compactionText(entry);
	const full = options.expansion === 'full';
	const more = text.detail.length > 0 && !full ? ' …' : '';
	const tone = entry.error === undefined ? theme.notice : theme.error;
	const rows = wrapHanging([span('⊙ ', tone)], [span(`${sanitizeInline(text.headline)}${more}`, tone)], width);
	for (const row of text.rows) {
		pushAll(rows, wrapHanging([span('  ')], [span(sanitizeInline(row), theme.notice)], width));
	}

	if (full) {
		for (const line of text.detail.flatMap(detail => sanitizeLines(detail))) {
			pushAll(rows, line === '' ? [{spans: []}] : wrapHanging([span('  │ ', theme.notice)], [span(line, theme.notice)], width));
		}
	}

	return rows;
}
