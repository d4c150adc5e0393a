import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {escapeUnsafe, sanitizeInline, sanitizeLine, sanitizeLines} from '../../src/layout/sanitize.js';

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

	it('keeps zero-width characters in multi-line text but escapes them in one-row fields', () => {
		expect(sanitizeLine('a\u200Bb')).toBe('a\u200Bb');
		expect(sanitizeInline('a\u200Bb\uFEFF')).toBe('a\\u200bb\\ufeff');
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
		fc.assert(fc.property(fc.string({unit: fc.constantFrom('a', ' ', '\t', 'é', '漢', '\u001B', '\n')}), fc.nat(20), fc.boolean(), (text, column, inline) => {
			expect(sanitizeLine(text, {startColumn: column, inline})).toBe(sanitizeLine(`${text}é`, {startColumn: column, inline}).slice(0, -1));
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
