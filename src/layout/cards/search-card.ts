/**
@module The search card body. Matches: grouped by file, a count per file, line numbers, the match
highlighted, long lines trimmed around the match. Paths: one per row. Both end in a pinned footer
with the count, worded as the tool's own truncation when the tool capped the result.
*/
import type {SearchFileMatches, SearchMatchesResultView, SearchPathsResultView} from '../../tools/views.js';
import {BodyRows} from './body-rows.js';
import {footerOnly, type BodyContext} from './body-text.js';
import type {CardBody} from './card-body.js';
import {formatCount, plural} from '../text/format.js';
import {pathSpan} from './path-span.js';
import {matchHighlighter, type MatchHighlighter} from './match-highlight.js';
import {sanitizeLine} from '../text/sanitize.js';
import {graphemeWidth, span, spansWidth, wrapSpans} from '../text/spans.js';
import type {Span, StyledLine} from '../text/styled-line.js';
import {displayWidth, graphemes} from '../text/text-width.js';
import {maxOf} from '../text/push-all.js';

/** Columns of context kept before the first match when a long line is trimmed. */
const CONTEXT_BEFORE_MATCH = 12;

/** Keep the columns `[start, start + width)` of a row of spans. */
function sliceColumns(spans: readonly Span[], start: number, width: number): Span[] {
	const out: Span[] = [];
	let column = 0;
	let used = 0;
	for (const source of spans) {
		let text = '';
		for (const grapheme of graphemes(source.text)) {
			const cells = graphemeWidth(grapheme);
			if (column < start) {
				column += cells;
				continue;
			}

			if (used + cells > width) {
				break;
			}

			text += grapheme;
			used += cells;
			column += cells;
		}

		if (text !== '') {
			out.push(span(text, source.style, source.link));
		}
	}

	return out;
}

/** A matched line's spans, trimmed to `width` columns around the first match with `…` at the cuts. */
function matchedLineSpans(line: string, highlight: MatchHighlighter, width: number, context: BodyContext): Span[] {
	const {theme} = context;
	const spans: Span[] = [];
	let column = 0;
	let firstMatch: number | undefined;
	// A match takes at least a column, so no more than `width` can be seen.
	for (const piece of highlight(line, Math.max(1, width))) {
		const text = sanitizeLine(piece.text, {startColumn: column});
		if (piece.match && firstMatch === undefined) {
			firstMatch = column;
		}

		spans.push(span(text, piece.match ? theme.match : theme.body));
		column += displayWidth(text);
	}

	if (showsWhole(column, width)) {
		return spans;
	}

	// Start a little before the match so it reads in context, without leaving blank room at the end.
	const wanted = Math.max(0, (firstMatch ?? 0) - CONTEXT_BEFORE_MATCH);
	const start = Math.min(wanted, column - (width - 1));
	const lead = start > 0 ? [span('…', theme.muted)] : [];
	const roomAfterLead = width - (start > 0 ? 1 : 0);
	const needsTail = column - start > roomAfterLead;
	const kept = sliceColumns(spans, start, roomAfterLead - (needsTail ? 1 : 0));
	return [...lead, ...kept, ...(needsTail ? [span('…', theme.muted)] : [])];
}

/** The footer: `3 matches in 2 files`, or `showing 250 of 1 204 matches (tool truncated)`. */
function footerRows(shown: number, total: number, truncated: boolean, noun: readonly [string, string], where: string, context: BodyContext): StyledLine[] {
	const {theme, width} = context;
	const text = truncated || total > shown
		? `showing ${formatCount(shown)} of ${plural(total, noun[0], noun[1])}${where} (tool truncated)`
		: `${plural(shown, noun[0], noun[1])}${where}`;
	return wrapSpans([span(text, truncated || total > shown ? theme.warning : theme.muted)], width);
}

/** grep results, grouped by file. */
export function layoutSearchMatchesBody(view: SearchMatchesResultView, pattern: unknown, context: BodyContext): CardBody {
	const {theme, width} = context;
	if (footerOnly(context) && !(view.files.length === 0 && !view.truncated)) {
		const footer = matchesFooter(view, view.files.reduce((sum, file) => sum + file.matches.length, 0), context);
		return {lines: footer, pinnedBottom: footer.length};
	}

	// Unstyled, a highlight shows nothing: the match matters only to a line trimmed around it.
	const highlight = matchHighlighter(theme.name === 'plain' && view.files.every(file => linesFit(file, width)) ? undefined : pattern);
	const lines = new BodyRows(context.keep);
	let shown = 0;
	for (const file of view.files) {
		const count = file.matches.length;
		shown += count;
		lines.startSection(wrapSpans([pathSpan(file.path, context), span(` · ${plural(count, 'match', 'matches')}`, theme.muted)], width));
		const numberWidth = numberColumns(file);
		for (const match of file.matches) {
			const gutter = span(`${String(match.lineNumber).padStart(numberWidth)}: `, theme.muted);
			const room = width - spansWidth([gutter]);
			// Trimmed to fit; wrapping only matters on terminals too narrow to trim into.
			lines.pushAll(wrapSpans([gutter, ...matchedLineSpans(match.line, highlight, room, context)], width));
		}
	}

	if (view.files.length === 0 && !view.truncated) {
		const footer = wrapSpans([span('no matches', theme.muted)], width);
		return {lines: footer, pinnedBottom: footer.length};
	}

	const footer = matchesFooter(view, shown, context);
	lines.pushAll(footer);
	return lines.body(footer.length);
}

/** Columns of a file's widest line number. */
function numberColumns(file: SearchFileMatches): number {
	return maxOf(file.matches.map(match => String(match.lineNumber).length), 1);
}

/** Whether a matched line of `columns` shows whole in `width`; else it is trimmed around its first match. */
function showsWhole(columns: number, width: number): boolean {
	return columns <= width || width < 3;
}

/** Whether every matched line of `file` shows whole beside its gutter (`N: `), as `matchedLineSpans` lays it out. */
function linesFit(file: SearchFileMatches, width: number): boolean {
	const room = width - numberColumns(file) - 2;
	return file.matches.every(match => showsWhole(displayWidth(sanitizeLine(match.line)), room));
}

/** The footer of grep results: `3 matches in 2 files` (or the tool's truncation). */
function matchesFooter(view: SearchMatchesResultView, shown: number, context: BodyContext): StyledLine[] {
	return footerRows(shown, view.total, view.truncated, ['match', 'matches'], ` in ${plural(view.files.length, 'file')}`, context);
}

/** glob results, one path per row. */
export function layoutSearchPathsBody(view: SearchPathsResultView, context: BodyContext): CardBody {
	const {theme, width} = context;
	if (footerOnly(context) && !(view.paths.length === 0 && !view.truncated)) {
		const footer = pathsFooter(view, context);
		return {lines: footer, pinnedBottom: footer.length};
	}

	const lines = new BodyRows(context.keep);
	for (const filePath of view.paths) {
		lines.pushAll(wrapSpans([pathSpan(filePath, context, theme.body)], width));
	}

	if (view.paths.length === 0 && !view.truncated) {
		const footer = wrapSpans([span('no files found', theme.muted)], width);
		return {lines: footer, pinnedBottom: footer.length};
	}

	const footer = pathsFooter(view, context);
	lines.pushAll(footer);
	return lines.body(footer.length);
}

/** The footer of glob results: `12 paths` (or the tool's truncation). */
function pathsFooter(view: SearchPathsResultView, context: BodyContext): StyledLine[] {
	return footerRows(view.paths.length, view.total, view.truncated, ['path', 'paths'], '', context);
}
