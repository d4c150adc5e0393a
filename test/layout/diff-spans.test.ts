import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {composeSpans, sanitizeText, wrapSpans} from '../../src/layout/diff-spans.js';
import {sanitizeLine} from '../../src/layout/sanitize.js';
import {wrapToWidth} from '../../src/layout/text-width.js';

describe('sanitizeText', () => {
	test('tabs expand to the next stop of 8 columns counted from the start column', () => {
		expect(sanitizeText('a\tb\t\tc')).toBe('a       b               c');
		expect(sanitizeText('\tx', 3)).toBe('     x');
	});

	test('it agrees with the shared sanitizer on any text and start column', () => {
		fc.assert(fc.property(fc.string({unit: fc.constantFrom('a', ' ', '\t', 'é', '漢', '\u001B', '\n')}), fc.nat(20), (text, column) => {
			expect(sanitizeText(text, column)).toBe(sanitizeLine(text, {startColumn: column}));
		}));
	});
});

describe('composeSpans', () => {
	test('word ranges take the word style alone and syntax styles layer over the base style', () => {
		const syntax = [{text: 'let', style: {fg: 'magenta' as const}}, {text: ' a = 10;'}];
		expect(composeSpans('let a = 10;', {fg: 'green'}, syntax, [[2, 5], [8, 10]], {inverse: true})).toEqual([
			{text: 'le', style: {fg: 'magenta'}},
			{text: 't', style: {inverse: true}},
			{text: ' a', style: {inverse: true}},
			{text: ' = ', style: {fg: 'green'}},
			{text: '10', style: {inverse: true}},
			{text: ';', style: {fg: 'green'}},
		]);
	});
});

describe('wrapSpans', () => {
	test('rows are cut where the joined text wraps, with every later row soft-wrapped', () => {
		expect(wrapSpans([{text: 'abc', style: {bold: true}}, {text: 'de漢f'}], 4)).toEqual([
			{spans: [{text: 'abc', style: {bold: true}}, {text: 'd'}]},
			{spans: [{text: 'e漢f'}], softWrap: true},
		]);
	});
});

describe('wrapSpans agreement', () => {
	test('it cuts exactly where wrapToWidth cuts, ASCII or not', () => {
		fc.assert(fc.property(fc.string({unit: fc.constantFrom('a', ' ', '~', '漢', '❤️', 'é')}), fc.integer({min: 1, max: 12}), (text, width) => {
			const rows = wrapSpans([{text}], width).map(line => line.spans.map(span => span.text).join(''));
			expect(rows).toEqual(text === '' ? [''] : wrapToWidth(text, width));
		}));
	});
});
