/**
@module Width-aware operations on styled spans: wrapping a logical line into rows and truncating a
row, both measured with the one width function so they agree with folding and the terminal.
*/
import type {Span, StyledLine, Style} from './styled-line.js';
import {displayWidth, graphemes} from './text-width.js';

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

/** A span, omitting an empty style so equal spans compare equal. */
export function span(text: string, style?: Style, link?: string): Span {
	const hasStyle = style !== undefined && Object.keys(style).length > 0;
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
where a terminal would soft-wrap (a wide character that does not fit moves to the next row).
Continuation rows carry `softWrap: true` and no indent, so a copied line has no break in it.
Empty spans are dropped; an empty line is one empty row.
*/
export function wrapSpans(spans: readonly Span[], width: number): StyledLine[] {
	// Fast path: one short ASCII span, the most common row of all.
	if (spans.length === 1 && spans[0]!.text.length <= width && spans[0]!.text !== '' && /^[\x20-\x7e]*$/.test(spans[0]!.text)) {
		return [{spans}];
	}

	const kept = spans.filter(item => item.text !== '');
	if (width <= 0 || spansWidth(kept) <= width) {
		return [{spans: kept}];
	}

	const rows: StyledLine[] = [];
	let row: Span[] = [];
	let used = 0;
	for (const source of kept) {
		let text = '';
		for (const grapheme of graphemes(source.text)) {
			const cells = graphemeWidth(grapheme);
			if (used + cells > width && used > 0) {
				if (text !== '') {
					row.push(piece(source, text));
					text = '';
				}

				rows.push(rows.length === 0 ? {spans: row} : {spans: row, softWrap: true});
				row = [];
				used = 0;
			}

			text += grapheme;
			used += cells;
		}

		if (text !== '') {
			row.push(piece(source, text));
		}
	}

	rows.push(rows.length === 0 ? {spans: row} : {spans: row, softWrap: true});
	return rows;
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
		let text = '';
		let full = true;
		for (const grapheme of graphemes(source.text)) {
			const cells = graphemeWidth(grapheme);
			if (used + cells > room) {
				full = false;
				break;
			}

			text += grapheme;
			used += cells;
		}

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
