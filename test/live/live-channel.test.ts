import {describe, expect, it} from 'vitest';
import type {ScrollbackEntry} from '../../components/session-model.js';
import {LiveChannel} from '../../src/live/live-channel.js';

const lines = (text: string): ScrollbackEntry => ({kind: 'lines', lines: [{spans: [{text}]}]});
const texts = (entries: ScrollbackEntry[]) => entries.map(entry => (entry.kind === 'lines' ? entry.lines[0]!.spans[0]!.text : entry.kind));

describe('LiveChannel', () => {
	it('hands entries emitted before anyone listened to the first listener, in order, then the rest as they come', () => {
		const channel = new LiveChannel();
		channel.emit(lines('a'));
		channel.emit(lines('b'));
		const seen: ScrollbackEntry[] = [];
		const stop = channel.onScrollback(entry => seen.push(entry));
		channel.emit(lines('c'));
		expect(texts(seen)).toEqual(['a', 'b', 'c']);
		stop();
		channel.emit(lines('d'));
		const later: ScrollbackEntry[] = [];
		channel.onScrollback(entry => later.push(entry));
		expect(texts(later)).toEqual(['d']);
	});

	it('keeps a newer scrollback listener when an older one stops, and notifies change listeners until they unsubscribe', () => {
		const channel = new LiveChannel();
		const first: ScrollbackEntry[] = [];
		const second: ScrollbackEntry[] = [];
		const stopFirst = channel.onScrollback(entry => first.push(entry));
		channel.onScrollback(entry => second.push(entry));
		stopFirst();
		channel.emit(lines('x'));
		expect([texts(first), texts(second)]).toEqual([[], ['x']]);
		let calls = 0;
		const unsubscribe = channel.subscribe(() => calls++);
		channel.notify();
		unsubscribe();
		channel.notify();
		expect(calls).toBe(1);
	});
});
