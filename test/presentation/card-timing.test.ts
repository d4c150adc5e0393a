/** A card's run time and its approval's wait, apart (presentation/card-timing.ts; issue 16, first day 10). */
import {describe, expect, it} from 'vitest';
import {cardToJson} from '../../src/presentation/card-json.js';
import {cardTiming} from '../../src/presentation/card-timing.js';
import type {Card} from '../../src/presentation/card.js';
import {presentersOf} from '../../src/presentation/presenters.js';
import {foldEvents} from '../../src/session/fold/fold.js';
import {EventScript} from '../session/fold-events.js';

const T = 1_790_000_000_000;

/** A bash call at T asked about at T, answered `outcome` at `answeredAt`, its result at `resultAt`. */
function card(outcome: string | undefined, answeredAt: number, resultAt: number, extra: Record<string, unknown> = {}): Card {
	const script = new EventScript();
	script.push('tool/call', {turn: 1, step: 1, callId: 'c', name: 'bash', arguments: '{"command":"make"}'}, {time: T});
	if (outcome !== undefined) {
		script.push('approval/asked', {id: 'a', toolName: 'bash', callId: 'c'}, {time: T});
		script.push('approval/decided', {id: 'a', outcome, ...extra}, {time: answeredAt});
	}

	const refused = outcome === 'rejected' || outcome === 'unavailable';
	script.push('tool/result', {turn: 1, step: 1, message: {role: 'user', source: {kind: 'tool', callId: 'c'}, content: [{type: 'tool-result', toolCallId: 'c', content: [{type: 'text', text: refused ? 'Error: refused' : 'ok'}], isError: refused}]}}, {surfaceOp: 'append', time: resultAt});
	const entry = foldEvents(script.events, presentersOf([])).entries.find(each => each.entry === 'card');
	return (entry as {card: Card}).card;
}

describe('cardTiming', () => {
	it('runs from the answer, not from the call: a 0.8 s command that waited 14 s for the person', () => {
		const waited = card('allowed-once', T + 14_000, T + 14_800);
		expect(cardTiming(waited)).toEqual({runStart: T + 14_000, runMs: 800, waitMs: 14_000});
		expect(cardToJson(waited)).toMatchObject({durationMs: 800, approvalWaitMs: 14_000});
	});

	it('a call that never asked runs from its call, with no wait', () => {
		const plain = card(undefined, 0, T + 300);
		expect(cardTiming(plain)).toEqual({runStart: T, runMs: 300});
		expect('approvalWaitMs' in cardToJson(plain)).toBe(false);
	});

	it('a refused call never ran; a grant or an unattended session answered at once: no wait', () => {
		expect(cardTiming(card('rejected', T + 4200, T + 4201))).toEqual({runStart: null, runMs: null, waitMs: 4200});
		expect(cardTiming(card('unavailable', T, T + 1))).toEqual({runStart: null, runMs: null});
		expect(cardTiming(card('allowed-session', T, T + 50, {standing: true}))).toEqual({runStart: T, runMs: 50});
	});
});
