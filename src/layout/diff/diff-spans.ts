/**
@module Styled-span plumbing for the diff card: combine a line's base style, syntax colours and word
highlights, sanitize span by span with tab stops counted from the line start, and wrap plain text
in one style (`wrapSpans` of spans.ts, so continuation rows are soft-wrapped with no indent).
*/
import {sanitizeLine} from '../text/sanitize.js';
import {wrapSpans} from '../text/spans.js';
import type {Span, Style, StyledLine} from '../text/styled-line.js';
import {displayWidth} from '../text/text-width.js';
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

/** Sanitize each span's text, with tab stops counted from `startColumn` at the first span. */
export function sanitizeSpans(spans: readonly Span[], startColumn = 0): Span[] {
	let column = startColumn;
	return spans.map(span => {
		const text = sanitizeLine(span.text, {startColumn: column});
		column += displayWidth(text);
		return text === span.text ? span : {...span, text};
	});
}

function sameStyle(a: Style | undefined, b: Style | undefined): boolean {
	const left = a ?? {};
	const right = b ?? {};
	return left.fg === right.fg && left.bg === right.bg && left.bold === right.bold && left.dim === right.dim && left.italic === right.italic
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

/** Plain text in one style as wrapped rows (an empty text is one row without spans). */
export function textRows(text: string, style: Style, width: number): StyledLine[] {
	return text === '' ? [{spans: []}] : wrapSpans([{text, style}], width);
}
