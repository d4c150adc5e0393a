/**
@module The one sanitizer. Every untrusted string (tool output, arguments, titles, paths) passes
through here before layout measures it, so no control character, escape sequence, bidi override or
lone surrogate can reach the terminal or skew a width. What it removes stays visible as escaped
text (`\x1b`, `\u202e`), because hiding it would hide what the tool actually produced.

Two variants: multi-line text keeps its line structure (`sanitizeLines`), and one-row fields
(header titles, `$` commands, cwd, paths) show a newline as the two characters `\n`
(`sanitizeInline`), so a multi-line value can never break a card's rows.
*/
import {displayWidth} from './text-width.js';

/** Tab stops every 8 columns from the start of the line, as terminals default to. */
export const TAB_STOP = 8;

/** Characters that draw nothing: harmless inside multi-line text, misleading in one-row fields. */
const zeroWidth = new Set([0x00_ad, 0x18_0e, 0x20_0b, 0x20_0c, 0x20_0e, 0x20_0f, 0x20_60, 0xfe_ff]);

const printableAscii = /^[\x20-\x7e]*$/;

const printableAsciiWithTabs = /^[\t\x20-\x7e]*$/;

function hex(value: number, digits: number): string {
	return value.toString(16).padStart(digits, '0');
}

/** The visible escaped form of one code point: `\x1b`, `\u202e`, `\u{e0001}`. */
export function visibleEscape(codePoint: number): string {
	if (codePoint === 0x0a) {
		return '\\n';
	}

	if (codePoint === 0x0d) {
		return '\\r';
	}

	if (codePoint <= 0xff) {
		return `\\x${hex(codePoint, 2)}`;
	}

	if (codePoint <= 0xff_ff) {
		return `\\u${hex(codePoint, 4)}`;
	}

	return `\\u{${hex(codePoint, 1)}}`;
}

/**
Whether a code point must be shown escaped. C0 and C1 controls, DEL, bidi embeddings, overrides and
isolates (they reorder the rest of the row on screen), line/paragraph separators, lone surrogates
(invalid UTF-16, typically from broken decoding), and in one-row fields the zero-width characters.
The zero-width joiner stays: it is part of emoji sequences.
*/
export function isUnsafeCodePoint(codePoint: number, inline: boolean): boolean {
	if (codePoint < 0x20 || codePoint === 0x7f || (codePoint >= 0x80 && codePoint <= 0x9f)) {
		return true;
	}

	if ((codePoint >= 0x20_2a && codePoint <= 0x20_2e) || (codePoint >= 0x20_66 && codePoint <= 0x20_69) || codePoint === 0x06_1c) {
		return true;
	}

	if (codePoint === 0x20_28 || codePoint === 0x20_29 || (codePoint >= 0xd8_00 && codePoint <= 0xdf_ff)) {
		return true;
	}

	return inline && zeroWidth.has(codePoint);
}

/**
Escape every unsafe code point of a text that holds no tabs to expand (for example one grapheme or
a word). Newlines are escaped too: callers split lines before calling this.
*/
export function escapeUnsafe(text: string, inline = false): string {
	if (printableAscii.test(text)) {
		return text;
	}

	let out = '';
	for (const char of text) {
		const codePoint = char.codePointAt(0)!;
		out += isUnsafeCodePoint(codePoint, inline) ? visibleEscape(codePoint) : char;
	}

	return out;
}

/** Options of the one-line sanitizer. */
export type SanitizeLineOptions = {
	/** Escape zero-width characters and show a newline as `\n` (one-row fields). Default false. */
	readonly inline?: boolean;
	/** The display column the text starts at, so tab stops stay aligned to the line start. Default 0. */
	readonly startColumn?: number;
};

/**
Sanitize text that becomes (part of) one row: tabs expanded to the next stop of 8 columns, and every
other unsafe character escaped visibly. A newline inside it is escaped as `\n`.
*/
export function sanitizeLine(text: string, options: SanitizeLineOptions = {}): string {
	if (printableAscii.test(text)) {
		return text;
	}

	const startColumn = options.startColumn ?? 0;
	if (printableAsciiWithTabs.test(text)) {
		return expandAsciiTabs(text, startColumn);
	}

	const inline = options.inline ?? false;
	let out = '';
	// Column bookkeeping only between tabs: the width of the text since the last tab.
	let segmentStart = 0;
	let segmentColumn = startColumn;
	for (const char of text) {
		const codePoint = char.codePointAt(0)!;
		if (codePoint === 0x09) {
			const column = segmentColumn + displayWidth(out.slice(segmentStart));
			const next = (Math.floor(column / TAB_STOP) + 1) * TAB_STOP;
			out += ' '.repeat(next - column);
			segmentStart = out.length;
			segmentColumn = next;
			continue;
		}

		out += isUnsafeCodePoint(codePoint, inline) ? visibleEscape(codePoint) : char;
	}

	return out;
}

/**
Tab expansion for printable ASCII with tabs (most source code): one column a character, so the
column is the length so far, without a per-character loop.
*/
function expandAsciiTabs(text: string, startColumn: number): string {
	const parts = text.split('\t');
	let out = parts[0]!;
	for (let index = 1; index < parts.length; index++) {
		const column = startColumn + out.length;
		out += ' '.repeat(TAB_STOP - (column % TAB_STOP)) + parts[index]!;
	}

	return out;
}

/** A one-row field: newlines and carriage returns shown as `\n` / `\r`, zero-width characters escaped. */
export function sanitizeInline(text: string): string {
	return sanitizeLine(text, {inline: true});
}

/**
Multi-line text as sanitized rows: split at `\n` (a `\r\n` pair counts as one newline; a lone `\r`
is shown as `\r`), each row sanitized with tab stops from its own start. An empty string is one
empty row.
*/
export function sanitizeLines(text: string): string[] {
	return text.split(/\r?\n/).map(line => sanitizeLine(line));
}
