import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {layoutDiffBody} from '../../../src/layout/cards/diff-card.js';
import {foldBody, FAILURE_ROW_BUDGET, OK_ROW_BUDGET} from '../../../src/layout/cards/fold-body.js';
import {computeLineDiff, splitLines} from '../../../src/layout/diff/line-diff.js';
import {colorTheme, monochromeTheme} from '../../../src/layout/text/theme.js';
import {displayWidth} from '../../../src/layout/text/text-width.js';

const line = fc.string({unit: fc.constantFrom('a', 'b', ' ', '\t', '漢', '❤️', '\u001B', 'x'), maxLength: 12});
const side = fc.array(line, {maxLength: 16}).chain(lines => fc.boolean().map(trailing => lines.join('\n') + (trailing && lines.length > 0 ? '\n' : '')));
const fileDiff = fc.record({path: fc.constantFrom('a.txt', 'b.txt'), oldText: fc.option(side, {nil: null}), newText: side});

describe('diff layout invariants', () => {
	test('every old and new line is accounted for by context, changed and gap rows', () => {
		fc.assert(fc.property(fileDiff, fc.integer({min: 1, max: 8}), (diff, maxEditLength) => {
			const result = computeLineDiff(diff, {maxEditLength});
			let context = 0;
			let gaps = 0;
			let added = 0;
			let removed = 0;
			for (const row of result.rows) {
				if (row.kind === 'gap') {
					gaps += row.count;
				} else if (row.kind === 'context') {
					context++;
				} else if (row.kind === 'added') {
					added++;
				} else {
					removed++;
				}
			}

			expect({added, removed}).toEqual({added: result.added, removed: result.removed});
			expect(context + gaps + removed).toBe(diff.oldText === null ? 0 : splitLines(diff.oldText).length);
			expect(context + gaps + added).toBe(splitLines(diff.newText).length);
		}));
	});

	test('no row is wider than the width, and the footer counts the −/+ rows', () => {
		fc.assert(fc.property(fc.array(fileDiff, {maxLength: 3}), fc.integer({min: 4, max: 30}), (diffs, width) => {
			const body = layoutDiffBody(diffs, {width, theme: colorTheme, expansion: 'full'}, {maxEditLength: 6});
			for (const row of body.lines) {
				expect(displayWidth(row.spans.map(span => span.text).join(''))).toBeLessThanOrEqual(width);
				expect(row.spans.every(span => !span.text.includes('\u001B') && !span.text.includes('\t'))).toBe(true);
			}

			const starts = (style: object) => body.lines.filter(row => row.softWrap !== true && row.spans[0]?.style === style).length;
			const footer = body.lines.slice(-(body.pinnedBottom ?? 0)).map(row => row.spans.map(span => span.text).join('')).join('');
			expect(footer.startsWith(`+${starts(colorTheme.added)} −${starts(colorTheme.removed)} · `)).toBe(true);
		}));
	});

	test('a bounded body, which builds only the rows a fold can show, folds to what a body of every row folds to', () => {
		// Long sides (past the 48 rows a bounded body keeps), files of no known language (full and
		// bounded then differ only in the rows built), and widths that wrap.
		const longSide = fc.array(line, {minLength: 20, maxLength: 90}).map(lines => lines.join('\n'));
		const longDiff = fc.record({path: fc.constantFrom('a.txt', 'b.txt'), oldText: fc.option(longSide, {nil: null}), newText: longSide});
		const policies = [{budget: OK_ROW_BUDGET, preferTail: false}, {budget: FAILURE_ROW_BUDGET, preferTail: true}];
		let folded = 0;
		fc.assert(fc.property(fc.array(longDiff, {minLength: 1, maxLength: 3}), fc.integer({min: 4, max: 30}), fc.constantFrom(colorTheme, monochromeTheme), fc.integer({min: 1, max: 40}), (diffs, width, theme, maxEditLength) => {
			const bounded = layoutDiffBody(diffs, {width, theme, expansion: 'bounded'}, {maxEditLength});
			const every = layoutDiffBody(diffs, {width, theme, expansion: 'full'}, {maxEditLength});
			expect(every.omitted).toBeUndefined();
			expect(bounded.lines.length + (bounded.omitted?.count ?? 0)).toBe(every.lines.length);
			folded += bounded.omitted === undefined ? 0 : 1;
			for (const policy of policies) {
				expect(foldBody(bounded, 'bounded', policy, width, theme)).toEqual(foldBody(every, 'bounded', policy, width, theme));
				expect(foldBody(bounded, 'summary', policy, width, theme)).toEqual(foldBody(every, 'summary', policy, width, theme));
			}
		}), {numRuns: 200});
		// The property is about bodies that left rows out, not only about short ones.
		expect(folded).toBeGreaterThan(50);
	});
});
