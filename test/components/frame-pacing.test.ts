/**
When a change of the live session reaches the screen (components/frame-pacing.ts): at once after a
quiet frame or, when urgent (a step's first words, an approval, the end), after a quiet 60 Hz frame;
changes coming faster are handed over together at the end of the frame, the last one never dropped. Fake timers and a fake
clock: nothing here depends on the machine's speed.
*/
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {isUrgentChange, PACED_FRAME_MS, pacedListener, URGENT_SPACING_MS} from '../../components/frame-pacing.js';

describe('pacedListener', () => {
	let clock = 0;
	beforeEach(() => {
		vi.useFakeTimers();
		clock = 1000;
	});
	afterEach(() => {
		vi.useRealTimers();
	});
	const advance = (ms: number): void => {
		clock += ms;
		vi.advanceTimersByTime(ms);
	};

	it('hands the first change over at once, and a burst after it once, at the end of the frame', () => {
		const calls: number[] = [];
		const paced = pacedListener(() => calls.push(clock), {now: () => clock});
		paced.notify();
		expect(calls).toEqual([1000]);
		advance(5);
		paced.notify();
		advance(5);
		paced.notify();
		expect(calls).toEqual([1000]);
		advance(PACED_FRAME_MS - 10);
		expect(calls).toEqual([1000, 1000 + PACED_FRAME_MS]);
		// Quiet for a frame: the next change is at once again.
		advance(PACED_FRAME_MS);
		paced.notify();
		expect(calls).toHaveLength(3);
		expect(calls[2]).toBe(1000 + 2 * PACED_FRAME_MS);
	});

	it('hands an urgent change over at once after a quiet 60 Hz frame, even within a paced frame, and drops the delivery it overtook', () => {
		const calls: number[] = [];
		const paced = pacedListener(() => calls.push(clock), {now: () => clock});
		paced.notify();
		advance(3);
		paced.notify();
		advance(URGENT_SPACING_MS - 3);
		paced.notify(true);
		expect(calls).toEqual([1000, 1000 + URGENT_SPACING_MS]);
		advance(PACED_FRAME_MS);
		expect(calls).toEqual([1000, 1000 + URGENT_SPACING_MS]);
	});

	it('draws urgent changes closer than a 60 Hz frame together at its end: a fast tool loop is not drawn once a step', () => {
		const calls: number[] = [];
		const paced = pacedListener(() => calls.push(clock), {now: () => clock});
		paced.notify(true);
		advance(4);
		// A paced change waits for the end of the 33 ms frame; the urgent one after it brings that forward.
		paced.notify();
		advance(2);
		paced.notify(true);
		advance(4);
		paced.notify(true);
		expect(calls).toEqual([1000]);
		advance(URGENT_SPACING_MS - 10);
		expect(calls).toEqual([1000, 1000 + URGENT_SPACING_MS]);
		// Nothing else waited: no frame at the paced frame's end.
		advance(PACED_FRAME_MS);
		expect(calls).toEqual([1000, 1000 + URGENT_SPACING_MS]);
	});

	it('drops a waiting change once disposed', () => {
		const calls: number[] = [];
		const paced = pacedListener(() => calls.push(clock), {now: () => clock});
		paced.notify();
		paced.notify();
		paced.dispose();
		advance(PACED_FRAME_MS * 2);
		expect(calls).toEqual([1000]);
	});
});

const streaming = (text: string, extra: {reasoning?: string; preparing?: string[]; seq?: number} = {}) => ({entry: 'assistant', seq: extra.seq ?? 5, streaming: true, text, reasoning: extra.reasoning ?? '', preparing: extra.preparing ?? []});
const card = (seq: number) => ({entry: 'card', seq});
const snapshot = (runningEntries: Array<ReturnType<typeof streaming> | ReturnType<typeof card>>, extra: {approval?: unknown; closing?: boolean} = {}) => ({runningEntries, closing: extra.closing ?? false, ...(extra.approval === undefined ? {} : {approval: extra.approval})});

describe('isUrgentChange', () => {
	it('is urgent when a streaming step first shows words: text or reasoning', () => {
		expect(isUrgentChange(snapshot([]), snapshot([streaming('H')]))).toBe(true);
		expect(isUrgentChange(snapshot([streaming('')]), snapshot([streaming('H')]))).toBe(true);
		expect(isUrgentChange(snapshot([streaming('')]), snapshot([streaming('', {reasoning: 'h'})]))).toBe(true);
		// Words after a call being prepared are still the step's first words.
		expect(isUrgentChange(snapshot([streaming('', {preparing: ['bash']})]), snapshot([streaming('I', {preparing: ['bash']})]))).toBe(true);
	});

	it('paces a tool call being prepared: a status line, not words to read (a tool loop opens every step with one)', () => {
		expect(isUrgentChange(snapshot([streaming('')]), snapshot([streaming('', {preparing: ['bash']})]))).toBe(false);
		expect(isUrgentChange(snapshot([card(3)]), snapshot([streaming('', {preparing: ['bash'], seq: 8})]))).toBe(false);
	});

	it('is not urgent when a stream already shown grows, or an empty one starts', () => {
		expect(isUrgentChange(snapshot([streaming('Hel')]), snapshot([streaming('Hello')]))).toBe(false);
		expect(isUrgentChange(snapshot([]), snapshot([streaming('')]))).toBe(false);
		expect(isUrgentChange(snapshot([]), snapshot([]))).toBe(false);
	});

	it('is urgent when an approval appears or the session closes', () => {
		expect(isUrgentChange(snapshot([]), snapshot([], {approval: {id: 'a'}}))).toBe(true);
		expect(isUrgentChange(snapshot([], {approval: {id: 'a'}}), snapshot([], {approval: {id: 'a'}}))).toBe(false);
		expect(isUrgentChange(snapshot([]), snapshot([], {closing: true}))).toBe(true);
	});

	it('paces an entry leaving the live region for the scrollback: a card settling, a stream becoming its message (the scrollback waits for that frame)', () => {
		expect(isUrgentChange(snapshot([card(3), card(4)]), snapshot([card(4)]))).toBe(false);
		expect(isUrgentChange(snapshot([card(3)]), snapshot([card(4)]))).toBe(false);
		expect(isUrgentChange(snapshot([streaming('I will list')]), snapshot([card(9)]))).toBe(false);
		expect(isUrgentChange(snapshot([card(3)]), snapshot([card(3), card(4)]))).toBe(false);
		expect(isUrgentChange(snapshot([card(3), streaming('I')]), snapshot([card(3), streaming('I will')]))).toBe(false);
		// A new step's first token stays urgent, whatever else left.
		expect(isUrgentChange(snapshot([card(3)]), snapshot([streaming('I', {seq: 8})]))).toBe(true);
	});
});
