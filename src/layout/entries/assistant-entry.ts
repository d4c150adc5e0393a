/**
@module What the model answered: its reasoning first, dim and folded to one `∴ reasoning · N lines`
row unless the entry is fully expanded, then its text, whole: the answer is what the person asked
for, so only a `summary` folds it (to its first row); tool output folds, the answer never does. An
interrupted answer ends with a muted `(interrupted)` row. While it streams, the text is laid out
incrementally (`streaming-markdown.ts`), a bounded view and the live region (`liveRows`) show its
end (where the new text arrives), laid out from the end, and each tool call being prepared is one
`◌ preparing <tool>…` row.
*/
import type {AssistantEntry} from '../../presentation/entry.js';
import {readableText} from '../cards/body-text.js';
import {foldEntryHead, foldEntryRows, foldEntryTail, headRows, MESSAGE_ROW_BUDGET, type MessageTail} from './entry-rows.js';
import {formatCount} from '../text/format.js';
import type {Expansion, LayoutOptions} from '../text/layout-options.js';
import {markdownHead} from '../markdown/markdown-layout.js';
import {markdownRows} from '../markdown/markdown-rows.js';
import {sanitizeInline, sanitizeLines} from '../text/sanitize.js';
import {pushAll} from '../text/push-all.js';
import {streamingMarkdownRows, streamingMarkdownTail, streamingReasoningTail} from '../markdown/streaming-markdown.js';
import {span, truncateSpans, wrapProseSpans} from '../text/spans.js';
import type {StyledLine} from '../text/styled-line.js';

/** The answer's text at `expansion`: whole, but for a summary (laid out only as far as its one row) and a streaming answer's bounded tail. */
function answerRows(entry: AssistantEntry, expansion: Expansion, options: LayoutOptions): readonly StyledLine[] {
	const {theme, width} = options;
	const markdownOptions = {width, theme, ...(options.cache === false ? {cache: false} : {})};
	if (!entry.streaming && expansion === 'summary') {
		return foldEntryHead(markdownHead(entry.text, markdownOptions, headRows(expansion)), expansion, theme, width);
	}

	if (entry.streaming && expansion === 'bounded') {
		// A bounded view of a growing answer follows its end, where the new text arrives.
		return foldEntryTail(streamingMarkdownTail(entry, {width, theme}, MESSAGE_ROW_BUDGET), MESSAGE_ROW_BUDGET, theme, width);
	}

	const text = entry.streaming ? streamingMarkdownRows(entry, {width, theme}) : markdownRows(entry.text, markdownOptions);
	return expansion === 'summary' ? foldEntryRows(text.rows, text.lineStarts, expansion, theme, width) : text.rows;
}

/**
A streaming entry in the live region: its last `count` rows (reasoning as a full view shows it,
the answer, the calls being prepared), laid out from the end, the first of them `… N earlier
lines` when any are hidden.
*/
function liveTail(entry: AssistantEntry, count: number, options: LayoutOptions): StyledLine[] {
	const {theme, width} = options;
	const preparing = preparingRows(entry, options).slice(-count);
	const room = count - preparing.length;
	const none: MessageTail = {rows: [], more: false, startsAbove: 0};
	const answer = entry.text === '' ? none : streamingMarkdownTail(entry, {width, theme}, room);
	// The reasoning fills what the answer leaves; when the answer fills the view, all of it is above.
	const reasoning = entry.reasoning.trim() === '' ? none : streamingReasoningTail(entry, {width, theme}, answer.more ? 0 : room - answer.rows.length);
	return foldEntryTail({rows: [...reasoning.rows, ...answer.rows, ...preparing], more: answer.more || reasoning.more, startsAbove: answer.startsAbove + reasoning.startsAbove}, count, theme, width);
}

/** One `◌ preparing <tool>…` row per tool call being prepared. */
function preparingRows(entry: AssistantEntry, options: LayoutOptions): StyledLine[] {
	const {theme, width} = options;
	return entry.preparing.map(name => ({spans: truncateSpans([span('◌ ', theme.running), span('preparing ', theme.muted), span(sanitizeInline(name), theme.toolName), span('…', theme.muted)], width)}));
}

export function layoutAssistantEntry(entry: AssistantEntry, options: LayoutOptions): StyledLine[] {
	const {theme, width} = options;
	if (entry.streaming && options.liveRows !== undefined) {
		return liveTail(entry, Math.max(1, options.liveRows), options);
	}

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

	pushAll(rows, preparingRows(entry, options));
	return rows;
}
