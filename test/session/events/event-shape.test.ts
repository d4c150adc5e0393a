import {describe, expect, it} from 'vitest';
import {LogEventDecoder} from '../../../src/session/reader/event-decoder.js';
import {checkEventData} from '../../../src/session/events/event-shape.js';
import type {LogDiagnostic} from '../../../src/session/reader/log-errors.js';
import {readEvent} from '../fold-events.js';

/** What the reader reports for one line (seq 0, the first event). */
function reported(fields: Record<string, unknown>): string[] {
	const diagnostics: LogDiagnostic[] = [];
	new LogEventDecoder('<test>', diagnostic => diagnostics.push(diagnostic)).decode(JSON.stringify(fields), 2);
	return diagnostics.map(diagnostic => `${diagnostic.kind}: ${diagnostic.reason}`);
}

describe('the payload check of each arm, done once by the reader', () => {
	it('passes a well-formed payload through as it is, without a copy', () => {
		const data = {turn: 1, step: 2, message: {role: 'assistant', content: [{type: 'text', text: 'hi'}]}, usage: {inputTokens: 1}, interrupted: true};
		expect(checkEventData('assistant/message', data)).toBe(data);
		const chunk = {turn: 1, step: 1, chunk: {type: 'text-delta', index: 0, text: 'x'}};
		expect(checkEventData('assistant/chunk', chunk)).toBe(chunk);
		const other = {anything: [1, {}]};
		expect(checkEventData('plan/mode', other)).toBe(other);
	});

	it('leaves out a field readers took only when present, when it is of another kind: the event still shows what it can', () => {
		expect(readEvent({type: 'assistant/message', seq: 0, time: 1, data: {turn: 'one', step: 2, interrupted: 'yes', usage: 7, message: {content: [{type: 'text', text: 'kept'}, 'not a block', {text: 'no type'}, null]}}}).data)
			.toEqual({step: 2, message: {content: [{type: 'text', text: 'kept'}]}});
		expect(readEvent({type: 'assistant/message', seq: 0, time: 1, data: {turn: 1, message: 'not an object'}}).data).toEqual({turn: 1});
		expect(readEvent({type: 'user/message', seq: 0, time: 1, data: {content: 42, source: 'user', turn: 1.5, id: 'u-1'}}).data).toEqual({id: 'u-1'});
		expect(readEvent({type: 'assistant/chunk', seq: 0, time: 1, data: {turn: 1, step: null, chunk: {type: 'text-delta', text: 'x'}}}).data).toEqual({turn: 1, chunk: {type: 'text-delta', text: 'x'}});
		expect(readEvent({type: 'cardterm/tool-progress', seq: 0, time: 1, ignorable: true, data: {callId: 3, text: 'out'}}).data).toEqual({text: 'out'});
		expect(readEvent({type: 'session/title', seq: 0, time: 1, data: {title: ['a'], messageSeqs: [1]}}).data).toEqual({messageSeqs: [1]});
		expect(readEvent({type: 'llm/retry', seq: 0, time: 1, data: {turn: '2', attempt: 2}}).data).toEqual({attempt: 2});
	});

	it('fills a Code Mode sub-call\'s missing rootCallId with its parent (old logs had one level)', () => {
		expect(readEvent({type: 'tool/code-dispatch-start', seq: 0, time: 1, data: {parentCallId: 'p', subCallId: 'p:code:1', name: 'read', arguments: {}}}).data).toMatchObject({rootCallId: 'p'});
	});

	it('skips a line whose needed field is missing or of another kind, naming the field', () => {
		expect(reported({type: 'step/end', seq: 0, time: 1, data: {turn: 1}})).toEqual(['malformed: invalid "step/end" data: "step" must be an integer']);
		expect(reported({type: 'tool/result', seq: 0, time: 1, data: {message: {source: {}, content: []}}})).toEqual(['malformed: invalid "tool/result" data: "message.source.callId" must be a string']);
		expect(reported({type: 'assistant/chunk', seq: 0, time: 1, data: {turn: 1, step: 1, chunk: {index: 0}}})).toEqual(['malformed: invalid "assistant/chunk" data: "chunk" must be an object with a string "type"']);
	});

	it('checks the envelope\'s surfaceOp, sourceEventSeqs and ignorable as it checks seq and time', () => {
		const message = {type: 'user/message', seq: 0, time: 1, data: {content: 'hi'}};
		expect(reported({...message, surfaceOp: 'append'})).toEqual([]);
		expect(reported({...message, surfaceOp: {op: 'replace', start: 0, end: 4}, sourceEventSeqs: [0, 4]})).toEqual([]);
		expect(reported({...message, surfaceOp: {kind: 'replace'}})).toEqual(['malformed: invalid "surfaceOp" (must be "append" or {"op": "replace", "start", "end"} with seqs)']);
		expect(reported({...message, surfaceOp: 'prepend'})).toEqual(['malformed: invalid "surfaceOp" (must be "append" or {"op": "replace", "start", "end"} with seqs)']);
		expect(reported({...message, sourceEventSeqs: [-1]})).toEqual(['malformed: invalid "sourceEventSeqs" (must be an array of seqs)']);
		expect(reported({...message, ignorable: 'yes'})).toEqual(['malformed: invalid "ignorable" (must be true or false)']);
	});
});
