/**
@module What the model answered: its reasoning first, dim and folded to one `∴ reasoning · N lines`
row unless the entry is fully expanded, then its text; an interrupted answer ends with a muted
`(interrupted)` row. While it streams, the text is laid out incrementally (`streaming-markdown.ts`),
a bounded view shows its end, and each tool call being prepared is one `◌ preparing <tool>…` row.
*/
import type {AssistantEntry} from '../presentation/entry.js';
import {readableText} from './body-text.js';
import {foldEntryRows, foldEntryTail} from './entry-rows.js';
import {formatCount} from './format.js';
import type {LayoutOptions} from './layout-options.js';
import {markdownRows} from './markdown-rows.js';
import {sanitizeInline, sanitizeLines} from './sanitize.js';
import {streamingMarkdownRows} from './streaming-markdown.js';
import {span, truncateSpans, wrapProseSpans} from './spans.js';
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
				for (const row of wrapProseSpans(line === '' ? [] : [span(line, theme.reasoning)], width)) {
					rows.push(row);
				}
			}
		} else {
			const count = lines.length === 1 ? '' : ` · ${formatCount(lines.length)} lines`;
			rows.push({spans: truncateSpans([span(`∴ ${lines[0]}`, theme.reasoning), span(count, theme.muted)], width)});
		}
	}

	const text = entry.streaming ? streamingMarkdownRows(entry, {width, theme}) : markdownRows(entry.text, {width, theme, ...(options.cache === false ? {cache: false} : {})});
	const folded = entry.streaming && expansion === 'bounded'
		? foldEntryTail(text.rows, text.lineStarts, theme, width)
		: foldEntryRows(text.rows, text.lineStarts, expansion === 'summary' ? 'summary' : (expansion === 'full' ? 'full' : 'bounded'), theme, width);
	for (const row of folded) {
		rows.push(row);
	}

	if (entry.interrupted) {
		rows.push({spans: [span('(interrupted)', theme.muted)]});
	}

	for (const name of entry.preparing) {
		rows.push({spans: truncateSpans([span('◌ ', theme.running), span('preparing ', theme.muted), span(sanitizeInline(name), theme.toolName), span('…', theme.muted)], width)});
	}

	return rows;
}
