/**
Hostile text for terminal-safety properties: fragments that would drive a terminal if they reached
it raw (cursor moves, erases, titles, clipboard writes, links, device control strings, 7-bit and
8-bit C1, bidi overrides, zero-width characters, lone surrogates), mixed with random code points.
*/
import fc from 'fast-check';

/** How many cases a property runs: `CARDTERM_FUZZ_CASES` overrides the CI default. */
export function fuzzCases(ciDefault: number): number {
	const value = Number(process.env.CARDTERM_FUZZ_CASES);
	return Number.isSafeInteger(value) && value > 0 ? value : ciDefault;
}

/** The seed every property uses unless `CARDTERM_FUZZ_SEED` names another (failures print theirs). */
export function fuzzSeed(): number {
	const value = Number(process.env.CARDTERM_FUZZ_SEED);
	return Number.isSafeInteger(value) ? value : 7_2026;
}

/** Sequences a hostile tool, file or log could carry. */
export const HOSTILE_FRAGMENTS: readonly string[] = [
	// CSI cursor movement, erase, scroll, modes, device queries.
	'\u001B[2J', '\u001B[3J', '\u001B[H', '\u001B[10;20H', '\u001B[K', '\u001B[1K', '\u001B[2K', '\u001B[5A', '\u001B[3B',
	'\u001B[G', '\u001B[?25l', '\u001B[?1049h', '\u001B[?1000h', '\u001B[6n', '\u001B[c', '\u001B[r', '\u001B[0;5r', '\u001B[S',
	'\u001B[31m', '\u001B[1;4;38;5;9m', '\u001B[38;2;255;0;0m', '\u001B[48;5;1m', '\u001B[0m', '\u001B[4:3m', '\u001B[>4;2m', '\u001B[ q',
	'\u001B[', '\u001B[12', '\u001B[?',
	// OSC: window title, clipboard, hyperlinks, colours; BEL- and ST-terminated, and unterminated.
	'\u001B]0;pwned\u0007', '\u001B]2;title\u001B\\', '\u001B]52;c;ZXZpbA==\u0007', '\u001B]52;p;?\u001B\\',
	'\u001B]8;;https://evil.example/\u001B\\click\u001B]8;;\u001B\\', '\u001B]8;;file:///etc/passwd\u0007x\u001B]8;;\u0007',
	'\u001B]8;;javascript:alert(1)\u001B\\', '\u001B]4;1;rgb:ff/00/00\u0007', '\u001B]1337;File=:AAAA\u0007', '\u001B]0;open',
	// String controls: DCS, APC, PM, SOS.
	'\u001BP+q544e\u001B\\', '\u001BPq#0;2;0;0;0\u001B\\', '\u001B_Gf=100;AAAA\u001B\\', '\u001B^privacy\u001B\\', '\u001BXsos\u001B\\', '\u001BP',
	// Other escapes: reset, save/restore, charsets, DEC tests, keypad.
	'\u001Bc', '\u001B7', '\u001B8', '\u001B#8', '\u001B(0', '\u001B%G', '\u001B=', '\u001BD', '\u001BM', '\u001B\\', '\u001B',
	// 8-bit C1 forms.
	'\u009B2J', '\u009B31m', '\u009D0;title\u009C', '\u009D52;c;eA==\u0007', '\u0090q\u009C', '\u009E', '\u009F', '\u0098x\u009C',
	'\u0085', '\u0084', '\u008D', '\u009C', '\u0080',
	// C0 controls, DEL.
	'\u0007', '\u0000', '\u0008', '\u000B', '\u000C', '\u000E', '\u000F', '\u0018', '\u001A', '\u007F', '\r', '\t', '\n', '\r\n', '\n\n',
	// Bidi embeddings, overrides, isolates, marks; separators.
	'\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u061C', '\u200E', '\u200F', '\u2028', '\u2029',
	'evil\u202Etxt.exe',
	// Zero-width and invisible characters.
	'\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD', '\u180E',
	// Invalid UTF-16 and replacement characters from broken decoding.
	'\uD800', '\uDFFF', '\uDBFF\u0041', '\uFFFD',
	// Ordinary text that must survive: wide, combining, emoji, long.
	'é', 'e\u0301', '界', '👩‍💻', '🇫🇷', 'x'.repeat(120), ' ', '/home/u/proj/', '../', 'a.txt',
];

/** One code point of any kind, lone surrogates included. */
const anyCodeUnitOrPoint: fc.Arbitrary<string> = fc.oneof(
	fc.integer({min: 0, max: 0xff}).map(code => String.fromCharCode(code)),
	fc.integer({min: 0, max: 0xff_ff}).map(code => String.fromCharCode(code)),
	fc.integer({min: 0x1_00_00, max: 0x10_ff_ff}).map(code => String.fromCodePoint(code)),
);

/** A hostile string: fragments and random code points, at most `maxParts` pieces. */
export function hostileText(maxParts = 10): fc.Arbitrary<string> {
	return fc.array(fc.oneof(
		{weight: 5, arbitrary: fc.constantFrom(...HOSTILE_FRAGMENTS)},
		{weight: 2, arbitrary: anyCodeUnitOrPoint},
		{weight: 1, arbitrary: fc.string({unit: 'binary', maxLength: 6})},
	), {maxLength: maxParts}).map(parts => parts.join(''));
}

/** A hostile one-line value (file names, titles, ids) that is never empty. */
export function hostileName(): fc.Arbitrary<string> {
	return hostileText(6).map(text => (text === '' ? '\u001B[2J' : text));
}
