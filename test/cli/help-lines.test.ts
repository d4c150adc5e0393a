import {describe, expect, it} from 'vitest';
import {helpLines} from '../../src/cli/interactive/notice-lines.js';
import {PROMPT_HELP} from '../../src/cli/interactive/prompt-command.js';
import {lineText} from '../../src/layout/spans.js';
import {displayWidth} from '../../src/layout/text-width.js';

// Rows may cut a word wider than the row: compare without any spacing.
const words = (text: string): string => text.replace(/\s+/gu, '');

describe('the /help table fits the width it is written at', () => {
	it.each([100, 60, 40, 24])('at %i columns no row is wider and nothing is cut', width => {
		const rows = helpLines(width).map(line => lineText(line));
		expect(Math.max(...rows.map(row => displayWidth(row)))).toBeLessThanOrEqual(width);
		const all = words(rows.join(' '));
		for (const [form, what] of PROMPT_HELP) {
			expect(all).toContain(words(form));
			expect(all).toContain(words(what));
		}
	});

	it('puts each command beside its description when there is room, and below it when not', () => {
		const [form, what] = PROMPT_HELP[0]!;
		const wide = helpLines(120).map(line => lineText(line));
		expect(wide.find(row => row.trimStart().startsWith(form))).toContain(what.slice(0, 10));
		const narrow = helpLines(30).map(line => lineText(line));
		const at = narrow.findIndex(row => row.trim() === form);
		expect(at).toBeGreaterThan(0);
		expect(narrow[at + 1]!.startsWith('      ')).toBe(true);
	});
});
