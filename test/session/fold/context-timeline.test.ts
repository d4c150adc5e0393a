/**
What the model's context held at each step of a log, read back from its events: the DeepSeek
harness's compaction vocabulary (a pruned result, then a summary of the first turn).
*/
import {readFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {describe, expect, it} from 'vitest';
import type {SessionEvent} from '../../../src/session/events/events.js';
import {ContextTimeline} from '../../../src/session/fold/context-timeline.js';
import {estimateTokens} from '../../../src/session/fold/token-estimate.js';

const log = join(resolve(import.meta.dirname, '../../fixtures/logs'), 'harness-compaction.jsonl');

function timelineOf(events: readonly SessionEvent[]): ContextTimeline {
	const timeline = new ContextTimeline();
	for (const event of events) {
		timeline.hear(event);
	}

	return timeline;
}

const events = readFileSync(log, 'utf8').split('\n').slice(1).filter(line => line !== '').map(line => JSON.parse(line) as SessionEvent);

describe('the context timeline of a log with a compaction', () => {
	const timeline = timelineOf(events);

	it('records each model step: its seq, turn and step, the entry its row goes on, and an estimate where no usage was reported', () => {
		const question = estimateTokens('Read the config and tell me the level.');
		const call = estimateTokens('read') + estimateTokens('{"file_path":"src/config.ts"}');
		const result = estimateTokens('export const config = {level: \'info\'}');
		const checkpoint = estimateTokens('This is an automatically generated checkpoint.\n\n<summary>\nThe person asked for the config\'s level; it is info.\n</summary>');
		expect(timeline.steps).toEqual([
			// A step of calls only heads its card (the tool/call at seq 4).
			{seq: 3, turn: 1, step: 1, sent: question, basis: 'estimated', head: 4},
			{seq: 8, turn: 1, step: 2, sent: question + call + result, basis: 'estimated', head: 8},
			// After the summary: the checkpoint and the new question.
			{seq: 22, turn: 2, step: 1, sent: checkpoint + estimateTokens('Thanks.'), basis: 'estimated', head: 22},
		]);
		expect(timeline.compacted).toBe(true);
	});

	it('says which entries were out of the context at each step: nothing before the compaction, the summarised turn after it', () => {
		// At the second step of turn 1 everything was there.
		for (const anchor of [2, 4, 8]) {
			expect(timeline.standing(anchor, 8)).toBeUndefined();
		}

		// The step of turn 2 saw the checkpoint instead: the question, the card (pruned first, then summarised) and the answer are gone.
		expect([2, 4, 8].map(anchor => timeline.standing(anchor, 22))).toEqual(['summarised', 'summarised', 'summarised']);
		expect(timeline.standing(21, 22)).toBeUndefined();
		// Between the prune (13) and the summary (15) the card's result was pruned, its call kept.
		expect(timeline.standing(4, 14)).toBe('pruned');
		expect(timeline.standing(2, 14)).toBeUndefined();
	});

	it('reads an entry against its request: an answer its own step, a card the step that made it, anything else the next step', () => {
		expect(timeline.requestOf(8, 'assistant')).toBe(8);
		expect(timeline.requestOf(4, 'card')).toBe(3);
		expect(timeline.requestOf(2, 'other')).toBe(3);
		expect(timeline.requestOf(14, 'other')).toBe(22);
		expect(timeline.requestOf(24, 'other')).toBe(Number.POSITIVE_INFINITY);
	});

	it('finds the step whose row goes on an entry, and the entry a range or a message seq stands for', () => {
		expect(timeline.stepHeadedBy(4)?.seq).toBe(3);
		expect(timeline.stepHeadedBy(8)?.seq).toBe(8);
		expect(timeline.stepHeadedBy(2)).toBeUndefined();
		expect(timeline.stepHeadedBy(5)).toBeUndefined();
		// The summary's range (2–8): its first entry is the question; the pruned copy (13) stands for the card (4).
		expect(timeline.entryOfRange({start: 2, end: 8})).toBe(2);
		expect(timeline.entryOf(13)).toBe(4);
		expect(timeline.entryOf(5)).toBe(4);
		expect(timeline.entryOf(6)).toBe(6);
	});

	it('takes a step\'s reported input tokens over the estimate, and a replacement outside the context changes nothing', () => {
		const reported = timelineOf([
			{type: 'user/message', seq: 1, time: 1, data: {content: 'hi'}, surfaceOp: 'append'},
			{type: 'assistant/message', seq: 2, time: 2, data: {turn: 1, step: 1, message: {content: [{type: 'text', text: 'hello'}]}, usage: {inputTokens: 1234, outputTokens: 5}}, surfaceOp: 'append'},
			// A replacement naming seqs the context never held (a damaged or foreign log): ignored, as the conversation ignores it.
			{type: 'user/message', seq: 3, time: 3, data: {content: 'summary'}, surfaceOp: {op: 'replace', start: 40, end: 50}},
			{type: 'assistant/message', seq: 4, time: 4, data: {turn: 2, step: 1, message: {content: [{type: 'text', text: 'again'}]}}, surfaceOp: 'append'},
		] as unknown as SessionEvent[]);
		expect(reported.steps.map(step => [step.sent, step.basis])).toEqual([[1234, 'reported'], [estimateTokens('hi') + estimateTokens('hello'), 'estimated']]);
		expect(reported.compacted).toBe(false);
		expect(reported.standing(1, 4)).toBeUndefined();
	});
});
