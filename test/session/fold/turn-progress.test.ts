import {describe, expect, it} from 'vitest';
import {referencePresenters} from '../../../src/acp/reference-presenters.js';
import {addUsage, usageOf} from '../../../src/session/fold/entry-facts.js';
import type {SessionEvent} from '../../../src/session/events/events.js';
import {readEvent} from '../fold-events.js';
import {SessionFold} from '../../../src/session/fold/fold.js';

const at = (seq: number, time: number, type: string, data: unknown): SessionEvent => readEvent({type, seq, time, data});
const message = (step: number, usage: unknown) => ({turn: 1, step, usage, message: {role: 'assistant', content: [{type: 'text', text: `step ${step}`}]}});
const delta = (step: number, text: string) => ({turn: 1, step, chunk: {type: 'text-delta', index: 0, text}});

describe('a running turn\'s progress (the status line while the model works)', () => {
	it('sums its steps\' usage by the turn boundary\'s rule, times the first token of each attempt, and waits out a retry', () => {
		const fold = new SessionFold(referencePresenters('/'));
		const progress: unknown[] = [];
		const apply = (event: SessionEvent): void => {
			fold.apply(event);
			progress.push(fold.turnProgress);
		};

		expect(fold.turnProgress).toBeUndefined();
		apply(at(0, 1000, 'turn/start', {turn: 1}));
		apply(at(1, 1000, 'step/start', {turn: 1, step: 1}));
		apply(at(2, 1450, 'assistant/chunk', delta(1, 'he')));
		apply(at(3, 1500, 'assistant/chunk', delta(1, 'llo')));
		apply(at(4, 1600, 'assistant/message', message(1, {inputTokens: 1200, outputTokens: 40, cacheReadTokens: 1000, reasoningTokens: 30})));
		apply(at(5, 1600, 'step/end', {turn: 1, step: 1}));
		apply(at(6, 2000, 'step/start', {turn: 1, step: 2}));
		apply(at(7, 2100, 'llm/retry', {turn: 1, step: 2, attempt: 2, maxAttempts: 5, delayMs: 3000, reason: 'Too Many Requests'}));
		apply(at(8, 5300, 'assistant/chunk', delta(2, 'back')));
		apply(at(9, 5400, 'assistant/message', message(2, {inputTokens: 1300, outputTokens: 10, cacheReadTokens: 0, reasoningTokens: 0})));
		apply(at(10, 5500, 'turn/end', {turn: 1, reason: {kind: 'completed'}}));

		const usage = {inputTokens: 1200, outputTokens: 40, reasoningTokens: 30, cacheReadTokens: 1000};
		expect(progress).toEqual([
			{turn: 1, startTime: 1000},
			// An open model attempt: the silence counts from its start.
			{turn: 1, startTime: 1000, lastDataAt: 1000},
			// The first token came 450 ms after its attempt started; later ones change nothing (within the second).
			{turn: 1, startTime: 1000, firstTokenMs: 450, lastDataAt: 1000},
			{turn: 1, startTime: 1000, firstTokenMs: 450, lastDataAt: 1000},
			// The model answered: no wait for it while its calls run.
			{turn: 1, startTime: 1000, firstTokenMs: 450, usage},
			{turn: 1, startTime: 1000, firstTokenMs: 450, usage},
			// A new step is a new attempt: its latency is not known yet.
			{turn: 1, startTime: 1000, usage, lastDataAt: 2000},
			// A retry's attempt starts when its wait ends.
			{turn: 1, startTime: 1000, usage, retry: {attempt: 2, maxAttempts: 5, reason: 'Too Many Requests', startsAt: 5100}, lastDataAt: 5100},
			// The retried attempt's latency counts from the end of the wait, and its token ends the wait.
			{turn: 1, startTime: 1000, usage, firstTokenMs: 200, lastDataAt: 5100},
			{turn: 1, startTime: 1000, usage: {...usage, inputTokens: 2500, outputTokens: 50}, firstTokenMs: 200},
			undefined,
		]);
		// The turn boundary carries the same sum.
		expect(fold.entries.at(-1)).toMatchObject({entry: 'turn', usage: {inputTokens: 2500, outputTokens: 50, reasoningTokens: 30, cacheReadTokens: 1000}});
	});

	it('renews when the model last sent something once a second, not at every chunk', () => {
		const fold = new SessionFold(referencePresenters('/'));
		fold.apply(at(0, 1000, 'turn/start', {turn: 1}));
		fold.apply(at(1, 1000, 'step/start', {turn: 1, step: 1}));
		const seen = [1500, 1999, 2000, 2600, 3100, 9000].map((time, index) => {
			fold.apply(at(2 + index, time, 'assistant/chunk', delta(1, 'x')));
			return fold.turnProgress?.lastDataAt;
		});
		expect(seen).toEqual([1000, 1000, 2000, 2000, 3100, 9000]);
	});

	it('is the same object until an event changes it', () => {
		const fold = new SessionFold(referencePresenters('/'));
		fold.apply(at(0, 1000, 'turn/start', {turn: 1}));
		fold.apply(at(1, 1000, 'step/start', {turn: 1, step: 1}));
		fold.apply(at(2, 1100, 'assistant/chunk', delta(1, 'a')));
		const first = fold.turnProgress;
		fold.apply(at(3, 1200, 'assistant/chunk', delta(1, 'b')));
		expect(fold.turnProgress).toBe(first);
	});
});

