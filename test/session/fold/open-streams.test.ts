import {describe, expect, it} from 'vitest';
import {MAX_OPEN_STREAMS, MAX_PREPARING_CALLS, OpenStreams, streamKey} from '../../../src/session/fold/open-streams.js';

const at = (seq: number) => ({seq, time: 1000 + seq});
const text = (value: string, kind: 'text' | 'reasoning' = 'text') => ({kind, index: 0, text: value});

describe('the open streams (a step\'s output while it streams)', () => {
	it('opens a stream at its first delta, keeps its tokens, and shows it once something visible streamed', () => {
		const streams = new OpenStreams<string>();
		expect(streams.text(1, 1, at(5), text('  '), 'line 5')).toBe(streamKey(1, 1));
		expect(streams.all).toMatchObject([{key: '1:1', turn: 1, step: 1, seq: 5, time: 1005, textOpen: true, visible: false, lines: ['line 5'], revision: 0}]);
		expect(streams.shown).toEqual([]);
		streams.text(1, 1, at(6), text('hi', 'reasoning'), 'line 6');
		expect(streams.shown).toMatchObject([{seq: 5, visible: true, lines: ['line 5', 'line 6'], revision: 1}]);
	});

	it('rebuilds its views once per change: the same arrays until a delta comes', () => {
		const streams = new OpenStreams<undefined>();
		streams.text(1, 1, at(1), text('a'), undefined);
		const [all, version] = [streams.all, streams.version];
		expect(streams.all).toBe(all);
		streams.text(1, 1, at(2), text('b'), undefined);
		expect(streams.version).toBeGreaterThan(version);
		expect(streams.all).not.toBe(all);
	});

	it('stops the text at the step\'s message (later deltas change nothing) and keeps a call being prepared until it starts', () => {
		const streams = new OpenStreams<undefined>();
		streams.text(1, 1, at(1), text('hello'), undefined);
		expect(streams.preparing(1, 1, at(2), {kind: 'tool', id: 'c1'})).toBe('1:1');
		// A later delta names the call; a repeated name changes nothing.
		expect(streams.preparing(1, 1, at(3), {kind: 'tool', id: 'c1', name: 'read'})).toBe('1:1');
		expect(streams.preparing(1, 1, at(4), {kind: 'tool', id: 'c1', name: 'read'})).toBeUndefined();
		expect(streams.closeText(1, 1)).toEqual({key: '1:1', revision: 3});
		expect(streams.closeText(1, 1)).toBeUndefined();
		expect(streams.text(1, 1, at(5), text('late'), undefined)).toBeUndefined();
		expect(streams.shown).toMatchObject([{textOpen: false, preparing: ['read']}]);
		streams.started('c1', 1, 1);
		expect(streams.all).toEqual([]);
	});

	it('without its step, a started call\'s preview goes from whichever stream holds it (the stream stays while its text may still come)', () => {
		const streams = new OpenStreams<undefined>();
		streams.preparing(2, 1, at(1), {kind: 'tool', id: 'c9', name: 'grep'});
		expect(streams.shown).toHaveLength(1);
		streams.started('c9', undefined, undefined);
		expect(streams.shown).toEqual([]);
		expect(streams.all).toMatchObject([{key: '2:1', textOpen: true, preparing: []}]);
	});

	it('closes a step: its visible streamed text is handed back with the next revision and its tokens; a blank or closed one is not', () => {
		const streams = new OpenStreams<number>();
		streams.text(1, 1, at(1), text('half an ans'), 1);
		streams.text(1, 1, at(2), text('wer'), 2);
		expect(streams.closeStep(1, 1)).toEqual({key: '1:1', revision: 2, lines: [1, 2]});
		expect(streams.has(1, 1)).toBe(false);
		streams.text(1, 2, at(3), text(' '), 3);
		expect(streams.closeStep(1, 2)).toBeUndefined();
		streams.text(1, 3, at(4), text('said'), 4);
		streams.closeText(1, 3);
		expect(streams.closeStep(1, 3)).toBeUndefined();
		expect(streams.closeStep(9, 9)).toBeUndefined();
	});

	it('drops a turn\'s streams (a retry, a turn that ends without its step\'s end), or all of them', () => {
		const streams = new OpenStreams<undefined>();
		streams.text(1, 1, at(1), text('a'), undefined);
		streams.text(2, 1, at(2), text('b'), undefined);
		streams.drop(1);
		expect(streams.all.map(stream => stream.key)).toEqual(['2:1']);
		streams.drop(undefined);
		expect(streams.all).toEqual([]);
	});

	it('keeps at most MAX_OPEN_STREAMS streams (the oldest go) and MAX_PREPARING_CALLS calls each', () => {
		const streams = new OpenStreams<undefined>();
		for (let step = 1; step <= MAX_OPEN_STREAMS + 3; step++) {
			streams.text(1, step, at(step), text('x'), undefined);
		}

		expect(streams.all.map(stream => stream.step)).toEqual(Array.from({length: MAX_OPEN_STREAMS}, (_, index) => index + 4));
		for (let call = 0; call < MAX_PREPARING_CALLS + 5; call++) {
			streams.preparing(9, 9, at(100), {kind: 'tool', id: `c${call}`, name: 'bash'});
		}

		expect(streams.all.at(-1)!.preparing).toHaveLength(MAX_PREPARING_CALLS);
	});
});
