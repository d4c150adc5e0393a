/**
One frame pacer, the screen's (components/frame-pacing.ts): the live session core tells the screen
of every change at once — a streaming step's deltas included, where it once waited 16 ms of its own
(`STREAM_FRAME_MS`) — and the screen's pacer, wired as usePacedSnapshot wires it, draws the first
shown text at once and a burst after it together at the end of its frame (33 ms). The snapshot is
current all along.
*/
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import type {LiveSnapshot} from '../../components/session-model.js';
import {isUrgentChange, PACED_FRAME_MS, pacedListener} from '../../components/frame-pacing.js';
import {openSession, type OpenedSession} from '../../src/host/open-session.js';
import type {StreamChunk} from '../../src/session/events/events.js';
import type {LiveSession} from '../../src/live/live-session.js';
import {liveSessionFor} from './live-session-harness.js';

const chunk = (session: OpenedSession, data: StreamChunk): void => {
	session.log.emit({type: 'assistant/chunk', data: {turn: 1, step: 1, chunk: data}});
};

async function streamingSession(): Promise<{session: OpenedSession; live: LiveSession; told: () => number; shown: () => string}> {
	const session = await openSession({cwd: process.cwd()});
	const live = liveSessionFor(session);
	let told = 0;
	live.subscribe(() => {
		told += 1;
	});
	session.log.emit({type: 'turn/start', data: {turn: 1}});
	session.log.emit({type: 'step/start', data: {turn: 1, step: 1}});
	return {session, live, told: () => told, shown: () => JSON.stringify(live.getSnapshot().runningEntries)};
}

/** The screen's side: what usePacedSnapshot hands React, counted. */
function screenOf(live: LiveSession): {draws: () => number; drawn: () => LiveSnapshot} {
	let drawn = live.getSnapshot();
	let draws = 0;
	const paced = pacedListener(() => {
		drawn = live.getSnapshot();
		draws += 1;
	}, {now: () => Date.now()});
	live.subscribe(() => {
		paced.notify(isUrgentChange(drawn, live.getSnapshot()));
	});
	return {draws: () => draws, drawn: () => drawn};
}

describe('the live frame of a streaming step', () => {
	beforeEach(() => {
		vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout', 'Date']});
	});

	afterEach(() => {
		vi.useRealTimers();
	});

	it('is told to the screen at every delta by the core, which keeps no frame of its own', async () => {
		const {live, session, told, shown} = await streamingSession();
		const before = told();
		chunk(session, {type: 'block-start', index: 0, blockType: 'text'});
		chunk(session, {type: 'text-delta', index: 0, text: 'Hel'});
		chunk(session, {type: 'text-delta', index: 0, text: 'lo, '});
		chunk(session, {type: 'text-delta', index: 0, text: 'world'});
		// One tell per delta (the block's start shows nothing yet).
		expect(told() - before).toBe(3);
		expect(shown()).toContain('Hello, world');
		// Nothing waits in the core.
		vi.advanceTimersByTime(PACED_FRAME_MS * 4);
		expect(told() - before).toBe(3);
		await live.close();
	});

	it('is drawn by the screen\'s pacer: the first text at once, the deltas right after it together at the end of the frame', async () => {
		const {live, session} = await streamingSession();
		const screen = screenOf(live);
		vi.advanceTimersByTime(PACED_FRAME_MS);
		chunk(session, {type: 'block-start', index: 0, blockType: 'text'});
		const before = screen.draws();
		chunk(session, {type: 'text-delta', index: 0, text: 'Hel'});
		expect(screen.draws()).toBe(before + 1);
		chunk(session, {type: 'text-delta', index: 0, text: 'lo, '});
		chunk(session, {type: 'text-delta', index: 0, text: 'world'});
		expect(screen.draws()).toBe(before + 1);
		expect(JSON.stringify(screen.drawn().runningEntries)).not.toContain('Hello, world');
		vi.advanceTimersByTime(PACED_FRAME_MS);
		expect(screen.draws()).toBe(before + 2);
		expect(JSON.stringify(screen.drawn().runningEntries)).toContain('Hello, world');
		// Nothing waits any more: a quiet frame later, nothing more is drawn.
		vi.advanceTimersByTime(PACED_FRAME_MS * 4);
		expect(screen.draws()).toBe(before + 2);
		await live.close();
	});

	it('leaves the live frame with the step\'s message: told at once, the stream gone from the snapshot', async () => {
		const {live, session, told} = await streamingSession();
		chunk(session, {type: 'block-start', index: 0, blockType: 'text'});
		chunk(session, {type: 'text-delta', index: 0, text: 'Done.'});
		const waiting = told();
		session.log.emit({type: 'assistant/message', data: {turn: 1, step: 1, message: {id: 'a-1.1', role: 'assistant', content: [{type: 'text', text: 'Done.'}], source: {kind: 'model', provider: 'p', model: 'm'}}}, surfaceOp: 'append'});
		expect(told()).toBe(waiting + 1);
		expect(live.getSnapshot().runningEntries).toEqual([]);
		vi.advanceTimersByTime(PACED_FRAME_MS * 4);
		expect(told()).toBe(waiting + 1);
		await live.close();
	});
});