describe('usage', () => {
	it('keeps reasoning and cached tokens only when a provider gave some, and sums them', () => {
		expect(usageOf({inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, reasoningTokens: 0})).toEqual({inputTokens: 10, outputTokens: 2});
		expect(usageOf({inputTokens: 10, outputTokens: 2, cacheReadTokens: 7, reasoningTokens: -1})).toEqual({inputTokens: 10, outputTokens: 2, cacheReadTokens: 7});
		expect(usageOf({inputTokens: 0, outputTokens: 0})).toBeUndefined();
		expect(addUsage({inputTokens: 1, outputTokens: 2}, {inputTokens: 3, outputTokens: 4, reasoningTokens: 5})).toEqual({inputTokens: 4, outputTokens: 6, reasoningTokens: 5});
		expect(addUsage(undefined, {inputTokens: 3, outputTokens: 4})).toEqual({inputTokens: 3, outputTokens: 4});
	});
});

describe('a model turn cancelled while its request was retried', () => {
	it('ends with a turn boundary, in the fold and in the lazy log index alike', async () => {
		const {mkdtempSync, rmSync, writeFileSync} = await import('node:fs');
		const {tmpdir} = await import('node:os');
		const {join} = await import('node:path');
		const {openIndexedEntrySource} = await import('../../../src/transcript/indexed-entry-source.js');
		const events = [
			at(0, 1000, 'turn/start', {turn: 1}),
			at(1, 1000, 'step/start', {turn: 1, step: 1}),
			at(2, 1001, 'user/message', {id: 'u-1', role: 'user', content: [{type: 'text', text: 'hello'}], source: {kind: 'user'}}),
			at(3, 1100, 'llm/retry', {turn: 1, step: 1, attempt: 2, maxAttempts: 5, delayMs: 20_000, reason: 'overloaded'}),
			at(4, 1900, 'step/end', {turn: 1, step: 1}),
			at(5, 1900, 'turn/end', {turn: 1, reason: {kind: 'aborted', reason: {kind: 'user'}}}),
		];
		const fold = new SessionFold(referencePresenters('/'));
		for (const event of events) {
			fold.apply(event);
		}

		expect(fold.entries.map(entry => entry.entry)).toEqual(['user', 'notice', 'turn']);
		expect(fold.entries.at(-1)).toMatchObject({entry: 'turn', outcome: {text: 'cancelled by you'}, durationMs: 900});
		const folder = mkdtempSync(join(tmpdir(), 'cardterm-retry-cancel-'));
		try {
			const path = join(folder, 'session.jsonl');
			writeFileSync(path, [{type: 'session', version: 0, id: 's', createdAt: 1000, cwd: '/', delegationDepth: 0}, ...events].map(line => JSON.stringify(line)).join('\n') + '\n');
			const source = await openIndexedEntrySource(path, {presenters: () => referencePresenters('/'), tail: false});
			await source.ready;
			try {
				expect(Array.from({length: source.count()}, (_, index) => source.entry(index))).toEqual(fold.entries);
			} finally {
				source.close();
			}
		} finally {
			rmSync(folder, {recursive: true, force: true});
		}
	});
});
