import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {escapeUnsafe, sanitizeInline, sanitizeLine, sanitizeLines, sanitizeText, stringifyForTerminal} from '../../../src/layout/text/sanitize.js';
import {narrowCharacters} from '../helpers.js';

describe('sanitizeLine', () => {
	it('leaves printable ASCII untouched', () => {
		expect(sanitizeLine('npm test -- --run')).toBe('npm test -- --run');
	});

	it('expands tabs to stops of 8 columns from the line start', () => {
		expect(sanitizeLine('a\tb\tc')).toBe('a       b       c');
		expect(sanitizeLine('\tx')).toBe('        x');
		expect(sanitizeLine('1234567\tx')).toBe('1234567 x');
		expect(sanitizeLine('12345678\tx')).toBe('12345678        x');
	});

	it('counts wide characters when expanding tabs', () => {
		expect(sanitizeLine('日本\tx')).toBe('日本    x');
	});

	it('continues tab stops from a start column', () => {
		expect(sanitizeLine('\tx', {startColumn: 3})).toBe('     x');
	});

	it('shows C0, C1, DEL and a bare ESC as visible escapes', () => {
		expect(sanitizeLine('a\x1b[31mred\x07\x00\x7f\x9b\x85z')).toBe('a\\x1b[31mred\\x07\\x00\\x7f\\x9b\\x85z');
	});

	it('shows bidi overrides and isolates as visible escapes', () => {
		expect(sanitizeLine('abc\u202Efed\u2066x\u2069')).toBe('abc\\u202efed\\u2066x\\u2069');
	});

	it('shows a lone surrogate visibly and keeps the replacement character', () => {
		expect(sanitizeLine('a\uD800b\uFFFD')).toBe('a\\ud800b\uFFFD');
	});

	it('escapes zero-width characters in one-row fields and multi-line text alike', () => {
		expect(sanitizeLine('a\u200Bb')).toBe('a\\u200bb');
		expect(sanitizeInline('a\u200Bb\uFEFF')).toBe('a\\u200bb\\ufeff');
		expect(sanitizeLines('one\u00ADtwo\nthree\u2060')).toEqual(['one\\xadtwo', 'three\\u2060']);
	});

	it('keeps emoji sequences whole, zero-width joiner and VS16 included', () => {
		expect(sanitizeInline('👩\u200D💻 ❤\uFE0F')).toBe('👩\u200D💻 ❤\uFE0F');
	});
});

describe('sanitizeLine tab expansion', () => {
	it('expands tabs to the next stop of 8 columns counted from the start column', () => {
		expect(sanitizeLine('a\tb\t\tc')).toBe('a       b               c');
		expect(sanitizeLine('\tx', {startColumn: 3})).toBe('     x');
	});

	it('the printable-ASCII fast path agrees with the general path on any text and start column', () => {
		// A trailing é forces the general path; it adds one column after every tab, so it changes no stop.
		fc.assert(fc.property(fc.string({unit: fc.constantFrom('a', ' ', '\t', 'é', '漢', '\u001B', '\n')}), fc.nat(20), (text, column) => {
			expect(sanitizeLine(text, {startColumn: column})).toBe(sanitizeLine(`${text}é`, {startColumn: column}).slice(0, -1));
		}));
	});
});

describe('sanitizeInline', () => {
	it('shows newlines and carriage returns as escapes on one row', () => {
		expect(sanitizeInline('echo a\necho b\r\n')).toBe('echo a\\necho b\\r\\n');
	});
});

describe('sanitizeLines', () => {
	it('splits at LF and CRLF and shows a lone CR', () => {
		expect(sanitizeLines('a\r\nb\nc\rd')).toEqual(['a', 'b', 'c\\rd']);
	});

	it('turns an empty string into one empty row', () => {
		expect(sanitizeLines('')).toEqual(['']);
	});
});

describe('escapeUnsafe', () => {
	it('escapes astral code points beyond the BMP with braces only when unsafe', () => {
		expect(escapeUnsafe('😀\x1b')).toBe('😀\\x1b');
	});
});

