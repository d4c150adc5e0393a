/**
A model that streams without end (issue 16, attacker item 3): the step is cut at
`MESSAGE_MAX_CHARS`, its request ended, the turn ends naming the bound, and the log holds exactly
what was taken. While parts stream faster than the loop takes them, the event loop still turns
(keys, frames and signals are served between them).
*/
import {describe, expect, it} from 'vitest';
import type {ModelClient, ModelStreamPart} from '../../src/agent/model-types.js';
import {MESSAGE_MAX_CHARS, messageMaxChars} from '../../src/session/recorder/message-bound.js';
import {agentHarness} from './agent-harness.js';

describe('an endless answer', () => {
	it(`is cut at ${MESSAGE_MAX_CHARS} characters: the request ends, the turn ends naming the bound, and the log replays to the same entries`, async () => {
		const h = await agentHarness({script: [{text: 'Start. ', endless: {text: 'The same sentence again and again. '.repeat(8)}}]});
		const outcome = await h.turn('talk');
		expect(outcome.reason).toEqual({kind: 'max-tokens', message: `the answer was cut at cardterm's bound of ${MESSAGE_MAX_CHARS.toLocaleString('en-US')} characters for one step; the rest was not read`});
		const message = h.events.find(event => event.type === 'assistant/message');
		const content = message?.data as unknown as {message: {content: Array<{text: string}>}; interrupted?: boolean};
		expect(content.message.content.map(block => block.text.length)).toEqual([MESSAGE_MAX_CHARS]);
		expect(content.interrupted).toBe(true);
		// The connection was ended: the fake server's endless writer stopped.
		await expect.poll(() => h.server.hung).toBe(1);
		const {live, replay} = await h.finish();
		expect(replay).toEqual(live);
	}, 60_000);

	it('lets the event loop turn while a stream\'s parts arrive already read', async () => {
		const parts = 40_000;
		let taken = 0;
		let takenWhenTurned: number | undefined;
		const eager: ModelClient = {
			provider: 'test',
			model: 'eager',
			async * stream(): AsyncIterable<ModelStreamPart> {
				// Every part is ready at once: nothing here waits for the event loop.
				setImmediate(() => {
					takenWhenTurned = taken;
				});
				yield {type: 'text-start', id: 't'};
				for (; taken < parts; taken++) {
					yield {type: 'text-delta', id: 't', text: 'word '};
				}

				yield {type: 'text-end', id: 't'};
				yield {type: 'finish', reason: 'stop', usage: {inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0}};
			},
		};
		const h = await agentHarness({script: [], model: () => eager});
		expect((await h.turn('talk')).reason).toEqual({kind: 'completed'});
		expect(takenWhenTurned).toBeDefined();
		expect(takenWhenTurned!).toBeLessThan(parts);
		await h.finish();
	}, 60_000);

	it('is lowered, never raised, by CARDTERM_MESSAGE_MAX_CHARS (the tests that flood the real binary)', () => {
		expect(messageMaxChars({})).toBe(MESSAGE_MAX_CHARS);
		expect(messageMaxChars({CARDTERM_MESSAGE_MAX_CHARS: '262144'})).toBe(262_144);
		expect(messageMaxChars({CARDTERM_MESSAGE_MAX_CHARS: String(MESSAGE_MAX_CHARS + 1)})).toBe(MESSAGE_MAX_CHARS);
		for (const junk of ['0', '-5', '1e6', '2.5', 'many', '', '99999999999']) {
			expect(messageMaxChars({CARDTERM_MESSAGE_MAX_CHARS: junk})).toBe(MESSAGE_MAX_CHARS);
		}
	});
});
