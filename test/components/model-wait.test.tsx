import {describe, expect, it} from 'vitest';

const {startInteractive} = await import('./harness/interactive-screen.js');

describe('waiting for the model in the interactive session', () => {
	it('a stream kept alive without content: the status line says how long the model has been silent, then the stall is cut, retried with a notice, and the retry answers', async () => {
		// The screen's clock runs ahead when the test says so; the stall timer is the real one.
		let ahead = 0;
		const screen = await startInteractive('model-stall', {columns: 140, rows: 24, now: () => Date.now() + ahead, agent: {script: [{text: 'never', keepAlive: {everyMs: 100}}, {text: 'Back after the stall.'}], stallTimeoutMs: 2000}});
		try {
			await screen.type('hello', 'Esc to cancel');
			expect(screen.tty.text()).not.toContain('waiting for the model');
			ahead = 25_000;
			await screen.tty.waitForText('waiting for the model · no data for ');
			expect(screen.tty.text()).toMatch(/^waiting for the model · no data for 2[5-7]s · Esc to cancel · working 2[5-7]s · (openai-compatible:)?fake-model\b/mu);
			await screen.tty.waitForText('retrying the model (attempt 2): no data from the model for 2s');
			await screen.tty.waitForText('Back after the stall.');
			await screen.tty.waitForText('── completed');
			expect(screen.tty.text()).not.toContain('waiting for the model');
			expect(screen.server!.received).toBe(2);
		} finally {
			await screen.close();
		}
	}, 30_000);
});
