import {describe, expect, it} from 'vitest';
import type {LiveSnapshot} from '../../components/session-model.js';
import {statusText} from '../../components/StatusLine.js';
import {emptyOutcomeCounts} from '../../src/presentation/card-outcome.js';
import type {TurnProgress} from '../../src/session/fold/turn-progress.js';
import {makeCard} from '../layout/fixtures.js';

const idle: LiveSnapshot = {running: [], counts: emptyOutcomeCounts(), jobsRunning: 0, queued: 0, closing: false, model: 'openai:gpt-x', modelConnected: true};
const status = (turn: TurnProgress | undefined, now: number, width = 200): string => statusText({cwd: '/w', sessionId: 's1', snapshot: {...idle, ...(turn === undefined ? {} : {turn})}, width, now});

describe('the status line while the model works', () => {
	it('says how long the turn has run, its tokens so far and the latency to the first token once known', () => {
		expect(status(undefined, 0)).toBe('no calls yet · openai:gpt-x · /w · s1');
		expect(status({turn: 1, startTime: 1000}, 4500)).toBe('no calls yet · Esc to cancel · working 3s · openai:gpt-x · /w · s1');
		expect(status({turn: 1, startTime: 1000, firstTokenMs: 820, usage: {inputTokens: 12_044, outputTokens: 380}}, 73_000))
			.toBe('no calls yet · Esc to cancel · working 1m 12s · 12 044 in · 380 out · first token 820ms · openai:gpt-x · /w · s1');
		expect(status({turn: 1, startTime: 0, firstTokenMs: 1250, usage: {inputTokens: 1, outputTokens: 2, reasoningTokens: 30, cacheReadTokens: 1664}}, 0))
			.toBe('no calls yet · Esc to cancel · working 0s · 1 in · 2 out · 30 reasoning · 1 664 cached · first token 1.2s · openai:gpt-x · /w · s1');
	});

	it('counts a retry\'s wait down by the second, then drops it when the attempt starts', () => {
		const turn: TurnProgress = {turn: 1, startTime: 0, retry: {attempt: 2, maxAttempts: 5, reason: 'Too Many Requests', startsAt: 10_000}};
		expect(status(turn, 7000)).toBe('no calls yet · retrying in 3s (attempt 2 of 5): Too Many Requests · Esc to cancel · working 7s · openai:gpt-x · /w · s1');
		expect(status(turn, 7001)).toContain('retrying in 3s (attempt 2 of 5)');
		expect(status(turn, 8000)).toContain('retrying in 2s (attempt 2 of 5)');
		expect(status(turn, 9999)).toContain('retrying in 1s (attempt 2 of 5)');
		expect(status(turn, 10_000)).toBe('no calls yet · Esc to cancel · working 10s · openai:gpt-x · /w · s1');
	});

	it('keeps the countdown and Esc on a narrow terminal: a long reason is cut, the rest goes first', () => {
		const turn: TurnProgress = {turn: 1, startTime: 0, retry: {attempt: 2, reason: `overloaded ${'x'.repeat(200)}\u001B[31m`, startsAt: 2000}};
		const text = status(turn, 0, 120);
		expect(text).toMatch(/^no calls yet · retrying in 2s \(attempt 2\): overloaded x+… · Esc to cancel · /u);
		expect(text).not.toContain('\u001B');
	});

	it('says how long the model has been silent once it is long, counting from its last data', () => {
		const turn: TurnProgress = {turn: 1, startTime: 0, lastDataAt: 5000};
		expect(status(turn, 14_999)).toBe('no calls yet · Esc to cancel · working 14s · openai:gpt-x · /w · s1');
		expect(status(turn, 15_000)).toBe('no calls yet · waiting for the model · no data for 10s · Esc to cancel · working 15s · openai:gpt-x · /w · s1');
		expect(status(turn, 30_400)).toContain('· waiting for the model · no data for 25s · Esc to cancel ·');
		// Not while a call runs, not during a retry's countdown, not once the model answered (no open attempt).
		const running = statusText({cwd: '/w', sessionId: 's1', snapshot: {...idle, turn, running: [makeCard({name: 'bash', callView: {card: 'generic', title: 'bash'}})]}, width: 200, now: 30_000});
		expect(running).not.toContain('waiting for the model');
		expect(status({...turn, retry: {attempt: 2, startsAt: 40_000}}, 30_000)).not.toContain('waiting for the model');
		expect(status({turn: 1, startTime: 0}, 30_000)).not.toContain('waiting for the model');
	});

	it('counts a provider\'s long wait in minutes', () => {
		expect(status({turn: 1, startTime: 0, retry: {attempt: 2, maxAttempts: 5, reason: 'down; waiting 300s as the provider asks (cancel to stop)', startsAt: 300_000}}, 1000))
			.toBe('no calls yet · retrying in 4m 59s (attempt 2 of 5): down; waiting 300s as the provider asks (cancel… · Esc to cancel · working 1s · openai:gpt-x · /w · s1');
	});
});
