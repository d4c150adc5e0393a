/**
@module The one sanitizer. Every untrusted string (tool output, arguments, titles, paths, copied
text, JSON) passes through here before it is measured or written, so nothing reaches the terminal
that it might act on or draw differently from `displayWidth`. What it removes stays visible as
escaped text (`\x1b`, `\u202e`, `\u{e0001}`), because hiding it would hide what the tool produced.

One rule for all text, single-row fields and multi-line bodies alike. Escaped:
- controls: C0, DEL, C1, and the line and paragraph separators;
- format characters (`\p{Cf}`): bidi marks, embeddings, overrides and isolates, zero-width space,
  non-joiner and joiner, word joiner, invisible operators, BOM, soft hyphen (0 columns here, 1 in
  tmux and wcwidth), interlinear annotation, prepended concatenation marks, tag characters;
- every other default-ignorable code point: variation selectors, the combining grapheme joiner,
  Mongolian variation selectors, Hangul fillers, Khmer inherent vowels, the reserved ignorables;
- unassigned code points and noncharacters (no terminal knows their width) and lone surrogates.
Kept, because they are part of what they join: a zero-width joiner between two pictographs, VS15/VS16
after an emoji, a skin-tone modifier after a modifier base, and Hangul vowel and final jamo that
continue a syllable. Anywhere else they are escaped too. Private-use characters are kept: Nerd Font
icons live there and terminals give them one column, as `displayWidth` does.

Two callers' shapes: one row (`sanitizeLine`, tabs expanded, a newline shown as `\n`) and text that
keeps its newlines and tabs (`sanitizeText`, for copying and plain messages).
*/
import {displayWidth, isNarrowText} from './text-width.js';

/** Tab stops every 8 columns from the start of the line, as terminals default to. */
export const TAB_STOP = 8;

