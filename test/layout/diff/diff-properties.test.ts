import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {computeHunks} from '../../../src/builtin/fs/hunks.js';
import {layoutDiffBody} from '../../../src/layout/cards/diff-card.js';
import {lineText} from '../../../src/layout/text/spans.js';
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

			// A line's marker is its first span after the number gutter (a muted span of digits and spaces).
			const marker = (row: typeof body.lines[number]) => (row.spans[0]?.style === colorTheme.muted && /^ *\d* $/.test(row.spans[0].text) ? row.spans[1] : row.spans[0]);
			const starts = (style: object) => body.lines.filter(row => row.softWrap !== true && marker(row)?.style === style).length;
			const footer = body.lines.slice(-(body.pinnedBottom ?? 0)).map(row => row.spans.map(span => span.text).join('')).join('');
			expect(footer.startsWith(`+${starts(colorTheme.added)} −${starts(colorTheme.removed)} · `)).toBe(true);
		}));
	});

	test('a bounded body fits its budget, hides context before changed lines, and shows a −/+ run whole or not at all', () => {
		// One numbered file (real hunks), lines unique by number and marker, short enough not to wrap.
		const fileLines = fc.array(fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'x'), {minLength: 1, maxLength: 80});
		const edit = fileLines.chain(old => fc.array(fc.tuple(fc.nat({max: old.length}), fc.nat({max: 3}), fc.array(fc.constantFrom('new', 'other', 'x'), {maxLength: 6})), {maxLength: 12}).map(edits => {
			const lines: string[] = [...old];
			for (const [at, removed, added] of edits) {
				lines.splice(Math.min(at, lines.length), removed, ...added);
			}

			return {old, lines};
		}));
		const parse = (text: string) => /^ *\d+ ([-+ ]) /.exec(text)?.[1];
		let folded = 0;
		fc.assert(fc.property(edit, fc.constantFrom(OK_ROW_BUDGET, FAILURE_ROW_BUDGET), ({old, lines}, budget) => {
			const hunks = computeHunks('f.txt', `${old.join('\n')}\n`, `${lines.join('\n')}\n`);
			const context = {width: 80, theme: monochromeTheme, expansion: 'bounded', budget} as const;
			const bounded = layoutDiffBody(hunks, context).lines.map(lineText);
			const full = layoutDiffBody(hunks, {...context, expansion: 'full'}).lines.map(lineText);
			expect(bounded.length).toBeLessThanOrEqual(Math.max(budget, 0));
			// Every shown line is a line of the whole body, in order (gap rows may count more lines).
			const shownLines = bounded.filter(text => parse(text) !== undefined);
			const fullLines = full.filter(text => parse(text) !== undefined);
			let from = 0;
			for (const text of shownLines) {
				from = fullLines.indexOf(text, from) + 1;
				expect(from).toBeGreaterThan(0);
			}

			const marker = bounded.some(text => text.startsWith('… '));
			folded += marker ? 1 : 0;
			if (marker) {
				// Changed lines are hidden: context is gone, but for one line between two shown changes.
				for (const [index, text] of bounded.entries()) {
					if (parse(text) === ' ') {
						expect([parse(bounded[index - 1] ?? ''), parse(bounded[index + 1] ?? '')].every(kind => kind === '-' || kind === '+')).toBe(true);
					}
				}
			} else {
				expect(shownLines.filter(text => parse(text) !== ' ')).toEqual(fullLines.filter(text => parse(text) !== ' '));
			}

			// A run of − and + lines that the room can hold is shown whole or not at all.
			for (let start = 0; start < full.length; start++) {
				let end = start;
				while (end < full.length && (parse(full[end]!) === '-' || parse(full[end]!) === '+')) {
					end++;
				}

				const run = full.slice(start, end);
				if (run.length > 0 && run.length <= budget - 3 && new Set(run.map(parse)).size === 2) {
					const shown = run.filter(text => bounded.includes(text)).length;
					expect(shown === 0 || shown === run.length).toBe(true);
				}

				start = end;
			}
		}), {numRuns: 300});
		// The property is about folded bodies, not only about short ones.
		expect(folded).toBeGreaterThan(50);
	});

	test('a bounded body folds to at most its budget at any width, and its summary is its footer', () => {
		const longSide = fc.array(line, {minLength: 20, maxLength: 90}).map(lines => lines.join('\n'));
		const longDiff = fc.record({path: fc.constantFrom('a.txt', 'b.txt'), oldText: fc.option(longSide, {nil: null}), newText: longSide});
		const policies = [{budget: OK_ROW_BUDGET, preferTail: false}, {budget: FAILURE_ROW_BUDGET, preferTail: true}];
		fc.assert(fc.property(fc.array(longDiff, {minLength: 1, maxLength: 3}), fc.integer({min: 4, max: 30}), fc.constantFrom(colorTheme, monochromeTheme), fc.integer({min: 1, max: 40}), (diffs, width, theme, maxEditLength) => {
			for (const policy of policies) {
				const bounded = layoutDiffBody(diffs, {width, theme, expansion: 'bounded', budget: policy.budget}, {maxEditLength});
				expect(foldBody(bounded, 'bounded', policy, width, theme).length).toBeLessThanOrEqual(policy.budget);
				for (const row of bounded.lines) {
					expect(displayWidth(lineText(row))).toBeLessThanOrEqual(width);
				}

				const every = layoutDiffBody(diffs, {width, theme, expansion: 'full'}, {maxEditLength});
				expect(foldBody(bounded, 'summary', policy, width, theme)).toEqual(foldBody(every, 'summary', policy, width, theme));
			}
		}), {numRuns: 100});
	});
});
