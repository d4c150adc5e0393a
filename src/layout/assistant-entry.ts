/**
@module What the model answered: its reasoning first, dim and folded to one `∴ reasoning · N lines`
row unless the entry is fully expanded, then its text; an interrupted answer ends with a muted
`(interrupted)` row.
*/
import type {AssistantEntry} from '../presentation/entry.js';
import {readableText} from './body-text.js';
import {foldEntryRows} from './entry-rows.js';
import {formatCount} from './format.js';
import type {LayoutOptions} from './layout-options.js';
import {markdownRows} from './markdown-rows.js';
import {sanitizeLines} from './sanitize.js';
import {span, truncateSpans, wrapSpans} from './spans.js';
import type {StyledLine} from './styled-line.js';

export function layoutAssistantEntry(entry: AssistantEntry, options: LayoutOptions): StyledLine[] {
	const {theme, width} = options;
	const expansion = options.expansion ?? 'bounded';
	const rows: StyledLine[] = [];
	const reasoning = readableText(entry.reasoning);
	if (reasoning !== '') {
		const lines = sanitizeLines(reasoning);
		if (expansion === 'full') {
			for (const line of lines) {
				for (const row of wrapSpans(line === '' ? [] : [span(line, theme.reasoning)], width)) {
					rows.push(row);
				}
			}
		} else {
			const count = lines.length === 1 ? '' : ` · ${formatCount(lines.length)} lines`;
			rows.push({spans: truncateSpans([span(`∴ ${lines[0]}`, theme.reasoning), span(count, theme.muted)], width)});
		}
	}

	const text = markdownRows(entry.text, {width, theme});
	for (const row of foldEntryRows(text.rows, text.lineStarts, expansion === 'summary' ? 'summary' : (expansion === 'full' ? 'full' : 'bounded'), theme, width)) {
		rows.push(row);
	}

	if (entry.interrupted) {
		rows.push({spans: [span('(interrupted)', theme.muted)]});
	}

	return rows;
}
