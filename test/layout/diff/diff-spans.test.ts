import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {composeSpans} from '../../../src/layout/diff/diff-spans.js';
import {wrapSpans} from '../../../src/layout/text/spans.js';
import {wrapToWidth} from '../../../src/layout/text/text-width.js';

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

	test('split into spans anywhere, the rows still cut where wrapToWidth cuts the joined text and keep each span\'s style', () => {
		const unit = fc.constantFrom('a', ' ', '~', '漢', 'é');
		const styled = fc.record({text: fc.string({unit, maxLength: 6}), bold: fc.boolean()});
		fc.assert(fc.property(fc.array(styled, {maxLength: 5}), fc.integer({min: 1, max: 12}), (parts, width) => {
			const spans = parts.map(part => (part.bold ? {text: part.text, style: {bold: true}} : {text: part.text}));
			const text = parts.map(part => part.text).join('');
			const lines = wrapSpans(spans, width);
			expect(lines.map(line => line.spans.map(span => span.text).join(''))).toEqual(text === '' ? [''] : wrapToWidth(text, width));
			const boldMask = (items: ReadonlyArray<{readonly text: string; readonly style?: {readonly bold?: boolean}}>) =>
				items.map(item => (item.style?.bold === true ? '1' : '0').repeat(item.text.length)).join('');
			expect(boldMask(lines.flatMap(line => line.spans))).toBe(boldMask(spans));
			expect(lines.flatMap(line => line.spans).every(span => span.text !== '')).toBe(true);
		}));
	});
});
