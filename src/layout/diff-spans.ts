/**
@module Styled-span plumbing for the diff card: combine a line's base style, syntax colours and word
highlights, sanitize span by span with tab stops counted from the line start, and wrap styled text
to the width with soft-wrapped continuation rows (no indent, so a copied line has no gutter in it).
*/
import {sanitizeLine, TAB_STOP} from './sanitize.js';
import type {Span, Style, StyledLine} from './styled-line.js';
import {displayWidth, wrapToWidth} from './text-width.js';
import type {WordRange} from './word-diff.js';

/**
Spans over `text` (raw, unsanitized): `base` everywhere, syntax styles layered on top of it where
`syntax` has them, and `wordStyle` alone on the word ranges.
*/
export function composeSpans(
	text: string,
	base: Style,
	syntax: readonly Span[] | undefined,
	words: readonly WordRange[] | undefined,
	wordStyle: Style,
): Span[] {
	const runs: ReadonlyArray<{readonly text: string; readonly style?: Style}> = syntax ?? [{text}];
	const spans: Span[] = [];
	let offset = 0;
	let wordIndex = 0;
	for (const run of runs) {
		const runStyle = run.style === undefined ? base : {...base, ...run.style};
		const runEnd = offset + run.text.length;
		let position = offset;
		while (position < runEnd) {
			while (words !== undefined && wordIndex < words.length && words[wordIndex]![1] <= position) {
				wordIndex++;
			}

			const word = words?.[wordIndex];
			if (word !== undefined && word[0] <= position) {
				const end = Math.min(word[1], runEnd);
				spans.push({text: text.slice(position, end), style: wordStyle});
				position = end;
			} else {
				const end = Math.min(word === undefined ? runEnd : word[0], runEnd);
				spans.push({text: text.slice(position, end), style: runStyle});
				position = end;
			}
		}

		offset = runEnd;
	}

	return spans;
}

const asciiWithTabs = /^[\t\x20-\x7e]*$/;

const printableAscii = /^[\x20-\x7e]*$/;

/** `wrapToWidth` for printable ASCII: rows of `width` characters. */
function asciiRows(text: string, width: number): string[] {
	if (width <= 0 || text.length <= width) {
		return [text];
	}

	const rows: string[] = [];
	for (let start = 0; start < text.length; start += width) {
		rows.push(text.slice(start, start + width));
	}

	return rows;
}

/**
`sanitizeLine` with a fast path for printable ASCII with tabs (most source code): tabs expand to the
next multiple of `TAB_STOP` columns counted from `startColumn`, without a per-character loop.
*/
export function sanitizeText(text: string, startColumn = 0): string {
	if (!asciiWithTabs.test(text) || !text.includes('\t')) {
		return sanitizeLine(text, {startColumn});
	}

	const parts = text.split('\t');
	let out = parts[0]!;
	for (let index = 1; index < parts.length; index++) {
		const column = startColumn + out.length;
		out += ' '.repeat(TAB_STOP - (column % TAB_STOP)) + parts[index]!;
	}

	return out;
}

/** Sanitize each span's text, with tab stops counted from `startColumn` at the first span. */
export function sanitizeSpans(spans: readonly Span[], startColumn = 0): Span[] {
	let column = startColumn;
	return spans.map(span => {
		const text = sanitizeText(span.text, column);
		column += displayWidth(text);
		return text === span.text ? span : {...span, text};
	});
}

function sameStyle(a: Style | undefined, b: Style | undefined): boolean {
	const left = a ?? {};
	const right = b ?? {};
	return left.fg === right.fg && left.bold === right.bold && left.dim === right.dim && left.italic === right.italic
		&& left.underline === right.underline && left.inverse === right.inverse && left.strikethrough === right.strikethrough;
}

/** Drop empty spans and merge neighbours with the same style and link. */
export function mergeSpans(spans: readonly Span[]): Span[] {
	const merged: Span[] = [];
	for (const span of spans) {
		if (span.text === '') {
			continue;
		}

		const last = merged.at(-1);
		if (last !== undefined && last.link === span.link && sameStyle(last.style, span.style)) {
			merged[merged.length - 1] = {...last, text: last.text + span.text};
		} else {
			merged.push(span);
		}
	}

	return merged;
}

/**
One logical line of styled, sanitized spans as rows of at most `width` columns, cut exactly where
`wrapToWidth` cuts the joined text; every row after the first is `softWrap`.
*/
export function wrapSpans(spans: readonly Span[], width: number): StyledLine[] {
	const text = spans.map(span => span.text).join('');
	// No UTF-16 unit is wider than two columns, so a short text fits without measuring it; printable
	// ASCII is one column a character, so it is cut by length.
	const rows = text.length * 2 <= width ? [text] : (printableAscii.test(text) ? asciiRows(text, width) : wrapToWidth(text, width));
	if (rows.length === 1) {
		return [{spans}];
	}

	const lines: StyledLine[] = [];
	let spanIndex = 0;
	let spanOffset = 0;
	for (const [rowIndex, row] of rows.entries()) {
		const rowSpans: Span[] = [];
		let needed = row.length;
		while (needed > 0) {
			const span = spans[spanIndex]!;
			const take = Math.min(needed, span.text.length - spanOffset);
			rowSpans.push({...span, text: span.text.slice(spanOffset, spanOffset + take)});
			needed -= take;
			spanOffset += take;
			if (spanOffset === span.text.length) {
				spanIndex++;
				spanOffset = 0;
			}
		}

		lines.push(rowIndex === 0 ? {spans: rowSpans} : {spans: rowSpans, softWrap: true});
	}

	return lines;
}

/** Plain text in one style as wrapped rows (an empty text is one row without spans). */
export function textRows(text: string, style: Style, width: number): StyledLine[] {
	return text === '' ? [{spans: []}] : wrapSpans([{text, style}], width);
}
