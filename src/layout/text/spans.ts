/**
@module Width-aware operations on styled spans: wrapping a logical line into rows and truncating a
row, both measured with the one width function so they agree with folding and the terminal.
*/
import type {Span, StyledLine, Style} from './styled-line.js';
import {displayWidth, graphemes, isNarrowText, wrapProse, wrapToWidth} from './text-width.js';

const widthCache = new Map<string, number>();

/**
Display width of one grapheme, memoized: `string-width` is costly per call and wrapping asks for the
same few graphemes over and over. The cache is cleared when it grows past a bound.
*/
export function graphemeWidth(grapheme: string): number {
	if (grapheme.length === 1) {
		const code = grapheme.charCodeAt(0);
		if (code >= 0x20 && code < 0x7f) {
			return 1;
		}
	}

	let width = widthCache.get(grapheme);
	if (width === undefined) {
		width = displayWidth(grapheme);
		if (widthCache.size >= 10_000) {
			widthCache.clear();
		}

		widthCache.set(grapheme, width);
	}

	return width;
}

/** Display width of a run of spans. */
export function spansWidth(spans: readonly Span[]): number {
	let width = 0;
	for (const span of spans) {
		width += displayWidth(span.text);
	}

	return width;
}

/** The text of a row without its styles. */
export function lineText(line: StyledLine): string {
	let text = '';
	for (const span of line.spans) {
		text += span.text;
	}

	return text;
}

/** Whether `style` sets anything (as `Object.keys(style).length > 0`, without the array). */
function hasOwnKey(style: Style): boolean {
	for (const key in style) {
		if (Object.hasOwn(style, key)) {
			return true;
		}
	}

	return false;
}

/** A span, omitting an empty style so equal spans compare equal. */
export function span(text: string, style?: Style, link?: string): Span {
	const hasStyle = style !== undefined && hasOwnKey(style);
	if (link !== undefined) {
		return hasStyle ? {text, style, link} : {text, link};
	}

	return hasStyle ? {text, style} : {text};
}

function piece(source: Span, text: string): Span {
	return source.text === text ? source : span(text, source.style, source.link);
}

/**
Wrap one logical line into rows of at most `width` columns, breaking between graphemes exactly
where a terminal would soft-wrap (a wide character that does not fit moves to the next row): the
cuts are `wrapToWidth`'s on the joined text. Continuation rows carry `softWrap: true` and no indent,
so a copied line has no break in it. Empty spans are dropped; an empty line is one empty row.
For text copied exactly as is: code, terminal output, file contents, diffs.
*/
export function wrapSpans(spans: readonly Span[], width: number, maxRows?: number): StyledLine[] {
	return wrapSpansAt(spans, width, wrapToWidth, maxRows);
}

/**
Wrap one logical line of prose (Markdown, reasoning) between words: the cuts are `wrapProse`'s on the
joined text, so a row breaks after a space it keeps and only a word wider than a row is cut. Rows are
soft wraps as `wrapSpans`' are, and joined they give back the text exactly.
*/
export function wrapProseSpans(spans: readonly Span[], width: number, maxRows?: number): StyledLine[] {
	return wrapSpansAt(spans, width, wrapProse, maxRows);
}

/** The spans of one logical line sliced into rows where `cut` breaks their joined text (only the first `maxRows` rows when given). */
function wrapSpansAt(spans: readonly Span[], width: number, cut: (text: string, width: number, maxRows?: number) => string[], maxRows?: number): StyledLine[] {
	// Fast path: one short span of narrow text, the most common row of all.
	if (spans.length === 1 && spans[0]!.text.length <= width && spans[0]!.text !== '' && isNarrowText(spans[0]!.text)) {
		return [{spans}];
	}

	const kept = spans.filter(item => item.text !== '');
	let text = '';
	for (const item of kept) {
		text += item.text;
	}

	// No UTF-16 unit is wider than two columns, so a short text fits without measuring it (and
	// the cuts measure narrow text by its length).
	const rows = width <= 0 || text.length * 2 <= width ? [text] : cut(text, width, maxRows);
	if (rows.length === 1 && rows[0]!.length === text.length) {
		return [{spans: kept}];
	}

	const lines: StyledLine[] = [];
	let spanIndex = 0;
	let spanOffset = 0;
	for (const row of rows) {
		const rowSpans: Span[] = [];
		let needed = row.length;
		while (needed > 0) {
			const source = kept[spanIndex]!;
			const take = Math.min(needed, source.text.length - spanOffset);
			rowSpans.push(piece(source, source.text.slice(spanOffset, spanOffset + take)));
			needed -= take;
			spanOffset += take;
			if (spanOffset === source.text.length) {
				spanIndex++;
				spanOffset = 0;
			}
		}

		lines.push(lines.length === 0 ? {spans: rowSpans} : {spans: rowSpans, softWrap: true});
	}

	return lines;
}

/** Longest grapheme (in UTF-16 units) that a row cut measures whole; longer ones (zalgo) may be cut short. */
const MAX_GRAPHEME_UNITS = 32;

/**
The graphemes of `text` that can matter to `columns` columns: a bounded prefix, since every grapheme
of sanitized text is at least one column wide. Segmenting all of a huge one-row field (a 1 MB title)
to keep 80 columns of it cost seconds.
*/
export function leadingGraphemes(text: string, columns: number): string[] {
	const limit = (Math.max(0, columns) + 1) * MAX_GRAPHEME_UNITS;
	if (text.length <= limit) {
		return graphemes(text);
	}

	const list = graphemes(text.slice(0, limit));
	// The last one may have been cut in two.
	list.pop();
	return list;
}

/** The longest start of `text` that fits `room` columns, its width, and whether it is all of `text`. */
function leadingColumns(text: string, room: number): {text: string; columns: number; full: boolean} {
	if (isNarrowText(text)) {
		// One column and one grapheme a unit: the part that fits is a slice.
		const fits = text.slice(0, Math.max(0, room));
		return {text: fits, columns: fits.length, full: fits.length === text.length};
	}

	let fits = '';
	let columns = 0;
	for (const grapheme of leadingGraphemes(text, room)) {
		const cells = graphemeWidth(grapheme);
		if (columns + cells > room) {
			return {text: fits, columns, full: false};
		}

		fits += grapheme;
		columns += cells;
	}

	return {text: fits, columns, full: true};
}

/**
Cut a run of spans to at most `width` columns. When something is cut, the row ends in `ellipsis`
(styled like the text it replaces). Never wraps.
*/
export function truncateSpans(spans: readonly Span[], width: number, ellipsis = '…'): Span[] {
	if (spansWidth(spans) <= width) {
		return spans.filter(item => item.text !== '');
	}

	const room = width - displayWidth(ellipsis);
	if (room < 0) {
		return [];
	}

	const out: Span[] = [];
	let used = 0;
	let last: Span | undefined;
	for (const source of spans) {
		const {text, columns, full} = leadingColumns(source.text, room - used);
		used += columns;
		last = source;
		if (text !== '') {
			out.push(piece(source, text));
		}

		if (!full) {
			break;
		}
	}

	out.push(span(ellipsis, last?.style));
	return out;
}
