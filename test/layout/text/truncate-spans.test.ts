import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {span, truncateSpans} from '../../../src/layout/text/spans.js';
import type {Span} from '../../../src/layout/text/styled-line.js';
import {displayWidth, graphemes} from '../../../src/layout/text/text-width.js';

/** Truncation grapheme by grapheme, as a terminal counts columns: what the fast slice of narrow text must equal. */
function reference(spans: readonly Span[], width: number): Span[] {
	if (spans.reduce((sum, item) => sum + displayWidth(item.text), 0) <= width) {
		return spans.filter(item => item.text !== '');
	}

	const room = width - 1;
	if (room < 0) {
		return [];
	}

	const out: Span[] = [];
	let used = 0;
	let last: Span | undefined;
	for (const source of spans) {
		let text = '';
		let full = true;
		for (const grapheme of graphemes(source.text)) {
			if (used + displayWidth(grapheme) > room) {
				full = false;
				break;
			}

			text += grapheme;
			used += displayWidth(grapheme);
		}

		last = source;
		if (text !== '') {
			out.push(text === source.text ? source : span(text, source.style));
		}

		if (!full) {
			break;
		}
	}

	out.push(span('…', last?.style));
	return out;
}

describe('truncateSpans', () => {
	test('it cuts where a grapheme-by-grapheme count of columns cuts, narrow text or wide', () => {
		const unit = fc.constantFrom('a', ' ', 'é', '—', '漢', '❤️', 'e\u0301', 'Ж');
		const spans = fc.array(fc.record({text: fc.array(unit, {maxLength: 12}).map(parts => parts.join('')), bold: fc.boolean()}), {maxLength: 4})
			.map(parts => parts.map(part => span(part.text, part.bold ? {bold: true} : undefined)));
		fc.assert(fc.property(spans, fc.integer({min: 0, max: 20}), (sample, width) => {
			expect(truncateSpans(sample, width)).toEqual(reference(sample, width));
		}), {numRuns: 3000});
	});
});
