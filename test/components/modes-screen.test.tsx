/**
Shift+Tab through the real screen (issue 31): the key (CSI Z, as terminals send it) cycles the
mode, the status line always shows it, each mode lets through or refuses what it must, and the way
into bypass mode asks first.
*/
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';

const {startInteractive} = await import('./harness/interactive-screen.js');
const {keys} = await import('./harness/fake-terminal.js');

describe('Shift+Tab', () => {
	it('cycles ask → accept edits → plan → bypass (asked once) → ask, shown in the status line; each mode lets through what it must', async () => {
		const screen = await startInteractive('modes-cycle', {columns: 120, rows: 30, mode: 'ask'});
		try {
			// Ask, the default, goes unsaid in the status line.
			expect(screen.tty.text()).not.toContain('mode ');
			// Typed text stays: the key switches the mode, it never completes nor inserts.
			await screen.press('draft');
			await screen.press(keys.shiftTab);
			await screen.tty.waitForText('mode accept edits');
			expect(screen.tty.text()).toContain('> draft');
			for (let index = 0; index < 'draft'.length; index++) {
				// In order: one key at a time
				await screen.press(keys.backspace);
			}

			// accept edits: a write inside the workspace runs without a question; a command asks.
			await screen.type('write {"file_path": "a.txt", "content": "a"}', '● write a.txt');
			expect(existsSync(join(screen.cwd, 'a.txt'))).toBe(true);
			await screen.type('!echo hi', 'Allow bash');
			await screen.press(keys.down);
			await screen.press(keys.down);
			await screen.press(keys.enter);
			await screen.tty.waitForText('✗ bash echo hi');

			// plan: the write is refused before any question, and the card says why.
			await screen.press(keys.shiftTab);
			await screen.tty.waitForText('mode plan');
			await screen.type('write {"file_path": "b.txt", "content": "b"}', '✗ write b.txt');
			expect(screen.tty.text()).toContain('plan mode: write was not run');
			expect(existsSync(join(screen.cwd, 'b.txt'))).toBe(false);

			// bypass: asked first; Enter on "Yes" enters it, and the command runs without a question.
			await screen.press(keys.shiftTab);
			await screen.tty.waitForText('Allow bypass mode');
			// Esc here goes back to ask mode: no call waits on this question.
			await screen.tty.waitForText('Esc goes back to ask mode');
			await screen.press(keys.enter);
			await screen.tty.waitForText('mode bypass');
			await screen.type('!echo free', '● bash echo free');
			await screen.press(keys.shiftTab);
			await screen.tty.waitForText('mode: ask (Shift+Tab)');
			expect(screen.tty.text()).toContain('mode: bypass (Shift+Tab)');
			expect(screen.controller.getSnapshot().mode).toBeUndefined();
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('plan mode: the model is told it is planning with its prompt, and its write is refused with a result it reads', async () => {
		const screen = await startInteractive('modes-plan-model', {columns: 120, rows: 30, mode: 'plan', agent: {script: [
			{toolCalls: [{id: 'w1', name: 'write', args: JSON.stringify({file_path: 'plan.txt', content: 'x'})}]},
			{text: 'Here is the plan instead.'},
		]}});
		try {
			await screen.type('change plan.txt', 'Here is the plan instead.');
			expect(existsSync(join(screen.cwd, 'plan.txt'))).toBe(false);
			const bodies = screen.server!.requests.map((request: {readonly body: unknown}) => JSON.stringify(request.body));
			// The first request carries the note; the second the refusal the model reads.
			expect(bodies[0]).toContain('Plan mode is on');
			expect(bodies[1]).toContain('plan mode: write was not run');
		} finally {
			await screen.close();
		}
	}, 60_000);
});