/** Controls, formats, surrogates, unassigned, separators and default-ignorables: escaped but for emoji parts. */
const ignorableClass = String.raw`\p{Cc}\p{Cf}\p{Cs}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}`;
const ignorable = new RegExp(`[${ignorableClass}]`, 'u');
/** Code points the rule looks at (`mustEscape` decides each one); everything else is drawn as is. */
const candidates = new RegExp(String.raw`[${ignorableClass}\p{Emoji_Modifier}\p{M}\u1160-\u11FF\uD7B0-\uD7FF]`, 'gu');
const combiningMark = /\p{M}/u;
/** Parts of emoji: a mark on one of them draws differently from terminal to terminal. */
const emojiPart = /[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\u200D\uFE0E\uFE0F\u20E3]/u;
const pictographic = /\p{Extended_Pictographic}/u;
const emoji = /\p{Emoji}/u;
const modifierBase = /\p{Emoji_Modifier_Base}/u;
const keycapBase = /[\d#*]/;

const ZWJ = 0x20_0d;
const TEXT_STYLE = 0xfe_0e;
const EMOJI_STYLE = 0xfe_0f;
const KEYCAP = 0x20_e3;

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

/** A code point as a one-character string (lone surrogates stay lone). */
function char(codePoint: number): string {
	return String.fromCodePoint(codePoint);
}

const isLeadingJamo = (codePoint: number): boolean => (codePoint >= 0x11_00 && codePoint <= 0x11_5f) || (codePoint >= 0xa9_60 && codePoint <= 0xa9_7c);
const isVowelJamo = (codePoint: number): boolean => (codePoint >= 0x11_60 && codePoint <= 0x11_a7) || (codePoint >= 0xd7_b0 && codePoint <= 0xd7_c6);
const isFinalJamo = (codePoint: number): boolean => (codePoint >= 0x11_a8 && codePoint <= 0x11_ff) || (codePoint >= 0xd7_cb && codePoint <= 0xd7_fb);
const isSyllable = (codePoint: number): boolean => codePoint >= 0xac_00 && codePoint <= 0xd7_a3;
const isOpenSyllable = (codePoint: number): boolean => isSyllable(codePoint) && (codePoint - 0xac_00) % 28 === 0;

/** Whether a vowel or final jamo continues the syllable `previous` belongs to (as Hangul composes). */
function continuesSyllable(previous: number, codePoint: number): boolean {
	if (isVowelJamo(codePoint)) {
		return isLeadingJamo(previous) || isVowelJamo(previous) || isOpenSyllable(previous);
	}

	return isFinalJamo(codePoint) && (isVowelJamo(previous) || isFinalJamo(previous) || isSyllable(previous));
}

/**
Whether a candidate code point must be escaped. `previous` is the code point before it when that one
is drawn (not escaped), `next` the one after, `joinable` whether the text so far ends in an emoji a
zero-width joiner may continue.
*/
function mustEscape(codePoint: number, previous: number | undefined, next: number | undefined, joinable: boolean): boolean {
	if (codePoint === ZWJ) {
		return !(joinable && next !== undefined && pictographic.test(char(next)));
	}

	if (codePoint === EMOJI_STYLE || codePoint === TEXT_STYLE) {
		return previous === undefined || !emoji.test(char(previous));
	}

	if (codePoint === KEYCAP && previous !== undefined && (previous === EMOJI_STYLE || keycapBase.test(char(previous)))) {
		return false;
	}

	if (codePoint >= 0x1_f3_fb && codePoint <= 0x1_f3_ff) {
		return previous === undefined || !modifierBase.test(char(previous));
	}

	if (ignorable.test(char(codePoint))) {
		return true;
	}

	if (isVowelJamo(codePoint) || isFinalJamo(codePoint)) {
		return previous === undefined || !continuesSyllable(previous, codePoint);
	}

	if (combiningMark.test(char(codePoint))) {
		// A mark combines with the character drawn before it; with none (a line start), or on an emoji,
		// terminals disagree on its cell.
		return previous === undefined || previous < 0x20 || emojiPart.test(char(previous));
	}

	return true;
}

/** The code point that ends at `index` (a surrogate pair read whole). */
function codePointBefore(text: string, index: number): number {
	const low = text.charCodeAt(index - 1);
	const high = index >= 2 ? text.charCodeAt(index - 2) : 0;
	return low >= 0xdc_00 && low <= 0xdf_ff && high >= 0xd8_00 && high <= 0xdb_ff ? text.codePointAt(index - 2)! : low;
}

/**
`text` with every code point the rule escapes replaced by `escape(codePoint)`, except those `keep`
accepts (a caller's newlines and tabs). The one walk every sanitizer shares: text between
candidates is copied as is.
*/
function replaceUnsafe(text: string, escape: (codePoint: number) => string, keep: (codePoint: number) => boolean = () => false): string {
	let out = '';
	let copied = 0;
	// The context right after the last candidate, for a candidate that follows it directly.
	let previousThere: number | undefined;
	let joinableThere = false;
	for (const match of text.matchAll(candidates)) {
		const here = match[0];
		const codePoint = here.codePointAt(0)!;
		if (keep(codePoint)) {
			continue;
		}

		const at = match.index;
		const end = at + here.length;
		const adjacent = at === copied && at > 0;
		const previous = adjacent ? previousThere : (at === 0 ? undefined : codePointBefore(text, at));
		const joinable: boolean = adjacent ? joinableThere : (previous !== undefined && pictographic.test(char(previous)));
		out += text.slice(copied, at);
		copied = end;
		if (mustEscape(codePoint, previous, text.codePointAt(end), joinable)) {
			out += escape(codePoint);
			previousThere = undefined;
			joinableThere = false;
		} else {
			out += here;
			previousThere = codePoint;
			// A kept style selector or skin tone leaves the emoji joinable; a kept joiner waits for its pictograph.
			joinableThere = joinable && codePoint !== ZWJ;
		}
	}

	return out + text.slice(copied);
}

/**
Escape every unsafe code point of a text that holds no tabs to expand (a run of output, a word).
Newlines are escaped too: callers split lines before calling this.
*/
export function escapeUnsafe(text: string): string {
	// Narrow text (text-width.ts) holds no control, format, mark or ignorable character: nothing to escape.
	return isNarrowText(text) ? text : replaceUnsafe(text, visibleEscape);
}

/** Options of the one-line sanitizer. */
export type SanitizeLineOptions = {
	/** The display column the text starts at, so tab stops stay aligned to the line start. Default 0. */
	readonly startColumn?: number;
};

/**
Sanitize text that becomes (part of) one row: tabs expanded to the next stop of 8 columns, and every
unsafe character escaped visibly. A newline inside it is shown as `\n`.
*/
export function sanitizeLine(text: string, options: SanitizeLineOptions = {}): string {
	if (isNarrowText(text)) {
		return text;
	}

	const startColumn = options.startColumn ?? 0;
	if (printableAsciiWithTabs.test(text)) {
		return expandAsciiTabs(text, startColumn);
	}

	const escaped = replaceUnsafe(text, visibleEscape, codePoint => codePoint === 0x09);
	if (!escaped.includes('\t')) {
		return escaped;
	}

	// Tabs are expanded after escaping, so each stop counts the columns actually drawn before it.
	const parts = escaped.split('\t');
	let out = parts[0]!;
	let column = startColumn + displayWidth(out);
	for (let index = 1; index < parts.length; index++) {
		const next = (Math.floor(column / TAB_STOP) + 1) * TAB_STOP;
		out += ' '.repeat(next - column) + parts[index]!;
		column = next + displayWidth(parts[index]!);
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

/** A one-row field (header title, `$` command, cwd, path): newlines and carriage returns shown as `\n` / `\r`. */
export function sanitizeInline(text: string): string {
	return sanitizeLine(text);
}

/**
Multi-line text as sanitized rows: split at `\n` (a `\r\n` pair counts as one newline; a lone `\r`
is shown as `\r`), each row sanitized with tab stops from its own start. An empty string is one
empty row.
*/
export function sanitizeLines(text: string): string[] {
	return text.split(/\r?\n/).map(line => sanitizeLine(line));
}

/**
Text that keeps its shape (copied card text, messages, listings): newlines (`\r\n` counts as one)
and tabs stay, everything else the rule escapes is shown escaped, so the result holds no control
character but `\n` and `\t`.
*/
export function sanitizeText(text: string): string {
	if (isNarrowText(text)) {
		return text;
	}

	return replaceUnsafe(text.replaceAll('\r\n', '\n'), visibleEscape, codePoint => codePoint === 0x0a || codePoint === 0x09);
}

/** A code point as JSON escapes: `\\uXXXX`, a surrogate pair beyond the BMP. */
function jsonEscape(codePoint: number): string {
	const text = char(codePoint);
	let out = '';
	for (let index = 0; index < text.length; index++) {
		out += `\\u${hex(text.charCodeAt(index), 4)}`;
	}

	return out;
}

/**
`JSON.stringify(value)` safe to write to a terminal: what the rule escapes becomes `\uXXXX` (a
surrogate pair beyond the BMP), still valid JSON that parses to the same value. JSON.stringify
already escapes C0 controls and lone surrogates.
*/
export function stringifyForTerminal(value: unknown): string {
	return terminalSafeJson(JSON.stringify(value));
}

/** `JSON.stringify` output made safe to write to a terminal, as `stringifyForTerminal` does. */
export function terminalSafeJson(json: string): string {
	// JSON.stringify leaves no C0 control, and narrow text has nothing else the rule escapes.
	return isNarrowText(json) ? json : replaceUnsafe(json, jsonEscape);
}
