import {describe, expect, it} from 'vitest';
import {TurnClock} from '../../../src/session/fold/turn-clock.js';

describe('the turn clock (what each open turn said so far)', () => {
	it('keeps a turn\'s start, its steps\' usage and the tokens its end is rebuilt from', () => {
		const clock = new TurnClock<string>();
		clock.start(1, 1000, 'start');
		clock.modelStep(1, undefined, 'step 1');
		clock.modelStep(1, undefined, 'step 2 (no usage: not needed again)');
		clock.modelStep(1, {inputTokens: 10, outputTokens: 2}, 'step 3');
		clock.modelStep(1, {inputTokens: 5, outputTokens: 1, reasoningTokens: 4}, 'step 4');
		expect(clock.end(1)).toEqual({startTime: 1000, usage: {inputTokens: 15, outputTokens: 3, reasoningTokens: 4}, lines: ['start', 'step 1', 'step 3', 'step 4'], askedModel: true});
		expect(clock.end(1)).toBeUndefined();
	});

	it('says whether the model was asked: a step, or a retried request that never answered; not a command\'s turn', () => {
		const clock = new TurnClock<string>();
		clock.start(1, 0, 'start');
		expect(clock.end(1)).toEqual({startTime: 0, lines: ['start'], askedModel: false});
		clock.start(2, 0, 'start');
		clock.retried(2, 10, {attempt: 2}, 'retry');
		clock.retried(2, 20, {attempt: 3}, 'retry again');
		expect(clock.end(2)).toEqual({startTime: 0, lines: ['start', 'retry'], askedModel: true});
	});

	it('times each attempt\'s first token from its step\'s start, or from the end of a retry\'s wait, which the token ends', () => {
		const clock = new TurnClock<undefined>();
		expect(clock.progress).toBeUndefined();
		clock.start(1, 1000, undefined);
		clock.stepStarted(1, 1200);
		clock.firstToken(1, 1450);
		clock.firstToken(1, 1500);
		// While an attempt is open, the silence counts from its start (`lastDataAt`).
		expect(clock.progress).toEqual({turn: 1, startTime: 1000, firstTokenMs: 250, lastDataAt: 1200});
		clock.stepStarted(1, 2000);
		expect(clock.progress).toEqual({turn: 1, startTime: 1000, lastDataAt: 2000});
		clock.retried(1, 2100, {attempt: 2, maxAttempts: 5, delayMs: 3000, reason: 'overloaded'}, undefined);
		expect(clock.progress).toEqual({turn: 1, startTime: 1000, retry: {attempt: 2, maxAttempts: 5, reason: 'overloaded', startsAt: 5100}, lastDataAt: 5100});
		clock.firstToken(1, 5300);
		expect(clock.progress).toEqual({turn: 1, startTime: 1000, firstTokenMs: 200, lastDataAt: 5100});
	});

	it('renews the time of the model\'s last data at most once a second, and forgets it once the step\'s message came', () => {
		const clock = new TurnClock<undefined>();
		clock.start(1, 0, undefined);
		clock.stepStarted(1, 1000);
		clock.modelData(1, 1500);
		expect(clock.progress?.lastDataAt).toBe(1000);
		clock.modelData(1, 2000);
		expect(clock.progress?.lastDataAt).toBe(2000);
		clock.modelStep(1, undefined, undefined);
		expect(clock.progress?.lastDataAt).toBeUndefined();
		clock.modelData(1, 9000);
		expect(clock.progress?.lastDataAt).toBeUndefined();
	});

	it('shows the newest open turn, the same object until an event changes it, and nothing once all ended', () => {
		const clock = new TurnClock<undefined>();
		clock.start(1, 0, undefined);
		clock.start(2, 50, undefined);
		const progress = clock.progress;
		expect(progress).toEqual({turn: 2, startTime: 50});
		clock.modelStep(2, undefined, undefined);
		expect(clock.progress).toBe(progress);
		clock.modelStep(2, {inputTokens: 1, outputTokens: 1}, undefined);
		expect(clock.progress).toEqual({turn: 2, startTime: 50, usage: {inputTokens: 1, outputTokens: 1}});
		clock.end(2);
		expect(clock.progress).toEqual({turn: 1, startTime: 0});
		clock.end(1);
		expect(clock.progress).toBeUndefined();
	});

	it('ignores what it hears about a turn that is not open', () => {
		const clock = new TurnClock<string>();
		clock.stepStarted(7, 1);
		clock.retried(7, 1, {}, 'x');
		clock.firstToken(7, 1);
		clock.modelStep(7, {inputTokens: 1, outputTokens: 1}, 'x');
		expect(clock.progress).toBeUndefined();
		expect(clock.end(7)).toBeUndefined();
	});
});
