import {describe, expect, it} from 'vitest';
import type {LiveSnapshot} from '../../components/session-model.js';
import {statusText} from '../../components/StatusLine.js';
import {emptyOutcomeCounts} from '../../src/presentation/card-outcome.js';
import type {TurnProgress} from '../../src/session/fold/turn-progress.js';
import {makeCard} from '../layout/fixtures.js';

const idle: LiveSnapshot = {running: [], counts: emptyOutcomeCounts(), jobsRunning: 0, queue: [], closing: false, model: 'openai:gpt-x', modelConnected: true};
const status = (turn: TurnProgress | undefined, now: number, width = 200): string => statusText({cwd: '/w', sessionId: 's1', snapshot: {...idle, ...(turn === undefined ? {} : {turn})}, width, now});

describe('the status line while the model works', () => {
	it('says how long the turn has run, its tokens so far and the latency to the first token once known', () => {
		expect(status(undefined, 0)).toBe('openai:gpt-x · /w · s1');
		expect(status({turn: 1, startTime: 1000}, 4500)).toBe('Esc to cancel · working 3s · openai:gpt-x · /w · s1');
		expect(status({turn: 1, startTime: 1000, firstTokenMs: 820, usage: {inputTokens: 12_044, outputTokens: 380}}, 73_000))
			.toBe('Esc to cancel · working 1m 12s · openai:gpt-x · /w · 12 044 in · 380 out · first token 820ms · s1');
		expect(status({turn: 1, startTime: 0, firstTokenMs: 1250, usage: {inputTokens: 1, outputTokens: 2, reasoningTokens: 30, cacheReadTokens: 1664}}, 0))
			.toBe('Esc to cancel · working 0s · openai:gpt-x · /w · 1 in · 2 out · 30 reasoning · 1 664 cached · first token 1.2s · s1');
	});

	it('counts a retry\'s wait down by the second, then drops it when the attempt starts', () => {
		const turn: TurnProgress = {turn: 1, startTime: 0, retry: {attempt: 2, maxAttempts: 5, reason: 'Too Many Requests', startsAt: 10_000}};
		expect(status(turn, 7000)).toBe('retrying in 3s (attempt 2 of 5): Too Many Requests · Esc to cancel · working 7s · openai:gpt-x · /w · s1');
		expect(status(turn, 7001)).toContain('retrying in 3s (attempt 2 of 5)');
		expect(status(turn, 8000)).toContain('retrying in 2s (attempt 2 of 5)');
		expect(status(turn, 9999)).toContain('retrying in 1s (attempt 2 of 5)');
		expect(status(turn, 10_000)).toBe('Esc to cancel · working 10s · openai:gpt-x · /w · s1');
	});

	it('keeps the countdown and Esc on a narrow terminal: a long reason gives way first, and is cut and escaped where it shows', () => {
		const turn: TurnProgress = {turn: 1, startTime: 0, retry: {attempt: 2, reason: `overloaded ${'x'.repeat(200)}\u001B[31m`, startsAt: 2000}};
		expect(status(turn, 0, 120)).toBe('retrying in 2s (attempt 2) · Esc to cancel · working 0s · openai:gpt-x · /w · s1');
		const wide = status(turn, 0, 200);
		expect(wide).toMatch(/^retrying in 2s \(attempt 2\): overloaded x+… · Esc to cancel · working 0s · openai:gpt-x · \/w · s1$/u);
		expect(wide).not.toContain('\u001B');
	});

	it('says how long the model has been silent once it is long, counting from its last data', () => {
		const turn: TurnProgress = {turn: 1, startTime: 0, lastDataAt: 5000};
		expect(status(turn, 14_999)).toBe('Esc to cancel · working 14s · openai:gpt-x · /w · s1');
		expect(status(turn, 15_000)).toBe('waiting for the model · no data for 10s · Esc to cancel · working 15s · openai:gpt-x · /w · s1');
		expect(status(turn, 30_400)).toMatch(/^waiting for the model · no data for 25s · Esc to cancel · /u);
		// Not while a call runs, not during a retry's countdown, not once the model answered (no open attempt).
		const running = statusText({cwd: '/w', sessionId: 's1', snapshot: {...idle, turn, running: [makeCard({name: 'bash', callView: {card: 'generic', title: 'bash'}})]}, width: 200, now: 30_000});
		expect(running).not.toContain('waiting for the model');
		expect(status({...turn, retry: {attempt: 2, startsAt: 40_000}}, 30_000)).not.toContain('waiting for the model');
		expect(status({turn: 1, startTime: 0}, 30_000)).not.toContain('waiting for the model');
	});

	it('counts a provider\'s long wait in minutes', () => {
		expect(status({turn: 1, startTime: 0, retry: {attempt: 2, maxAttempts: 5, reason: 'down; waiting 300s as the provider asks (cancel to stop)', startsAt: 300_000}}, 1000))
			.toBe('retrying in 4m 59s (attempt 2 of 5): down; waiting 300s as the provider asks (cancel… · Esc to cancel · working 1s · openai:gpt-x · /w · s1');
	});
});

