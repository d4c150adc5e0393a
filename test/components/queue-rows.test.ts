/**
The rows above the prompt for work that waits (components/QueueRows.tsx): one row per piece, as
typed, within the width whatever it holds; a long queue keeps its first and newest; the key hint
says what the keys do, and that a cancel holds the queue.
*/
import {describe, expect, it} from 'vitest';
import {queueRowTexts} from '../../components/QueueRows.js';
import {displayWidth} from '../../src/layout/text/text-width.js';

const queue = (...labels: string[]) => labels.map((label, index) => ({id: index + 1, label}));

describe('the queue rows', () => {
	it('shows each piece on a row of its own, in the order it will run, then the keys', () => {
		expect(queueRowTexts(queue('fix the failing test', '!npm test'), false, 80, 10)).toEqual(['↳ fix the failing test', '↳ !npm test', '  Alt+↑ edit · Alt+↓ drop the newest']);
		expect(queueRowTexts([], false, 80, 10)).toEqual([]);
	});

	it('says a cancel holds the queue and what Enter and Ctrl+C do, shortest first on a narrow terminal', () => {
		expect(queueRowTexts(queue('a'), true, 120, 10).at(-1)).toBe('  held after the cancel: Enter runs all, Ctrl+C drops all · Alt+↑ edit · Alt+↓ drop the newest');
		expect(queueRowTexts(queue('a'), true, 60, 10).at(-1)).toBe('  held: Enter runs, Ctrl+C drops · Alt+↑ edit · Alt+↓ drop');
		expect(queueRowTexts(queue('a'), true, 36, 10).at(-1)).toBe('  held: Enter runs, Ctrl+C drops');
	});

	it('keeps the first and the newest of a long queue, counting the rest; never more rows than the screen leaves', () => {
		const long = queue('one', 'two', 'three', 'four', 'five');
		expect(queueRowTexts(long, false, 80, 10)).toEqual(['↳ one', '  … 3 more queued', '↳ five', '  Alt+↑ edit · Alt+↓ drop the newest']);
		expect(queueRowTexts(long, false, 80, 2)).toEqual(['↳ five', '  Alt+↑ edit · Alt+↓ drop the newest']);
		expect(queueRowTexts(long, false, 80, 0)).toEqual([]);
	});

	it('shows a text of several lines as its first line and how many follow; hostile text escaped and cut to the width, however large', () => {
		expect(queueRowTexts(queue('and this trace:\nError: boom\n  at main\n'), false, 80, 10)[0]).toBe('↳ and this trace: (+2 lines)');
		const hostile = `\u001B]0;owned\u0007\u001B[2J${'x'.repeat(10_000_000)}\n${'\n'.repeat(100_000)}`;
		const [row] = queueRowTexts(queue(hostile), false, 40, 10);
		expect(row).not.toMatch(/[\u0000-\u001F\u007F-\u009F]/u);
		expect(displayWidth(row!)).toBeLessThanOrEqual(40);
		expect(row).toMatch(/… \(\+100000 lines\)$/u);
	});
});
