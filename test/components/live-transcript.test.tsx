/**
The live transcript as a person sees it (issue 13, items 1 and 2): a settled card sits directly above
the prompt with earlier output above it, however tall it is; cards that settle while Ctrl+O's pager
is open show there live and reach the scrollback, in order, when it closes.
*/
import {describe, expect, it, vi} from 'vitest';

vi.hoisted(() => {
	process.env.FORCE_COLOR = '1';
});

const {startInteractive} = await import('./harness/interactive-screen.js');
const {keys} = await import('./harness/fake-terminal.js');
const {SPINNER_FRAMES} = await import('../../src/layout/cards/card-header.js');

/** The viewport's rows as text, trailing blank rows dropped. */
function viewportRows(tty: import('./harness/fake-terminal.js').FakeTty): string[] {
	const buffer = tty.terminal.buffer.active;
	const rows: string[] = [];
	for (let y = buffer.viewportY; y < buffer.viewportY + tty.terminal.rows; y++) {
		rows.push(buffer.getLine(y)?.translateToString(true) ?? '');
	}

	while (rows.length > 0 && rows.at(-1) === '') {
		rows.pop();
	}

	return rows;
}

/** Every buffer row as text (scrollback included), trailing blank rows dropped. */
function bufferRows(tty: import('./harness/fake-terminal.js').FakeTty): string[] {
	const rows = tty.text().split('\n');
	while (rows.length > 0 && rows.at(-1) === '') {
		rows.pop();
	}

	return rows;
}

