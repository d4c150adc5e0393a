import {describe, expect, it} from 'vitest';


const {keys} = await import('./harness/fake-terminal.js');
const {startInteractive} = await import('./harness/interactive-screen.js');

/** The server's Retry-After is the wait (no jitter); the clock is the real one, so the countdown moves. */
const retry = {maxRetries: 4, baseDelayMs: 1000, maxDelayMs: 30_000};

describe('a retry\'s countdown in the status line', () => {
	it('counts down each second until the next attempt starts; the answer then comes', async () => {
		const screen = await startInteractive('retry-countdown', {columns: 140, rows: 24, now: Date.now, agent: {script: [{status: 429, error: 'rate limited', retryAfter: 3}, {text: 'Back after the wait.'}], retry}});
		try {
			await screen.type('hello', 'retrying in 3s (attempt 2 of 5): rate limited · Esc to cancel');
			await screen.tty.waitForText('retrying in 2s (attempt 2 of 5)');
			await screen.tty.waitForText('Back after the wait.');
			await screen.tty.waitForText('── completed');
			expect(screen.tty.text()).not.toContain('retrying in');
			expect(screen.server!.received).toBe(2);
		} finally {
			await screen.close();
		}
	}, 30_000);

	it('Esc cancels the wait: the turn ends cancelled and the model is not asked again', async () => {
		const screen = await startInteractive('retry-cancel', {columns: 140, rows: 24, now: Date.now, agent: {script: [{status: 503, error: 'overloaded', retryAfter: 20}, {text: 'never sent'}], retry}});
		try {
			await screen.type('hello', 'retrying in 20s (attempt 2 of 5): overloaded');
			await screen.press(keys.escape);
			await screen.tty.waitForText('── cancelled by you');
			expect(screen.tty.text()).not.toContain('retrying in');
			expect(screen.tty.text()).not.toContain('never sent');
			expect(screen.server!.received).toBe(1);
		} finally {
			await screen.close();
		}
	}, 30_000);

	it('a provider\'s long Retry-After: the notice says the wait, the status line counts it down in minutes, Esc cancels it', async () => {
		const screen = await startInteractive('long-retry-after', {columns: 160, rows: 24, now: Date.now, agent: {script: [{status: 503, error: 'down for maintenance', retryAfter: 300}, {text: 'never sent'}], retry}});
		try {
			await screen.type('hello', 'retrying the model (attempt 2): down for maintenance; waiting 300s as the provider asks (cancel to stop)');
			await screen.tty.waitForText('retrying in 4m 59s (attempt 2 of 5)');
			await screen.press(keys.escape);
			await screen.tty.waitForText('── cancelled by you');
			expect(screen.tty.text()).not.toContain('retrying in');
			expect(screen.server!.received).toBe(1);
		} finally {
			await screen.close();
		}
	}, 30_000);
});
