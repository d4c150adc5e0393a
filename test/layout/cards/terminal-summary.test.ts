import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import type {BodyContext} from '../../../src/layout/cards/body-text.js';
import {foldBody, OK_ROW_BUDGET} from '../../../src/layout/cards/fold-body.js';
import {layoutTerminalBody} from '../../../src/layout/cards/terminal-card.js';
import {emulateTerminalOutput} from '../../../src/layout/terminal/terminal-output.js';
import {colorTheme} from '../../../src/layout/text/theme.js';
import type {TerminalResultView} from '../../../src/tools/views.js';

/** Output pieces near every rule of the emulation: text, blanks, colours, redraws, erases, dropped strings, stderr. */
const piece = fc.constantFrom(
	'ok', 'all tests passed', 'Ж漢', ' ', '   ', '\n', '\n\n', '\r', '\r\n', '\b', '\t', '\x1b[31m', '\x1b[0m', '\x1b[1;32m', '\x1b[K', '\x1b[2K',
	'\x1b]0;title\x07', '\x1b]0;hidden words\n', '\x1b', '\x9b2J', '\x07', '\x01', '[stderr]\n', '(no output)', 'word ', 'x'.repeat(50),
);
const output = fc.array(piece, {maxLength: 20}).map(parts => parts.join(''));

describe('a terminal card\'s summary', () => {
	test('emulating until a line is found gives the first lines a whole run gives', () => {
		fc.assert(fc.property(output, fc.integer({min: 1, max: 4}), (text, wanted) => {
			const early = emulateTerminalOutput(text, lines => lines.length >= wanted).lines;
			expect(early).toEqual(emulateTerminalOutput(text).lines.slice(0, early.length));
			expect(early.length).toBe(Math.min(wanted, emulateTerminalOutput(text).lines.length));
		}), {numRuns: 3000});
	});

	test('its one row is the row the whole body folds to, with or without a footer, for a success or a failure', () => {
		const result = fc.record({
			output,
			exitCode: fc.constantFrom(undefined, 0, 1, 2),
			signal: fc.constantFrom(undefined, 'SIGTERM'),
			title: fc.constantFrom(undefined, 'npm test'),
		}).map((fields): TerminalResultView => ({card: 'terminal', output: fields.output, ...(fields.exitCode === undefined ? {} : {exitCode: fields.exitCode}), ...(fields.signal === undefined ? {} : {signal: fields.signal}), ...(fields.title === undefined ? {} : {title: fields.title})}));
		fc.assert(fc.property(result, fc.boolean(), fc.integer({min: 4, max: 60}), (view, failure, width) => {
			const policy = {budget: OK_ROW_BUDGET, preferTail: failure};
			const context: BodyContext = {width, theme: colorTheme, expansion: 'summary', keep: policy.budget, ...(failure ? {summaryFromEnd: true} : {})};
			// The body every summary was folded from before: built as a bounded body is.
			const whole = layoutTerminalBody({result: view}, {...context, expansion: 'bounded'});
			expect(foldBody(layoutTerminalBody({result: view}, context), 'summary', policy, width, colorTheme)).toEqual(foldBody(whole, 'summary', policy, width, colorTheme));
		}), {numRuns: 3000});
	});
});
