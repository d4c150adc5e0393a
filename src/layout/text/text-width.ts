/**
@module The one width function. Layout, folding, truncation and wrapping all measure with it, so
they agree with each other and with the terminal: East Asian wide and fullwidth characters and
emoji (including VS16 sequences) are 2 columns, ambiguous-width characters are 1, and text reaching
it has no tabs or control characters (sanitize expands and escapes those first).
*/
import {createRequire} from 'node:module';

// string-width (its emoji regex, ~40 ms to load) and the grapheme segmenter are made on first use:
// text of narrow characters alone, most of a log and all of many, is measured without them.
const require = createRequire(import.meta.url);
let stringWidth: typeof import('string-width').default | undefined;
let segmenter: Intl.Segmenter | undefined;
const segmenterOf = (): Intl.Segmenter => segmenter ??= new Intl.Segmenter();

/** Nonspacing and enclosing marks, except the ones that make an emoji (style selectors, keycap). */
const combiningMarks = /(?![\uFE0E\uFE0F\u20E3])[\p{Mn}\p{Me}]/gu;

/**
Characters that are one column and one grapheme each whatever stands beside them (no combining mark,
joiner, selector, jamo or emoji among them): printable ASCII, Latin, Greek and Cyrillic letters, and
the dashes, quotes, bullets, arrows, math, box-drawing and check-mark symbols of everyday text. A text made of
these alone is measured, split and wrapped by its length (test/layout/text/text-width.test.ts checks each
one against the full measure and the grapheme segmenter).
*/
export const NARROW_CHARACTERS = String.raw`\x20-\x7e\u00a0-\u00ac\u00ae-\u02ff\u0370-\u0377\u037a-\u037f\u0384-\u038a\u038c\u038e-\u03a1\u03a3-\u0482\u048a-\u052f\u2010-\u2027\u2030-\u205e\u2190-\u22ff\u2500-\u25fc\u270c-\u2727`;
const narrowText = new RegExp(`^[${NARROW_CHARACTERS}]*$`);
/** The first character that is not printable ASCII (the narrow characters' cheapest range). */
const beyondAscii = /[^\x20-\x7e]/g;
/** Narrow characters from `lastIndex` to the end. */
const narrowTail = new RegExp(`[${NARROW_CHARACTERS}]*$`, 'y');
/**
From this length on, printable ASCII is skipped with a one-range class before the rest is checked
against all the ranges: a ~2 KB `--json` line is checked 1.5× faster; shorter text (words, spans)
pays less for one regex than for two.
*/
const LONG_TEXT = 256;

/** Whether `text` is made only of `NARROW_CHARACTERS`: one column and one grapheme per UTF-16 unit. */
export function isNarrowText(text: string): boolean {
	if (text.length < LONG_TEXT) {
		return narrowText.test(text);
	}

	beyondAscii.lastIndex = 0;
	if (!beyondAscii.test(text)) {
		return true;
	}

	narrowTail.lastIndex = beyondAscii.lastIndex - 1;
	return narrowTail.test(text);
}

/** Widths of single graphemes already measured (layout measures the same few thousand over and over). */
const graphemeWidths = new Map<string, number>();
const GRAPHEME_CACHE_LIMIT = 20_000;

/** Display width of `text` in terminal columns. */
export function displayWidth(text: string): number {
	// Fast path: printable ASCII is one column per character.
	if (/^[\x20-\x7e]*$/.test(text)) {
		return text.length;
	}

	// So are Latin, Greek and Cyrillic letters and everyday punctuation and symbols.
	if (narrowText.test(text)) {
		return text.length;
	}

	// Short strings are usually one grapheme measured by the wrapping and truncation loops.
	if (text.length <= 8) {
		return graphemeWidth(text);
	}

	let width = 0;
	for (const segment of segmenterOf().segment(text)) {
		width += graphemeWidth(segment.segment);
	}

	return width;
}

