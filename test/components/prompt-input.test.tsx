/**
The prompt as a demanding user types into it (issue 13, items 4 and 5): bracketed paste puts text
in the input and runs nothing without Enter; Shift+Enter, Alt+Enter and `\`+Enter start a new line;
keys that arrive in one read are taken one by one, at the prompt and in the pager.
*/
import {describe, expect, it} from 'vitest';


const {startInteractive} = await import('./harness/interactive-screen.js');
const {keys} = await import('./harness/fake-terminal.js');

const paste = (text: string): string => `\u001B[200~${text}\u001B[201~`;

describe('bracketed paste at the prompt', () => {
	it('turns the mode on, takes a pasted block as text, runs it only on Enter, and turns the mode off at exit', async () => {
		const screen = await startInteractive('paste', {columns: 80, rows: 24});
		try {
			expect(screen.tty.bytes).toContain('\u001B[?2004h');
			await screen.press(paste('!echo one\r\necho two\r\n'));
			await screen.tty.waitForText('> [Pasted text #1 +2 lines]');
			expect(screen.controller.getSnapshot().counts.ok + screen.controller.getSnapshot().counts.running).toBe(0);
			expect(screen.tty.text()).not.toContain('● bash');
			await screen.press(keys.enter);
			await screen.tty.waitForText('● bash');
			const text = screen.tty.text();
			expect(text).toMatch(/^one$/m);
			expect(text).toMatch(/^two$/m);
			expect(screen.controller.getSnapshot().counts.ok).toBe(1);
		} finally {
			await screen.close();
		}

		expect(screen.tty.bytes.lastIndexOf('\u001B[?2004l')).toBeGreaterThan(screen.tty.bytes.lastIndexOf('\u001B[?2004h'));
	}, 60_000);

	it('shows a paste of several lines as one chip, and sends the model the whole text, which the transcript shows whole', async () => {
		const screen = await startInteractive('paste-chip', {columns: 80, rows: 24, agent: {script: [{text: 'Seen all three.'}]}});
		try {
			await screen.press('explain ');
			await screen.press(paste('TypeError: x is undefined\n    at f (a.ts:3)\n    at main (a.ts:9)'));
			await screen.tty.waitForText('> explain [Pasted text #1 +3 lines]');
			expect(screen.tty.text()).not.toContain('at main');
			// The chip is one unit: Backspace removes all of it, typing it back pastes it again.
			await screen.press(keys.backspace);
			expect(screen.tty.text()).not.toContain('[Pasted text');
			await screen.press(paste('TypeError: x is undefined\n    at f (a.ts:3)\n    at main (a.ts:9)'));
			await screen.tty.waitForText('> explain [Pasted text #2 +3 lines]');
			await screen.press(keys.enter);
			await screen.tty.waitForText('Seen all three.');
			expect(screen.server!.requests[0]!.body.messages.at(-1)).toEqual({role: 'user', content: 'explain TypeError: x is undefined\n    at f (a.ts:3)\n    at main (a.ts:9)'});
			expect(screen.tty.text()).toMatch(/^› explain TypeError: x is undefined\n {4}at f \(a\.ts:3\)\n {4}at main \(a\.ts:9\)$/mu);
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('shows a short paste inline, and a paste split over reads whole', async () => {
		const screen = await startInteractive('paste-split', {columns: 80, rows: 24});
		try {
			screen.stdin.send('\u001B[200~');
			screen.stdin.send('!echo sp');
			screen.stdin.send('lit\u001B[201~');
			await screen.tty.waitForText('> !echo split');
			await screen.press(keys.enter);
			await screen.tty.waitForText('● bash echo split');
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('starts a new line on Shift+Enter, Alt+Enter and a backslash before Enter, and runs the lines on Enter', async () => {
		const screen = await startInteractive('newline-keys', {columns: 80, rows: 24});
		try {
			await screen.press('!echo a\u001B[27;2;13~echo b\u001B\recho c \\\r');
			await screen.tty.waitForText('[line 4 of 4]');
			await screen.press('echo d\r');
			await screen.tty.waitForText('● bash');
			const text = screen.tty.text();
			for (const letter of ['a', 'b', 'c', 'd']) {
				expect(text).toMatch(new RegExp(`^${letter}$`, 'm'));
			}

			expect(screen.controller.getSnapshot().counts.ok).toBe(1);
		} finally {
			await screen.close();
		}
	}, 60_000);
});

describe('keys that arrive in one read', () => {
	it('at the prompt: Ctrl+U erases what came before it, and the rest is a command', async () => {
		const screen = await startInteractive('one-read', {columns: 80, rows: 24});
		try {
			await screen.press('clear\u0015!echo after\r');
			await screen.tty.waitForText('● bash echo after');
			expect(screen.tty.text()).not.toContain('clear');
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('in the Ctrl+O pager: / then a query and Enter searches for the query', async () => {
		const screen = await startInteractive('one-read-pager', {columns: 80, rows: 24});
		try {
			await screen.type('!echo zzzqqq', '● bash echo zzzqqq');
			await screen.type('!echo other', '● bash echo other');
			await screen.press(keys.ctrlO);
			await screen.tty.waitForText('2/2');
			// From the first card, the search finds the second: its query is "other", not "other\r".
			await screen.press('g/other\r');
			await screen.tty.waitForText('2/2 · ');
			expect(screen.tty.frame(false)).not.toContain('no later match');
			// Nothing below the last card: the search goes round the end to the first (it said `no later match`).
			await screen.press('/zzzqqq\r');
			await screen.tty.waitForText('1/2 · match 1/1 · search wrapped');
		} finally {
			await screen.press('q');
			await screen.close();
		}
	}, 60_000);
	it('keys typed right after q, while the pager gives the screen back, reach the prompt in order', async () => {
		const screen = await startInteractive('pager-typeahead', {columns: 80, rows: 24});
		try {
			await screen.type('!echo first', '● bash echo first');
			await screen.press(keys.ctrlO);
			await screen.tty.waitForText('1/1');
			// Separate reads, no frame between them: the pager takes q, the prompt must take the rest.
			screen.stdin.send('q');
			await new Promise(resolve => {
				setTimeout(resolve, 5);
			});
			screen.stdin.send('!echo ');
			screen.stdin.send('typed-ahead\r');
			await screen.tty.waitForText('● bash echo typed-ahead');
			expect(screen.tty.text()).toMatch(/^typed-ahead$/m);
			// In one read with the q: the pager takes the q alone and hands the rest over.
			await screen.press(keys.ctrlO);
			await screen.tty.waitForText('2/2');
			screen.stdin.send('q!echo one-read\r');
			await screen.tty.waitForText('● bash echo one-read');
			expect(screen.tty.text()).toMatch(/^one-read$/m);
		} finally {
			await screen.close();
		}
	}, 60_000);
});
