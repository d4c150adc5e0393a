import {describe, expect, it} from 'vitest';
import {attentionFor, rings, screenState, windowTitle} from '../../components/attention.js';
import type {LiveSnapshot} from '../../components/session-model.js';

const idle: LiveSnapshot = {running: [], counts: {pending: 0, running: 0, ok: 0, failed: 0, error: 0, denied: 0, cancelled: 0, interrupted: 0}, jobsRunning: 0, queue: [], closing: false};
const approval = {id: 'a1', toolName: 'bash', callId: 'c1', choices: []};

describe('when the screen calls the person back', () => {
	it('follows the states: idle until work, working, waiting for you, done', () => {
		expect(screenState(idle, 'idle')).toBe('idle');
		expect(screenState({...idle, working: true}, 'idle')).toBe('working');
		expect(screenState({...idle, working: true, approval}, 'working')).toBe('waiting');
		expect(screenState(idle, 'working')).toBe('done');
		expect(screenState(idle, 'done')).toBe('done');
		expect(windowTitle('proj', 'waiting')).toBe('cardterm · proj · waiting for you');
		expect(windowTitle('proj', 'idle')).toBe('cardterm · proj');
	});

	it('rings for a question that starts waiting and for work that ended with nothing queued', () => {
		expect(attentionFor({state: 'working'}, {...idle, approval}, 'waiting')).toEqual({body: 'waiting for you: may bash run?'});
		// The same question does not ring twice; the next one does.
		expect(attentionFor({state: 'waiting', approvalId: 'a1'}, {...idle, approval}, 'waiting')).toBeUndefined();
		expect(attentionFor({state: 'waiting', approvalId: 'a1'}, {...idle, approval: {...approval, id: 'a2'}}, 'waiting')).toBeDefined();
		expect(attentionFor({state: 'working'}, idle, 'done')).toEqual({body: 'done'});
		expect(attentionFor({state: 'done'}, idle, 'done')).toBeUndefined();
		expect(attentionFor({state: 'working'}, {...idle, queue: [{id: 1, label: 'next'}]}, 'done')).toBeUndefined();
		expect(attentionFor({state: 'working'}, {...idle, closing: true}, 'done')).toBeUndefined();
	});

	it('rings in auto only on a reported loss of focus', () => {
		expect(rings('auto', 'unknown')).toBe(false);
		expect(rings('auto', 'focused')).toBe(false);
		expect(rings('auto', 'unfocused')).toBe(true);
		expect(rings('always', 'focused')).toBe(true);
		expect(rings('off', 'unfocused')).toBe(false);
	});
});