/** Width of one grapheme (or a short string), measured once. */
function graphemeWidth(text: string): number {
	const known = graphemeWidths.get(text);
	if (known !== undefined) {
		return known;
	}

	// Marks never take a cell of their own; measured without them, a flag or a conjunct with a mark
	// keeps the width its visible characters have (string-width would fall back to the first one's).
	const visible = text.replaceAll(combiningMarks, '');
	stringWidth ??= (require('string-width') as typeof import('string-width')).default;
	const width = stringWidth(visible, {ambiguousIsNarrow: true, countAnsiEscapeCodes: true}) + spacingLetters(visible);
	if (graphemeWidths.size >= GRAPHEME_CACHE_LIMIT) {
		graphemeWidths.clear();
	}

	graphemeWidths.set(text, width);
	return width;
}

/**
Thai SARA AM and Lao AM are letters that Unicode clusters with the consonant before them (as a
spacing mark) but that terminals draw in a cell of their own (wcwidth 1): `น้ำ` is 2 columns, not 1.
*/
function spacingLetters(text: string): number {
	let count = 0;
	for (let index = 1; index < text.length; index++) {
		const code = text.charCodeAt(index);
		count += code === 0x0e_33 || code === 0x0e_b3 ? 1 : 0;
	}

	return count;
}

/** How many grapheme clusters `text` has (`graphemes(text).length`, without the array). */
export function graphemeCount(text: string): number {
	if (narrowText.test(text)) {
		return text.length;
	}

	let count = 0;
	for (const _segment of segmenterOf().segment(text)) {
		count++;
	}

	return count;
}

/**
Ranges `[start, end)` of `text` (in order, not overlapping) widened to the grapheme boundaries around
them: a highlight cut inside a grapheme would split what the sanitizer reads together (a skin tone
from its emoji, a mark from its letter), and a highlight must never change text. A range left inside
a grapheme the one before it already took is dropped.
*/
export function wholeGraphemes(text: string, ranges: ReadonlyArray<readonly [number, number]>): ReadonlyArray<readonly [number, number]> {
	// Narrow text is one grapheme a UTF-16 unit: every offset is a boundary.
	if (ranges.length === 0 || isNarrowText(text)) {
		return ranges;
	}

	const boundaries = [0];
	for (const grapheme of graphemes(text)) {
		boundaries.push(boundaries.at(-1)! + grapheme.length);
	}

	const widened: Array<readonly [number, number]> = [];
	// The boundary at or before the next range's start, never before the last range's end.
	let at = 0;
	for (const [start, end] of ranges) {
		while (boundaries[at + 1]! <= start) {
			at++;
		}

		const from = boundaries[at]!;
		while (boundaries[at]! < end) {
			at++;
		}

		if (boundaries[at]! > from) {
			widened.push([from, boundaries[at]!]);
		}
	}

	return widened;
}

/** The grapheme clusters of `text`. */
export function graphemes(text: string): string[] {
	if (narrowText.test(text)) {
		return text.split('');
	}

	return Array.from(segmenterOf().segment(text), segment => segment.segment);
}

/** `text` cut to at most `width` columns, ending in `ellipsis` when something was cut. */
export function truncateToWidth(text: string, width: number, ellipsis = '…'): string {
	if (displayWidth(text) <= width) {
		return text;
	}

	const room = width - displayWidth(ellipsis);
	if (room < 0) {
		return '';
	}

	let used = 0;
	let result = '';
	// A bounded prefix: every grapheme of sanitized text is at least one column (see spans.ts leadingGraphemes).
	const limit = (room + 1) * 32;
	const prefix = text.length > limit ? graphemes(text.slice(0, limit)).slice(0, -1) : graphemes(text);
	for (const grapheme of prefix) {
		const graphemeWidth = displayWidth(grapheme);
		if (used + graphemeWidth > room) {
			break;
		}

		result += grapheme;
		used += graphemeWidth;
	}

	return result + ellipsis;
}

