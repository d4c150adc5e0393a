import {describe, expect, it} from 'vitest';
import {fitLiveRows} from '../../components/fit-live-rows.js';
import type {StyledLine} from '../../src/layout/text/styled-line.js';

const row = (text: string): StyledLine => ({spans: [{text}]});
const card = (name: string, body: number): StyledLine[] => [row(`# ${name}`), ...Array.from({length: body}, (_, index) => row(`${name}${index + 1}`))];
const marker = (hidden: number) => row(`… ${hidden} more`);
const texts = (lines: StyledLine[]) => lines.map(line => line.spans[0]!.text);

describe('fitLiveRows', () => {
	it('keeps everything that fits', () => {
		expect(texts(fitLiveRows([card('a', 2), card('b', 1)], 10, marker))).toEqual(['# a', 'a1', 'a2', '# b', 'b1']);
	});

	it('gives the newest card its tail first and keeps every header', () => {
		expect(texts(fitLiveRows([card('a', 5), card('b', 5)], 6, marker))).toEqual(['# a', '# b', '… 2 more', 'b3', 'b4', 'b5']);
	});

	it('never returns more rows than the budget', () => {
		for (let budget = 0; budget < 20; budget++) {
			expect(fitLiveRows([card('a', 7), card('b', 3), card('c', 9)], budget, marker).length).toBeLessThanOrEqual(budget);
		}
	});

	it('shows the newest headers when even the headers do not fit', () => {
		expect(texts(fitLiveRows([card('a', 1), card('b', 1), card('c', 1)], 2, marker))).toEqual(['# b', '# c']);
	});
});
