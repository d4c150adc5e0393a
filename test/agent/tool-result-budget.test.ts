/**
What a tool result may cost the model: its head and tail within the budget, the middle one line that
names how much was left out and where the whole is; a step's results share the step's budget.
*/
import {describe, expect, test} from 'vitest';
import {Conversation} from '../../src/agent/conversation.js';
import {estimateTokens} from '../../src/agent/token-estimate.js';
import {boundResult} from '../../src/agent/tool-result-budget.js';
import type {SessionEvent} from '../../src/session/events/events.js';

const lines = (count: number, tag: string): string => Array.from({length: count}, (_, line) => `${tag} line ${line}`).join('\n');

describe('a bounded tool result', () => {
	test('keeps the head and the tail at line breaks, and names what was left out and where the whole is', () => {
		const text = lines(5000, 'out');
		const bounded = boundResult(text, 1000, {callId: 'call_7', seq: 312, spillPath: '/tmp/spill/out.txt'});
		expect(estimateTokens(bounded)).toBeLessThanOrEqual(1000);
		expect(bounded.startsWith('out line 0\n')).toBe(true);
		expect(bounded.endsWith('out line 4999')).toBe(true);
		expect(bounded).toMatch(/\n\[… lines \d+–\d+, [\d,]+ characters \(about [\d,]+ tokens\) left out here to fit the context budget; the whole output is on the card of call call_7 \(log seq 312\) and in \/tmp\/spill\/out\.txt\. Ask for the part you need/);
	});

	test('a text within the budget goes whole; one huge line is cut mid-line', () => {
		expect(boundResult('short', 1000, {callId: 'c', seq: 1})).toBe('short');
		const bounded = boundResult('x'.repeat(1_000_000), 500, {callId: 'c', seq: 1});
		expect(estimateTokens(bounded)).toBeLessThanOrEqual(500);
		expect(bounded).toContain('left out here');
	});

	test('the results of one step share its budget; the next step has its own', () => {
		const conversation = new Conversation({budget: {perResultTokens: 3000, perStepTokens: 4000}});
		let seq = 0;
		const event = (type: string, data: Record<string, unknown>): SessionEvent => ({type, seq: seq++, time: 0, data, surfaceOp: 'append'}) as SessionEvent;
		const result = (id: string, step: number): SessionEvent => event('tool/result', {turn: 1, step, message: {source: {callId: id}, content: [{type: 'tool-result', toolCallId: id, content: [{type: 'text', text: lines(2000, id)}], isError: false}]}});
		conversation.apply(event('assistant/message', {turn: 1, step: 1, message: {content: [{type: 'tool-call', id: 'a', name: 'bash', arguments: '{}'}, {type: 'tool-call', id: 'b', name: 'bash', arguments: '{}'}]}}));
		conversation.apply(result('a', 1));
		conversation.apply(result('b', 1));
		conversation.apply(event('assistant/message', {turn: 1, step: 2, message: {content: [{type: 'tool-call', id: 'c', name: 'bash', arguments: '{}'}]}}));
		conversation.apply(result('c', 2));
		const sent = conversation.messages().filter(message => message.role === 'tool').map(message => message.role === 'tool' ? estimateTokens(message.text) : 0);
		expect(sent[0]).toBeLessThanOrEqual(3000);
		expect(sent[0]).toBeGreaterThan(2500);
		// What the step had left after the first result.
		expect(sent[1]).toBeLessThanOrEqual(4000 - sent[0]! + 10);
		expect(sent[2]).toBeGreaterThan(2500);
	});
});