/**
Split `text` into rows of at most `width` columns, breaking between graphemes exactly where a
terminal's soft wrap would: a wide character that does not fit moves to the next row whole.
An empty string is one empty row. `maxRows`: only the first rows are wanted (a fold's head).
*/
export function wrapToWidth(text: string, width: number, maxRows = Number.POSITIVE_INFINITY): string[] {
	if (width <= 0) {
		return [text];
	}

	if (narrowText.test(text)) {
		// One column a unit: rows of `width` units.
		const rows: string[] = [];
		for (let start = 0; (start < text.length || start === 0) && rows.length < maxRows; start += width) {
			rows.push(text.slice(start, start + width));
		}

		return rows;
	}

	if (displayWidth(text) <= width) {
		return [text];
	}

	const rows: string[] = [];
	let row = '';
	let used = 0;
	for (const grapheme of graphemes(text)) {
		const graphemeWidth = displayWidth(grapheme);
		if (used + graphemeWidth > width && used > 0) {
			rows.push(row);
			if (rows.length >= maxRows) {
				return rows;
			}

			row = '';
			used = 0;
		}

		row += grapheme;
		used += graphemeWidth;
	}

	rows.push(row);
	return rows;
}

/**
Split `text` into rows of at most `width` columns between words, for prose that is read (Markdown,
reasoning): a row breaks after a space and keeps that space as its last character, so the rows
joined give back `text` exactly (they are soft wraps). A word goes on a row only with the space after
it (except the text's last word), else it starts the next row; a word wider than a row is cut by
columns as `wrapToWidth` cuts (CJK has no spaces: it breaks between its wide characters). Spaces
that do not fit the end of a row start the next one. Only U+0020 breaks: a no-break space does not.
`maxRows`: only the first rows are wanted (a fold's head); the walk stops once they are known.
*/
export function wrapProse(text: string, width: number, maxRows = Number.POSITIVE_INFINITY): string[] {
	if (width <= 0) {
		return [text];
	}

	const narrow = narrowText.test(text);
	if (narrow ? text.length <= width : displayWidth(text) <= width) {
		return [text];
	}

	// Narrow text is one grapheme and one column a unit; other text is walked by graphemes, so a
	// space that a mark combines with is not a break.
	const units = narrow ? undefined : graphemes(text);
	const count = units === undefined ? text.length : units.length;
	const widths = units?.map(unit => displayWidth(unit));
	const unitWidth = (index: number) => (widths === undefined ? 1 : widths[index]!);
	const isSpace = (index: number) => (units === undefined ? text.charCodeAt(index) === 0x20 : units[index] === ' ');
	const starts = [0];
	let used = 0;
	const breakBefore = (index: number) => {
		starts.push(index);
		used = 0;
	};

	let index = 0;
	// A row is known once the next one starts.
	while (index < count && starts.length <= maxRows) {
		let end = index;
		let wordWidth = 0;
		if (units === undefined) {
			// Narrow text: a word's width is its length.
			end = text.indexOf(' ', index);
			end = end < 0 ? count : end;
			wordWidth = end - index;
		}

		while (end < count && !isSpace(end)) {
			wordWidth += unitWidth(end);
			end++;
		}

		const needed = wordWidth + (end < count ? 1 : 0);
		if (used > 0 && used + needed > width && wordWidth <= width) {
			breakBefore(index);
		}

		if (used + wordWidth <= width) {
			used += wordWidth;
		} else {
			// Wider than a row: cut where a terminal would, starting on this row.
			for (let unit = index; unit < end; unit++) {
				if (used + unitWidth(unit) > width && used > 0) {
					breakBefore(unit);
				}

				used += unitWidth(unit);
			}
		}

		for (; end < count && isSpace(end); end++) {
			if (used >= width) {
				breakBefore(end);
			}

			used++;
		}

		index = end;
	}

	if (starts.length > maxRows) {
		starts.length = maxRows + 1;
	} else {
		starts.push(count);
	}

	const rows: string[] = [];
	for (let row = 0; row + 1 < starts.length; row++) {
		rows.push(units === undefined ? text.slice(starts[row], starts[row + 1]) : units.slice(starts[row], starts[row + 1]).join(''));
	}

	return rows;
}