describe('the status line\'s order as the width shrinks (60, 80, 120, 200 columns)', () => {
	const counts = {...emptyOutcomeCounts(), ok: 3, failed: 1};
	const native: LiveSnapshot = {...idle, counts, jobsRunning: 1, model: 'openai-compatible:qwen3-coder via 127.0.0.1:8000'};
	const rows = (snapshot: LiveSnapshot): string[] => [60, 80, 120, 200].map(width => statusText({cwd: '/home/sam/src/cardterm-demo', home: '/home/sam', sessionId: '2026-01-15T09-30-00-a1b2', snapshot, width, now: 7000}));

	it('idle: the model, then where, jobs, the tally and the session; the model\'s server once there is room', () => {
		expect(rows(native)).toEqual([
			'qwen3-coder · ~/src/cardterm-demo · 1 job',
			'openai-compatible:qwen3-coder via 127.0.0.1:8000 · ~/src/cardterm-demo · 1 job',
			'openai-compatible:qwen3-coder via 127.0.0.1:8000 · ~/src/cardterm-demo · 1 job · ● 3 ok  ✗ 1 failed',
			'openai-compatible:qwen3-coder via 127.0.0.1:8000 · ~/src/cardterm-demo · 1 job · ● 3 ok  ✗ 1 failed · 2026-01-15T09-30-00-a1b2',
		]);
	});

	it('working: how to stop it and for how long first, then the model and where; tokens and latency when there is room', () => {
		expect(rows({...native, turn: {turn: 2, startTime: 0, firstTokenMs: 820, usage: {inputTokens: 12_044, outputTokens: 380}}})).toEqual([
			'Esc to cancel · working 7s · qwen3-coder · …/cardterm-demo',
			'Esc to cancel · working 7s · qwen3-coder · ~/src/cardterm-demo · 1 job',
			'Esc to cancel · working 7s · openai-compatible:qwen3-coder via 127.0.0.1:8000 · ~/src/cardterm-demo · 1 job',
			'Esc to cancel · working 7s · openai-compatible:qwen3-coder via 127.0.0.1:8000 · ~/src/cardterm-demo · 1 job · ● 3 ok  ✗ 1 failed · 12 044 in · 380 out · first token 820ms · 2026-01-15T09-30-00-a1b2',
		]);
	});

	it('a retry\'s wait: its countdown first at every width, its attempt and reason as the room grows', () => {
		expect(rows({...native, turn: {turn: 2, startTime: 0, retry: {attempt: 2, maxAttempts: 5, reason: 'Too Many Requests', startsAt: 10_000}}})).toEqual([
			'retrying in 3s · Esc to cancel · working 7s · qwen3-coder',
			'retrying in 3s (attempt 2 of 5) · Esc to cancel · working 7s · qwen3-coder',
			'retrying in 3s (attempt 2 of 5): Too Many Requests · Esc to cancel · working 7s · qwen3-coder · ~/src/cardterm-demo',
			'retrying in 3s (attempt 2 of 5): Too Many Requests · Esc to cancel · working 7s · openai-compatible:qwen3-coder via 127.0.0.1:8000 · ~/src/cardterm-demo · 1 job · ● 3 ok  ✗ 1 failed',
		]);
	});

	it('a long silence: how long first, said in full when there is room', () => {
		expect(rows({...native, turn: {turn: 2, startTime: 0, lastDataAt: -8000}})).toEqual([
			'no data for 15s · Esc to cancel · working 7s · qwen3-coder',
			'no data for 15s · Esc to cancel · working 7s · qwen3-coder · ~/src/cardterm-demo',
			'waiting for the model · no data for 15s · Esc to cancel · working 7s · qwen3-coder · ~/src/cardterm-demo · 1 job',
			'waiting for the model · no data for 15s · Esc to cancel · working 7s · openai-compatible:qwen3-coder via 127.0.0.1:8000 · ~/src/cardterm-demo · 1 job · ● 3 ok  ✗ 1 failed · 2026-01-15T09-30-00-a1b2',
		]);
	});
});