describe('a settled card in the live transcript', () => {
	it('sits directly above the prompt when its output was taller than the screen, the card before it right above it on screen', async () => {
		const screen = await startInteractive('tall-settled', {columns: 80, rows: 24});
		try {
			await screen.type('!echo before', '● bash echo before');
			await screen.type('!for i in $(seq 1 60); do echo L$i; sleep 0.02; done', 'earlier lines not shown');
			await screen.tty.waitForText('● bash for i');
			const rows = viewportRows(screen.tty);
			// The running card's live rows were capped at what it takes once settled, so nothing was pushed
			// off the screen: the card before it is still on screen right above it, and the settled card
			// (folded) ends one blank row above the prompt and the status line.
			expect(rows.slice(0, 5)).toEqual([expect.stringMatching(/^● bash echo before/), '$ echo before', 'before', '', expect.stringMatching(/^● bash for i/)]);
			expect(rows.slice(-5)).toEqual(['L59', 'L60', '', expect.stringMatching(/^> /) as unknown as string, expect.stringMatching(/^\/tmp\/cardterm-screen-tall-settled · ● 2 ok · /) as unknown as string]);
			// Earlier output is right above it in the scrollback: no blank run between the two cards.
			const all = bufferRows(screen.tty);
			const header = all.findIndex(row => row.startsWith('● bash for i'));
			expect(all.slice(header - 4, header)).toEqual([expect.stringMatching(/^● bash echo before/), '$ echo before', 'before', '']);
			expect(all.filter(row => row.startsWith('● bash for i'))).toHaveLength(1);
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('keeps the output above a shorter card on a full screen, the prompt on the last rows', async () => {
		const screen = await startInteractive('short-settled', {columns: 80, rows: 24});
		try {
			// Fill the screen first, so the live region sits at its bottom.
			await screen.type('!seq 1 8', '● bash seq 1 8');
			await screen.type('!seq 11 18', '● bash seq 11 18');
			await screen.type('!for i in 1 2 3 4 5; do echo S$i; sleep 0.1; done', 'S2');
			await screen.tty.waitForText('● bash for i');
			const rows = viewportRows(screen.tty);
			// Ink leaves the cursor on the row under its frame: the status line is the screen's last row but one.
			expect(rows).toHaveLength(23);
			expect(rows.slice(-14)).toEqual([
				'16', '17', '18', '',
				expect.stringMatching(/^● bash for i/), expect.stringMatching(/^\$ for i/), 'S1', 'S2', 'S3', 'S4', 'S5', '',
				expect.stringMatching(/^> /), expect.stringMatching(/^\/tmp\/cardterm-screen-short-settled · ● 3 ok · /),
			]);
		} finally {
			await screen.close();
		}
	}, 60_000);
});

describe('cards that settle while the Ctrl+O pager is open', () => {
	it('turn ● in the pager as they settle, and reach the scrollback in order when it closes', async () => {
		const screen = await startInteractive('pager-live', {columns: 80, rows: 24});
		try {
			await screen.type('!echo first', '● bash echo first');
			screen.stdin.send('!sleep 1; echo MARK1\r');
			await screen.tty.waitForText('○ bash sleep 1');
			// Queued behind the sleep: it runs and settles while the pager is open too.
			screen.stdin.send('!echo MARK2\r');
			await screen.tty.waitForText('↳ !echo MARK2');
			await screen.press(keys.ctrlO);
			expect(screen.tty.terminal.buffer.active.type).toBe('alternate');
			expect(screen.tty.frame(false)).toContain('○ bash sleep 1; echo MARK1');
			await screen.tty.waitForText('● bash echo MARK2');
			const pager = screen.tty.frame(false);
			expect(pager).toContain('● bash sleep 1; echo MARK1');
			expect(pager).toContain('3/3');
			await screen.press('q');
			expect(screen.tty.terminal.buffer.active.type).toBe('normal');
			await screen.tty.waitForText('● bash echo MARK2');
			const all = bufferRows(screen.tty);
			const headers = all.filter(row => row.startsWith('● bash'));
			expect(headers.map(row => row.replace(/ · .*$/, ''))).toEqual(['● bash echo first', '● bash sleep 1; echo MARK1', '● bash echo MARK2']);
			expect(all).toContain('MARK1');
			expect(all).toContain('MARK2');
		} finally {
			await screen.close();
		}
	}, 60_000);
});

describe('stopping a running call', () => {
	it('Esc cancels it; the status line says so while it runs', async () => {
		const screen = await startInteractive('esc-cancel', {columns: 80, rows: 24});
		try {
			await screen.type('!sleep 30', '○ bash sleep 30');
			expect(viewportRows(screen.tty).at(-1)).toMatch(/^Esc to cancel · \/tmp\/cardterm-screen-esc-cancel · ○ 1 running/);
			await screen.press(keys.escape);
			await screen.tty.waitForText('⊘ bash sleep 30');
			expect(viewportRows(screen.tty).at(-1)).not.toContain('Esc to cancel');
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('shows a line typed while one runs as a row above the prompt; Ctrl+C holds it and says so; Enter runs it', async () => {
		const screen = await startInteractive('held-queue', {columns: 80, rows: 24});
		try {
			await screen.type('!sleep 30', '○ bash sleep 30');
			await screen.type('!echo one', '↳ !echo one');
			expect(viewportRows(screen.tty).slice(-4)).toEqual(['↳ !echo one', '  Alt+↑ edit · Alt+↓ drop the newest', '>  the next command waits for this one · Esc cancels', expect.stringMatching(/^Esc to cancel · /u)]);
			await screen.press(keys.ctrlC);
			await screen.tty.waitForText('1 line still queued, not run: !echo one — Enter runs it, Ctrl+C drops it');
			expect(viewportRows(screen.tty).slice(-4, -2)).toEqual(['↳ !echo one', '  held: Enter runs, Ctrl+C drops · Alt+↑ edit · Alt+↓ drop the newest']);
			expect(screen.tty.text()).not.toContain('● bash echo one');
			await screen.press(keys.enter);
			await screen.tty.waitForText('● bash echo one');
			expect(viewportRows(screen.tty).join('\n')).not.toContain('↳');
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('a second Ctrl+C drops the held lines, naming them', async () => {
		const screen = await startInteractive('drop-queue', {columns: 80, rows: 24});
		try {
			await screen.type('!sleep 30', '○ bash sleep 30');
			await screen.type('!echo one', '↳ !echo one');
			await screen.type('!echo two', '↳ !echo two');
			await screen.press(keys.ctrlC);
			await screen.tty.waitForText('2 lines still queued, not run');
			await screen.press(keys.ctrlC);
			await screen.tty.waitForText('dropped 2 lines that waited: !echo one · !echo two');
			expect(viewportRows(screen.tty).join('\n')).not.toContain('↳');
			await screen.type('!echo three', '● bash echo three');
			expect(screen.tty.text()).not.toContain('● bash echo one');
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('Alt+↑ takes the newest queued line back to the prompt to edit, Enter queues it again; Alt+↓ drops the newest, naming it', async () => {
		const screen = await startInteractive('edit-queue', {columns: 80, rows: 24});
		try {
			await screen.type('!sleep 30', '○ bash sleep 30');
			await screen.type('!echo frist', '↳ !echo frist');
			await screen.type('!echo dropped', '↳ !echo dropped');
			await screen.press(keys.altDown);
			await screen.tty.waitForText('dropped 1 line that waited: !echo dropped');
			expect(viewportRows(screen.tty).filter(row => row.startsWith('↳'))).toEqual(['↳ !echo frist']);
			await screen.press(keys.altUp);
			// Back at the prompt, out of the queue: the rows are gone, the line is there to edit.
			expect(viewportRows(screen.tty).filter(row => row.startsWith('↳'))).toEqual([]);
			expect(viewportRows(screen.tty).at(-2)?.trimEnd()).toBe('> !echo frist');
			await screen.press('\u007F\u007F\u007F\u007First');
			await screen.type('', '↳ !echo first');
			// The sleep cancelled, the queue is held; Enter runs the edited line, never the dropped one.
			await screen.press(keys.ctrlC);
			await screen.tty.waitForText('1 line still queued, not run: !echo first');
			await screen.type('', '● bash echo first');
			expect(bufferRows(screen.tty)).toContain('first');
			expect(screen.tty.text()).not.toContain('● bash echo frist');
			expect(screen.tty.text()).not.toContain('● bash echo dropped');
			// With nothing queued, Alt+↑ walks the history as ↑ does.
			await screen.press(keys.altUp);
			expect(viewportRows(screen.tty).at(-2)?.trimEnd()).toBe('> !echo first');
		} finally {
			await screen.close();
		}
	}, 60_000);
});

describe('the running card spinner', () => {
	it('turns once a second with motion on, and is the plain ○ without it', async () => {
		let time = 1000;
		const moving = await startInteractive('spinner', {columns: 80, rows: 24, motion: true, now: () => time});
		try {
			await moving.type('!sleep 30', 'sleep 30');
			const glyphs = new Set<string>();
			for (const at of [1000, 2000, 3000]) {
				time = at;
				// one clock tick after another
				await moving.tty.waitForText(`${SPINNER_FRAMES[((at - 1000) / 1000) % 4]} bash sleep 30`, 5000);
				glyphs.add(viewportRows(moving.tty).find(row => row.includes('bash sleep 30'))![0]!);
			}

			expect([...glyphs]).toEqual(['◐', '◓', '◑']);
			await moving.press(keys.escape);
			await moving.tty.waitForText('⊘ bash sleep 30');
		} finally {
			await moving.close();
		}

		const still = await startInteractive('no-spinner', {columns: 80, rows: 24});
		try {
			await still.type('!sleep 30', '○ bash sleep 30');
			await still.press(keys.escape);
			await still.tty.waitForText('⊘ bash sleep 30');
		} finally {
			await still.close();
		}
	}, 60_000);
});
