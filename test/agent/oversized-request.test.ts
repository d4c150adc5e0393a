/**
The last guard before a request: a conversation past `REQUEST_MAX_CHARS` is named — its size, and
its largest message — rather than failing in the model library with `Invalid string length`. The
agent loop treats it as a context overflow (compaction then shrinks it: test/reliability/hostile-model.test.ts).
*/
import {describe, expect, it} from 'vitest';
import {oversizedRequest, REQUEST_MAX_CHARS} from '../../src/agent/conversation.js';
import type {ConversationMessage} from '../../src/agent/model-types.js';

describe('oversizedRequest', () => {
	it('passes a conversation within the bound, reading only lengths', () => {
		expect(oversizedRequest('system', [{role: 'user', text: 'x'.repeat(1000)}] as ConversationMessage[])).toBeUndefined();
	});

	it('names the size, the bound and the largest message past it', () => {
		const messages = [
			{role: 'user', text: 'read them'},
			{role: 'tool', callId: 'c1', name: 'read', text: 'x'.repeat(REQUEST_MAX_CHARS / 2), isError: false},
			{role: 'tool', callId: 'c2', name: 'read', text: 'y'.repeat((REQUEST_MAX_CHARS / 2) + 10), isError: false},
		] as ConversationMessage[];
		expect(oversizedRequest('sys', messages)).toBe(`the conversation is too large to send: 67,108,886 characters in 3 messages, past cardterm's bound of 67,108,864 (no model's window holds a tenth of that); the largest is the result of read (call c2), message 3, with 33,554,442 characters. Start a new session (this one stays in its log).`);
	});
});
