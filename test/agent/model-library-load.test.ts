/**
A session loads the model library's provider package of its own model, not all four (issue 16: the
first turn's fixed cost and the session's memory). Each provider package is replaced by a module
that records being imported; the real `ai` package loads as in a session.
*/
import {beforeEach, describe, expect, it, vi} from 'vitest';

const imported = new Set<string>();
const fakeProvider = (name: string) => {
	imported.add(name);
	const model = {specificationVersion: 'v3', provider: name, modelId: 'm', supportedUrls: {}, doGenerate: vi.fn(), doStream: vi.fn()};
	const create = () => Object.assign(() => model, {chat: () => model, chatModel: () => model});
	return {createOpenAI: create, createAnthropic: create, createGoogleGenerativeAI: create, createOpenAICompatible: create};
};

describe('the model library loads per provider', () => {
	beforeEach(() => {
		// Fresh modules and mocks each test, so a package imported by an earlier one is imported (and recorded) again.
		vi.resetModules();
		imported.clear();
		vi.doMock('@ai-sdk/openai', () => fakeProvider('openai'));
		vi.doMock('@ai-sdk/anthropic', () => fakeProvider('anthropic'));
		vi.doMock('@ai-sdk/google', () => fakeProvider('google'));
		vi.doMock('@ai-sdk/openai-compatible', () => fakeProvider('openai-compatible'));
	});

	it('an OpenAI-compatible server (--base-url) loads only the compatible package', async () => {
		const {resolveModel} = await import('../../src/agent/model-client.js');
		const model = resolveModel({spec: 'local-model', baseUrl: 'http://127.0.0.1:9/v1', env: {}});
		// Resolving loads nothing yet; preloading loads what the first request needs.
		expect([...imported]).toEqual([]);
		await model.preload?.();
		expect([...imported]).toEqual(['openai-compatible']);
	});

	it.each([
		['anthropic:claude-x', {ANTHROPIC_API_KEY: 'k'}, 'anthropic'],
		['openai:gpt-x', {OPENAI_API_KEY: 'k'}, 'openai'],
		['gemini:gemini-x', {GEMINI_API_KEY: 'k'}, 'google'],
		['deepseek:chat', {DEEPSEEK_API_KEY: 'k'}, 'openai-compatible'],
	])('%s loads %s… only its own package', async (spec, env, expected) => {
		const {resolveModel} = await import('../../src/agent/model-client.js');
		await resolveModel({spec, env}).preload?.();
		expect([...imported]).toEqual([expected]);
	});
});
