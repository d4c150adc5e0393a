import {describe, expect, it} from 'vitest';
import {HIGHLIGHT_MAX_PATTERN_LENGTH, matchHighlighter, type MatchPiece} from '../../../src/layout/cards/match-highlight.js';

const matched = (pieces: readonly MatchPiece[]) => pieces.filter(piece => piece.match).map(piece => piece.text);
const joined = (pieces: readonly MatchPiece[]) => pieces.map(piece => piece.text).join('');

describe('match highlight', () => {
	it('highlights with a pattern that would make a backtracking engine run for ages', () => {
		const line = `${'a'.repeat(5000)}!`;
		const pieces = matchHighlighter('(a+)+$|!')(line, 80);
		expect(pieces).toEqual([{text: 'a'.repeat(5000), match: false}, {text: '!', match: true}]);
	});

	it('spends at most the card\'s budget: 250 lines of 2 000 characters full of matches highlight only the first few', () => {
		const highlight = matchHighlighter('a');
		const line = 'a'.repeat(2000);
		const lines = Array.from({length: 250}, () => highlight(line, 80));
		expect(lines.every(pieces => joined(pieces) === line)).toBe(true);
		expect(matched(lines[0]!)).toEqual(Array.from({length: 80}, () => 'a'));
		const highlighted = lines.filter(pieces => matched(pieces).length > 0).length;
		expect(highlighted).toBeGreaterThan(1);
		expect(highlighted).toBeLessThan(20);
		expect(lines.at(-1)).toEqual([{text: line, match: false}]);
	});

	it('gives each card its own budget, however often a pattern comes back (its compiled form is shared)', () => {
		const line = 'a'.repeat(2000);
		const spent = matchHighlighter('a');
		for (let index = 0; index < 250; index++) {
			spent(line, 80);
		}

		expect(spent(line, 80)).toEqual([{text: line, match: false}]);
		expect(matched(matchHighlighter('a')(line, 80))).toHaveLength(80);
		expect(matched(matchHighlighter('a+')(line, 80))).toEqual([line]);
	});

	it('highlights every line of an ordinary card: 250 lines of 100 characters, one match each', () => {
		const highlight = matchHighlighter('(?i)error');
		const line = `${'x'.repeat(50)}Error${'y'.repeat(45)}`;
		const lines = Array.from({length: 250}, () => highlight(line, 80));
		expect(lines.every(pieces => matched(pieces).join() === 'Error')).toBe(true);
	});

	it('shows the line without highlight when the pattern is refused, too large or not a string', () => {
		const line = 'xaxy';
		expect(matched(matchHighlighter('x|\\pL{500}')(line, 80))).toEqual(['x', 'x']);
		// Each would highlight the `x`s if it were compiled.
		const tooLarge = ['x|\\pL{1000}|\\pN{1000}|\\pM{1000}', `x${'|x'.repeat(HIGHLIGHT_MAX_PATTERN_LENGTH)}`];
		for (const pattern of ['x(?=a)', 'x|(a)\\1', ...tooLarge, '', 42, undefined]) {
			expect(matchHighlighter(pattern)(line, 80)).toEqual([{text: line, match: false}]);
		}
	});
});
