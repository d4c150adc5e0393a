import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {describe, expect, it} from 'vitest';

type Pace = {firstSeq: number; at: number[]; tick: number[]};
type Group = {tick: number; at: number; drafts: string[]};
const module = join(import.meta.dirname, '../../bench/lib/live-pace.mjs');
const {emitAtPace, paceGroups, paceRecorder, waitUntil} = await import(pathToFileURL(module).href) as {
	emitAtPace: (session: {log: {emit: (draft: string) => void}}, groups: Group[]) => Promise<number>;
	paceGroups: (log: {drafts: string[]; seqs: number[]}, pace: Pace) => Group[];
	paceRecorder: (firstSeq: number) => {pace: Pace; start: () => void; record: () => void};
	waitUntil: (origin: number, at: number) => Promise<void>;
};

describe('paceGroups (bench/acp-session.mjs floor d)', () => {
	it('groups drafts by the live turn they arrived in, at the first one\'s offset', () => {
		const pace = {firstSeq: 0, at: [1, 1.5, 7, 7.2, 7.3, 20], tick: [0, 0, 1, 1, 1, 2]};
		const groups = paceGroups({drafts: ['a', 'b', 'c', 'd', 'e', 'f'], seqs: [0, 1, 2, 3, 4, 5]}, pace);
		expect(groups).toEqual([
			{tick: 0, at: 1, drafts: ['a', 'b']},
			{tick: 1, at: 7, drafts: ['c', 'd', 'e']},
			{tick: 2, at: 20, drafts: ['f']},
		]);
	});

	it('puts events the live listener did not see with the nearest group', () => {
		// Seq 0 is the session's opening (before the listener), seq 4 came after its last event.
		const pace = {firstSeq: 1, at: [3, 9, 9.5], tick: [4, 5, 5]};
		const groups = paceGroups({drafts: ['open', 'x', 'y', 'z', 'late'], seqs: [0, 1, 2, 3, 4]}, pace);
		expect(groups).toEqual([
			{tick: 4, at: 3, drafts: ['open', 'x']},
			{tick: 5, at: 9, drafts: ['y', 'z', 'late']},
		]);
	});
});

describe('waitUntil', () => {
	it('yields a turn of the event loop even when the offset has passed (the floor idles between batches)', async () => {
		const order: string[] = [];
		setImmediate(() => order.push('turn'));
		await waitUntil(performance.now(), -5);
		order.push('waited');
		expect(order).toEqual(['turn', 'waited']);
	});
});

describe('paceRecorder', () => {
	it('numbers the event loop\'s turns: events of one turn share a tick, offsets count from start()', async () => {
		const recorder = paceRecorder(7);
		recorder.start();
		recorder.record();
		recorder.record();
		await new Promise(resolve => {
			setImmediate(resolve);
		});
		recorder.record();
		expect(recorder.pace.firstSeq).toBe(7);
		expect(recorder.pace.tick).toEqual([0, 0, 1]);
		expect(recorder.pace.at).toHaveLength(3);
		expect(recorder.pace.at.every((at, index) => at >= 0 && at >= (recorder.pace.at[index - 1] ?? 0))).toBe(true);
	});
});

describe('emitAtPace', () => {
	it('emits every group\'s drafts in order, a later group in a later turn of the loop', async () => {
		const emitted: string[] = [];
		setImmediate(() => emitted.push('turn'));
		const count = await emitAtPace({log: {emit: draft => emitted.push(draft)}}, [{tick: 0, at: 0, drafts: ['a', 'b']}, {tick: 1, at: 0, drafts: ['c']}]);
		expect(count).toBe(3);
		expect(emitted).toEqual(['turn', 'a', 'b', 'c']);
	});
});
