/** The shortcuts of small layout helpers give what the general rule gives (each against that rule, written out). */
import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {readableText} from '../../../src/layout/cards/body-text.js';
import {displayTitle} from '../../../src/layout/cards/card-header.js';
import {formatCount} from '../../../src/layout/text/format.js';
import {span} from '../../../src/layout/text/spans.js';

describe('layout shortcuts', () => {
	test('formatCount groups thousands with a space, short counts included', () => {
		fc.assert(fc.property(fc.oneof(fc.integer({min: -2000, max: 2000}), fc.integer(), fc.double({min: -1e12, max: 1e12, noNaN: true}), fc.double({noNaN: true, noDefaultInfinity: true})), value => {
			const digits = String(Math.trunc(Math.abs(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
			expect(formatCount(value)).toBe(value < 0 ? `-${digits}` : digits);
		}));
		expect(formatCount(999)).toBe('999');
		expect(formatCount(1204)).toBe('1 204');
	});

	test('readableText of one line is the line unless it is blank', () => {
		fc.assert(fc.property(fc.string({unit: fc.constantFrom('a', ' ', '\t', '`', '~', '\r', 'x')}), text => {
			const lines = text.split(/\r?\n/);
			expect(readableText(text)).toBe(lines[0]!.trim() === '' ? '' : text);
		}));
		expect(readableText('```')).toBe('```');
		expect(readableText('a\n```\ncode\n```\n')).toBe('a\ncode');
	});

	test('displayTitle rewrites only a closing line window', () => {
		expect(displayTitle('read a.ts (1 - 5)', 'read')).toBe('a.ts · lines 1–5');
		expect(displayTitle('a.ts (7 - 7)', 'read')).toBe('a.ts · line 7');
		expect(displayTitle('a.ts (from line 9)', 'read')).toBe('a.ts · from line 9');
		expect(displayTitle('a.ts (1 - 5) more', 'read')).toBe('a.ts (1 - 5) more');
		expect(displayTitle('git status', 'bash')).toBe('git status');
	});

	test('span drops an empty style and keeps any other, as before', () => {
		expect(span('a', {})).toEqual({text: 'a'});
		expect(Object.keys(span('a', {}))).toEqual(['text']);
		expect(span('a', {bold: true})).toEqual({text: 'a', style: {bold: true}});
		expect(span('a', {}, 'https://x.y')).toEqual({text: 'a', link: 'https://x.y'});
		expect(span('a', Object.create({bold: true}) as object)).toEqual({text: 'a'});
	});
});
