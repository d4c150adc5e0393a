import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {wrapProseSpans, wrapSpans} from '../../../src/layout/text/spans.js';
import {wrapProse, wrapToWidth} from '../../../src/layout/text/text-width.js';

const unit = fc.constantFrom('a', 'b', ' ', ' ', '  ', 'word', 'é', '漢', '❤️', 'e\u0301', '-');
const text = fc.array(unit, {maxLength: 60}).map(parts => parts.join(''));
const width = fc.integer({min: 1, max: 16});
const maxRows = fc.integer({min: 1, max: 6});

describe('wrapping only the first rows (a fold\'s head)', () => {
	test('wrapProse and wrapToWidth give the first rows of the whole wrap', () => {
		fc.assert(fc.property(text, width, maxRows, (sample, columns, rows) => {
			expect(wrapProse(sample, columns, rows)).toEqual(wrapProse(sample, columns).slice(0, rows));
			expect(wrapToWidth(sample, columns, rows)).toEqual(wrapToWidth(sample, columns).slice(0, rows));
		}), {numRuns: 3000});
	});

	test('so do the span wrappers, styles and soft wraps included', () => {
		const styled = fc.array(fc.record({text, bold: fc.boolean()}), {minLength: 1, maxLength: 4}).map(parts => parts.map(part => (part.bold ? {text: part.text, style: {bold: true}} : {text: part.text})));
		fc.assert(fc.property(styled, width, maxRows, (spans, columns, rows) => {
			expect(wrapProseSpans(spans, columns, rows)).toEqual(wrapProseSpans(spans, columns).slice(0, rows));
			expect(wrapSpans(spans, columns, rows)).toEqual(wrapSpans(spans, columns).slice(0, rows));
		}), {numRuns: 3000});
	});

	test('a long line asked for one row gives that row alone, not the whole line', () => {
		expect(wrapProseSpans([{text: 'one two three four'}], 8, 1)).toEqual([{spans: [{text: 'one two '}]}]);
	});
});
