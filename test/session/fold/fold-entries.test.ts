import {readFileSync} from 'node:fs';
import {resolve} from 'node:path';
import {describe, expect, it} from 'vitest';
import {referencePresenters} from '../../../src/acp/reference-presenters.js';
import type {TranscriptEntry} from '../../../src/presentation/entry.js';
import type {SessionEvent} from '../../../src/session/events/events.js';
import {readEvent} from '../fold-events.js';
import {foldEvents, SessionFold} from '../../../src/session/fold/fold.js';

const spec = resolve(import.meta.dirname, '../../fixtures/logs/spec-example.jsonl');

function events(path: string): SessionEvent[] {
	return readFileSync(path, 'utf8').split('\n').slice(1).filter(line => line !== '').map(line => JSON.parse(line) as SessionEvent);
}

function describeEntry(entry: TranscriptEntry): string {
	switch (entry.entry) {
		case 'card': {
			return `card ${entry.card.name} ${entry.card.outcome}`;
		}

		case 'user': {
			return `user ${entry.text}`;
		}

		case 'assistant': {
			return `assistant ${entry.text}`;
		}

		case 'turn': {
			return `turn ${entry.turn} ${entry.outcome.text}`;
		}

		case 'notice': {
			return `notice ${entry.source}: ${entry.summary}`;
		}

		case 'todo': {
			return `todo ${entry.items.map(item => `${item.status}:${item.content}`).join(', ')}`;
		}

		case 'compaction': {
			return `compaction ${entry.seq}`;
		}
	}
}

describe('the fold of a whole conversation', () => {
	it('puts the person\'s messages, the answers, the todo list and the turn ends in order between the cards', () => {
		const fold = foldEvents(events(spec), referencePresenters('/home/u/proj'));
		expect(fold.entries.map(entry => describeEntry(entry))).toEqual([
			'user Turn DEBUG off and check the tests.',
			'card read ok',
			'card grep ok',
			'card glob ok',
			'card edit ok',
			'card edit error',
			'card bash failed',
			'card web_search ok',
			'card web_fetch ok',
			'card todo_write ok',
			'todo completed:Turn DEBUG off, in_progress:Fix failing test',
			'card bash ok',
			'assistant DEBUG is off; one test still fails.',
			'turn 1 completed',
			'user Wait for the server, then say done.',
			'card bash cancelled',
			'card bash cancelled',
			'turn 2 cancelled by you',
			'user Write a notes file.',
			'card write running',
		]);
		expect(fold.counts).toEqual({pending: 0, running: 1, ok: 8, failed: 1, error: 1, denied: 0, cancelled: 2, interrupted: 0});
	});

	it('sums a turn\'s usage over its steps and times it from its start', () => {
		const fold = new SessionFold(referencePresenters('/'));
		const at = (seq: number, type: string, data: unknown): SessionEvent => readEvent({type, seq, time: 1000 + seq * 100, data});
		const message = (turn: number, step: number, text: string, usage: unknown) => ({turn, step, usage, message: {role: 'assistant', content: [{type: 'text', text}]}});
		for (const event of [
			at(0, 'turn/start', {turn: 1}),
			at(1, 'assistant/message', message(1, 1, 'one', {inputTokens: 10, outputTokens: 2})),
			at(2, 'assistant/message', message(1, 2, 'two', {inputTokens: 30, outputTokens: 5})),
			at(3, 'turn/end', {turn: 1, reason: {kind: 'error', error: {message: 'provider down'}}}),
		]) {
			fold.apply(event);
		}

		expect(fold.entries.at(-1)).toEqual({entry: 'turn', seq: 3, time: 1300, revision: 0, turn: 1, outcome: {text: 'error: provider down', failed: true}, durationMs: 300, usage: {inputTokens: 40, outputTokens: 7}});
	});

	it('shows no turn end for a turn without a model step that completed, and does for one that failed', () => {
		const fold = new SessionFold(referencePresenters('/'));
		fold.apply({type: 'turn/start', seq: 0, time: 0, data: {turn: 1}});
		fold.apply({type: 'turn/end', seq: 1, time: 5, data: {turn: 1, reason: {kind: 'completed'}}});
		fold.apply({type: 'turn/start', seq: 2, time: 6, data: {turn: 2}});
		fold.apply({type: 'turn/end', seq: 3, time: 9, data: {turn: 2, reason: {kind: 'interrupted'}}});
		expect(fold.entries.map(entry => describeEntry(entry))).toEqual(['turn 2 interrupted (crash)']);
	});

	it('keeps replacement messages of a compaction out, and empty messages and tool-call-only answers too', () => {
		const fold = new SessionFold(referencePresenters('/'));
		fold.apply({type: 'user/message', seq: 0, time: 0, data: {role: 'user', content: [{type: 'text', text: 'pruned'}], source: {kind: 'user'}}, surfaceOp: {op: 'replace', start: 0, end: 1}} as SessionEvent);
		fold.apply({type: 'user/message', seq: 1, time: 0, data: {role: 'user', content: [{type: 'text', text: '  '}], source: {kind: 'user'}}});
		fold.apply({type: 'assistant/message', seq: 2, time: 0, data: {turn: 1, step: 1, message: {role: 'assistant', content: [{type: 'tool-call', id: 'c', name: 'bash', arguments: '{}'}]}}});
		fold.apply({type: 'steering/message', seq: 3, time: 0, data: {role: 'user', content: [{type: 'text', text: 'stop that'}], source: {kind: 'user'}}});
		expect(fold.entries.map(entry => describeEntry(entry))).toEqual(['user stop that']);
	});
});
