/**
@module What the model answered: its reasoning first, dim and folded to one `∴ reasoning · N lines`
row unless the entry is fully expanded, then its text; an interrupted answer ends with a muted
`(interrupted)` row. While it streams, the text is laid out incrementally (`streaming-markdown.ts`),
a bounded view shows its end, and each tool call being prepared is one `◌ preparing <tool>…` row.
*/
import type {AssistantEntry} from '../../presentation/entry.js';
import {readableText} from '../cards/body-text.js';
import {foldEntryHead, foldEntryRows, foldEntryTail, headRows} from './entry-rows.js';
import {formatCount} from '../text/format.js';
import type {Expansion, LayoutOptions} from '../text/layout-options.js';
import {markdownHead} from '../markdown/markdown-layout.js';
import {markdownRows} from '../markdown/markdown-rows.js';
import {sanitizeInline, sanitizeLines} from '../text/sanitize.js';
import {streamingMarkdownRows} from '../markdown/streaming-markdown.js';
import {span, truncateSpans, wrapProseSpans} from '../text/spans.js';
import type {StyledLine} from '../text/styled-line.js';

/** The answer's text folded to `expansion`; a settled answer that is folded is laid out only as far as its fold shows. */
function answerRows(entry: AssistantEntry, expansion: Expansion, options: LayoutOptions): StyledLine[] {
	const {theme, width} = options;
	const markdownOptions = {width, theme, ...(options.cache === false ? {cache: false} : {})};
	if (!entry.streaming && expansion !== 'full') {
		return foldEntryHead(markdownHead(entry.text, markdownOptions, headRows(expansion)), expansion, theme, width);
	}

	const text = entry.streaming ? streamingMarkdownRows(entry, {width, theme}) : markdownRows(entry.text, markdownOptions);
	return entry.streaming && expansion === 'bounded'
		? foldEntryTail(text.rows, text.lineStarts, theme, width)
		: foldEntryRows(text.rows, text.lineStarts, expansion, theme, width);
}

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

	for (const row of answerRows(entry, expansion, options)) {
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