describe('the one rule for invisible characters', () => {
	/** Every code point a terminal may hide or draw at a width of its own: formats, ignorables, separators, unassigned, surrogates, controls. */
	const invisible = /^[\p{Cc}\p{Cf}\p{Cs}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]$/u;

	it('escapes each such code point, anywhere, in one-row fields, multi-line bodies and copied text alike', () => {
		let checked = 0;
		for (let codePoint = 0; codePoint <= 0x10_ff_ff; codePoint++) {
			const char = String.fromCodePoint(codePoint);
			if (codePoint === 0x09 || codePoint === 0x0a || !invisible.test(char)) {
				continue;
			}

			checked++;
			// Planes 4–13 hold nothing assigned: one shape of text is enough there.
			const outputs = codePoint >= 0x4_00_00 && codePoint < 0xe_00_00 ? [sanitizeLine(`x${char}y`)] : [sanitizeLine(`x${char}y`), sanitizeLines(`line\nx${char}y`)[1]!, sanitizeText(`a\nx${char}y`)];
			for (const output of outputs) {
				if (output.includes(char)) {
					throw new Error(`U+${codePoint.toString(16)} reached the output: ${JSON.stringify(output)}`);
				}
			}
		}

		expect(checked).toBeGreaterThan(800_000);
	});

	it('escapes the issue\'s zero-width characters and tag characters inside multi-line bodies', () => {
		const body = 'first\nse\u200Bcret\u200C\u200D\u200E\u200F\u2060\uFEFF\u00AD\ntag\u{E0001}\u{E0041}\u{E007F}';
		expect(sanitizeLines(body)).toEqual(['first', 'se\\u200bcret\\u200c\\u200d\\u200e\\u200f\\u2060\\ufeff\\xad', 'tag\\u{e0001}\\u{e0041}\\u{e007f}']);
	});

	it('escapes combining marks with nothing to combine with, and marks on an emoji', () => {
		expect(sanitizeLines('\u0301a\n\u05B0b\na\u0301')).toEqual(['\\u0301a', '\\u05b0b', 'a\u0301']);
		expect(sanitizeLine('🇫🇷\u0591 😀\u0949')).toBe('🇫🇷\\u0591 😀\\u0949');
	});

	it('keeps Hangul jamo that continue a syllable and escapes a lone vowel or final', () => {
		expect(sanitizeLine('\u1100\u1161\u11A8 가\u11A8 a\u1161 \u11A8')).toBe('\u1100\u1161\u11A8 가\u11A8 a\\u1161 \\u11a8');
	});

	it('keeps private-use characters (Nerd Font icons) and the replacement character', () => {
		expect(sanitizeLine('\uE0A0 main \uF113 \uFFFD')).toBe('\uE0A0 main \uF113 \uFFFD');
	});

	it('keeps only newline and tab in copied text', () => {
		expect(sanitizeText('a\r\nb\tc\rd\u0007')).toBe('a\nb\tc\\rd\\x07');
	});
});

describe('narrow text (text-width.ts) passes the rule untouched', () => {
	const narrow = narrowCharacters();

	it('as the full walk decides (a wide character beside it forces the walk)', () => {
		expect(narrow.length).toBeGreaterThan(1500);
		const changed = narrow.filter(character => sanitizeText(`日${character}`) !== `日${character}` || sanitizeLine(`日${character}`) !== `日${character}`
			|| escapeUnsafe(`日${character}`) !== `日${character}` || stringifyForTerminal({text: `日${character}`}) !== JSON.stringify({text: `日${character}`}));
		expect(changed.map(character => character.codePointAt(0)!.toString(16))).toEqual([]);
	});

	it('while what is not narrow is still escaped in JSON and text', () => {
		expect(stringifyForTerminal({text: 'a\u202eb — c'})).toBe('{"text":"a\\u202eb — c"}');
		expect(sanitizeText('x\u200by — z')).toBe('x\\u200by — z');
	});
});
