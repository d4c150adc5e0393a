import {describe, expect, it} from 'vitest';
import {ContextSurface, isContextRewrite, surfaceEffect} from '../../../src/session/events/surface-op.js';
import {readEvent} from '../fold-events.js';

const replace = (start: number, end: number) => ({op: 'replace', start, end});

describe('what a surfaceOp does', () => {
	it('puts a message at the end (also without a surfaceOp, as older producers write) or in place of a range; other events are not messages', () => {
		const message = {seq: 4, time: 1, data: {content: 'hi'}};
		expect(surfaceEffect(readEvent({type: 'user/message', ...message, surfaceOp: 'append'}))).toBe('append');
		expect(surfaceEffect(readEvent({type: 'steering/message', ...message}))).toBe('append');
		expect(surfaceEffect(readEvent({type: 'user/message', ...message, surfaceOp: replace(0, 3)}))).toEqual({start: 0, end: 3});
		expect(surfaceEffect(readEvent({type: 'assistant/message', seq: 5, time: 1, data: {turn: 1, step: 1}, surfaceOp: replace(2, 2)}))).toEqual({start: 2, end: 2});
		expect(surfaceEffect(readEvent({type: 'turn/start', seq: 6, time: 1, data: {turn: 1}, surfaceOp: replace(0, 1)}))).toBeUndefined();
	});

	it('makes a replacement a context rewrite no view shows; an append, or a surfaceOp on an event that is no message, is not one', () => {
		const result = {seq: 9, time: 1, data: {message: {source: {callId: 'c'}, content: []}}};
		expect(isContextRewrite(readEvent({type: 'tool/result', ...result, surfaceOp: replace(3, 3)}))).toBe(true);
		expect(isContextRewrite(readEvent({type: 'tool/result', ...result, surfaceOp: 'append'}))).toBe(false);
		expect(isContextRewrite(readEvent({type: 'step/end', seq: 9, time: 1, data: {turn: 1, step: 1}, surfaceOp: replace(3, 3)}))).toBe(false);
	});
});

describe('the model\'s context as surface messages', () => {
	it('replaces a range of messages by one, in place, and says which it shadowed', () => {
		const surface = new ContextSurface<string>();
		for (const [seq, value] of [[1, 'a'], [3, 'b'], [4, 'c'], [7, 'd']] as const) {
			surface.append(seq, value);
		}

		let seen: readonly string[] = [];
		expect(surface.replace(9, {start: 3, end: 4}, shadowed => {
			seen = shadowed;
			return 'summary of b and c';
		})).toEqual([3, 4]);
		expect(seen).toEqual(['b', 'c']);
		expect(surface.values()).toEqual(['a', 'summary of b and c', 'd']);
		// A later replacement may take in an earlier one.
		expect(surface.replace(10, {start: 1, end: 9}, () => 'all so far')).toEqual([1, 9]);
		expect(surface.values()).toEqual(['all so far', 'd']);
	});

	it('changes nothing for a range that is not on the surface, or runs backwards, and says why', () => {
		const surface = new ContextSurface<string>();
		surface.append(1, 'a');
		surface.append(2, 'b');
		const make = (): string => {
			throw new Error('not asked');
		};

		expect(surface.replace(5, {start: 0, end: 2}, make)).toBe('replacement 5 names seqs 0..2, not a range of the context\'s messages');
		expect(surface.replace(5, {start: 2, end: 1}, make)).toBe('replacement 5 names seqs 2..1, not a range of the context\'s messages');
		expect(surface.values()).toEqual(['a', 'b']);
	});
});
