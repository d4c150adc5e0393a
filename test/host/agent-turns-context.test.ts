/**
What the live screen reads of the agent's window through `AgentTurns`: the meter, `/model`'s
description with a warning about the window (Ollama's small default), and `/compact`'s words.
*/
import {describe, expect, test} from 'vitest';
import type {ModelClient} from '../../src/agent/model-types.js';
import {modelTurns} from '../../src/host/agent-turns.js';

const model = {provider: 'openai-compatible', model: 'llama3.2', endpoint: 'http://127.0.0.1:11434/v1', stream: async function * () {}} as unknown as ModelClient;

describe('the agent\'s window as the screen reads it', () => {
	test('the meter, and /model says the window\'s warning', () => {
		const turns = modelTurns({
			model,
			runTurn: async () => undefined,
			contextUse: () => ({used: 3100, window: 4096, windowSource: 'server (Ollama default)', warning: 'Ollama serves 4096 tokens of context unless num_ctx is set', basis: 'estimated'}),
		}, '--model', () => model);
		expect(turns.meter?.()).toBe('76% · 3k/4k');
		expect(turns.describe()).toBe('model: openai-compatible:llama3.2 via 127.0.0.1:11434 (from --model); /model PROVIDER:MODEL switches for the next message\nOllama serves 4096 tokens of context unless num_ctx is set');
	});

	test('/compact says the figures, or why nothing was done', async () => {
		const outcomes = [{kind: 'compacted' as const, before: 13_112, after: 4980, summarised: false, note: 'the summary request failed (boom); pruned tool results instead'}, {kind: 'refused' as const, reason: 'nothing to compact'}];
		const turns = modelTurns({model, runTurn: async () => undefined, compact: async () => outcomes.shift()!}, '--model', () => model);
		expect(await turns.compact!(undefined, new AbortController().signal)).toEqual({ok: true, message: 'compacted: 13k → 5k tokens (pruned only); the summary request failed (boom); pruned tool results instead'});
		expect(await turns.compact!('x', new AbortController().signal)).toEqual({ok: false, message: '/compact: nothing to compact'});
	});
});
