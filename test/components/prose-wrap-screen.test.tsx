/**
An answer wider than the terminal, as a person sees it (issue 12): the settled answer in the
scrollback shows whole words on every row, and its rows are the terminal's own soft wraps (each
continuation row is marked wrapped), so a selection still copies the paragraph as one line.
*/
import {describe, expect, it} from 'vitest';


const {startInteractive} = await import('./harness/interactive-screen.js');

const words = Array.from({length: 24}, (_, index) => `word${index + 1}x`);
const answer = words.join(' ');

describe('a long answer in the live transcript', () => {
	it('wraps between words at the terminal\'s width, every continuation row a soft wrap of the terminal', async () => {
		const screen = await startInteractive('prose-wrap', {columns: 40, rows: 24, agent: {script: [{text: answer}]}});
		try {
			await screen.type('say many words', 'word24x');
			await screen.tty.waitForText('── completed');
			const buffer = screen.tty.terminal.buffer.active;
			const rows: Array<{text: string; wrapped: boolean}> = [];
			for (let y = 0; y < buffer.length; y++) {
				const line = buffer.getLine(y)!;
				rows.push({text: line.translateToString(true), wrapped: line.isWrapped});
			}

			const first = rows.findIndex(row => row.text.startsWith('word1x '));
			expect(first).toBeGreaterThanOrEqual(0);
			let last = first;
			while (rows[last + 1]?.wrapped === true) {
				last++;
			}

			// A row ends with the space it broke at and the padding written up to the terminal's width.
			expect(rows.slice(first, last).every(row => row.text.length === 40 && row.text.endsWith(' '))).toBe(true);
			const answerRows = rows.slice(first, last + 1).map(row => row.text.trimEnd());
			// Wider than the terminal: several rows, each at most 40 columns, each starting and ending on a whole word.
			expect(answerRows.length).toBeGreaterThan(2);
			expect(answerRows.every(row => row.length <= 40 && /^word\d+x( word\d+x)*$/.test(row))).toBe(true);
			// One logical line: the rows, words joined by single spaces, are the answer.
			expect(answerRows.join(' ')).toBe(answer);
		} finally {
			await screen.close();
		}
	}, 60_000);
});
