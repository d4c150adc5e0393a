/**
The model's Markdown answer in the live session's scrollback (issue 16, first day item 18), through
the real interactive app (screen harness) and the fake model server: a heading without its `#`
marker, a code block without its fence rows, as the pager and print draw them.
*/
import {describe, expect, it} from 'vitest';
import {startInteractive} from './harness/interactive-screen.js';

describe('a Markdown answer in the live session', () => {
	it('shows headings without # and code without fences', async () => {
		const screen = await startInteractive('markdown-live', {columns: 80, rows: 24, agent: {script: [
			{text: '## Done\n\nThe flag is off:\n\n```ts\nconst debug = false;\n```\n\n### Next\n\nRun the tests.'},
		]}});
		try {
			await screen.type('is it done?', 'Run the tests.');
			const rows = screen.tty.text().split('\n').map(row => row.trimEnd());
			const from = rows.indexOf('Done');
			expect(from).toBeGreaterThanOrEqual(0);
			expect(rows.slice(from, from + 7)).toEqual(['Done', '', 'The flag is off:', '', '  const debug = false;', '', 'Next']);
			expect(rows.some(row => row.includes('#') || row.includes('```'))).toBe(false);
		} finally {
			await screen.close();
		}
	});
});
