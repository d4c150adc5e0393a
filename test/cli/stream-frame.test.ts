/**
The live frame of a streaming step redraws at most once a frame (`STREAM_FRAME_MS`): deltas that
arrive together are drawn together, the first of a quiet spell at once; any other change is drawn
at once and takes the waiting deltas with it. The snapshot is current all along: only the
listeners (the app's redraws) wait.
*/
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import type {SessionController} from '../../src/cli/interactive/session-controller.js';
import {STREAM_FRAME_MS} from '../../src/cli/interactive/session-controller.js';
import {openSession, type OpenedSession} from '../../src/cli/open-session.js';
import type {StreamChunk} from '../../src/session/events.js';
import {controllerFor} from './session-controller-harness.js';

const chunk = (session: OpenedSession, data: StreamChunk): void => {
	session.log.emit({type: 'assistant/chunk', data: {turn: 1, step: 1, chunk: data}});
};

async function streamingSession(): Promise<{session: OpenedSession; controller: SessionController; draws: () => number; shown: () => string}> {
	const session = await openSession({cwd: process.cwd()});
	const controller = await controllerFor(session);
	let draws = 0;
	controller.subscribe(() => {
		draws += 1;
	});
	session.log.emit({type: 'turn/start', data: {turn: 1}});
	session.log.emit({type: 'step/start', data: {turn: 1, step: 1}});
	return {session, controller, draws: () => draws, shown: () => JSON.stringify(controller.getSnapshot().runningEntries)};
}

describe('the live frame of a streaming step', () => {
	beforeEach(() => {
		vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout', 'Date']});
	});

	afterEach(() => {
		vi.useRealTimers();
	});

	it('draws the first delta at once and the ones right after it together, one frame later', async () => {
		const {controller, session, draws, shown} = await streamingSession();
		vi.advanceTimersByTime(STREAM_FRAME_MS);
		const before = draws();
		chunk(session, {type: 'block-start', index: 0, blockType: 'text'});
		chunk(session, {type: 'text-delta', index: 0, text: 'Hel'});
		expect(draws()).toBe(before + 1);
		chunk(session, {type: 'text-delta', index: 0, text: 'lo, '});
		chunk(session, {type: 'text-delta', index: 0, text: 'world'});
		expect(draws()).toBe(before + 1);
		expect(shown()).toContain('Hello, world');
		vi.advanceTimersByTime(STREAM_FRAME_MS - 1);
		expect(draws()).toBe(before + 1);
		vi.advanceTimersByTime(1);
		expect(draws()).toBe(before + 2);
		// Nothing waits any more: a quiet frame later, nothing more is drawn.
		vi.advanceTimersByTime(STREAM_FRAME_MS * 4);
		expect(draws()).toBe(before + 2);
		await controller.close();
	});

	it('draws an entry at once, with the deltas still waiting for their frame', async () => {
		const {controller, session, draws} = await streamingSession();
		chunk(session, {type: 'block-start', index: 0, blockType: 'text'});
		chunk(session, {type: 'text-delta', index: 0, text: 'Done.'});
		const waiting = draws();
		session.log.emit({type: 'assistant/message', data: {turn: 1, step: 1, message: {id: 'a-1.1', role: 'assistant', content: [{type: 'text', text: 'Done.'}], source: {kind: 'model', provider: 'p', model: 'm'}}}, surfaceOp: 'append'});
		expect(draws()).toBe(waiting + 1);
		expect(controller.getSnapshot().runningEntries).toEqual([]);
		vi.advanceTimersByTime(STREAM_FRAME_MS * 4);
		expect(draws()).toBe(waiting + 1);
		await controller.close();
	});
});
