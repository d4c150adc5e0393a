/**
Which variables are a session's secrets (`session-secrets.ts`): the keys cardterm reads and the
config's names are kept from commands unless passed through, and every one set is redacted.
*/
import {describe, expect, it} from 'vitest';
import {KNOWN_SECRET_VARIABLES, sessionSecrets} from '../../src/host/session-secrets.js';

describe('a session\'s secrets', () => {
	it('are every provider\'s key variable and the web search\'s key', () => {
		expect([...KNOWN_SECRET_VARIABLES].sort()).toEqual(['ANTHROPIC_API_KEY', 'CARDTERM_SEARXNG_KEY', 'DEEPSEEK_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY']);
	});

	it('are kept from commands unless passed through, and redacted whether passed or not; blank ones are no secret', () => {
		const env = {PATH: '/bin', OPENAI_API_KEY: 'sk-aaaaaaaaaaaa', ANTHROPIC_API_KEY: ' sk-ant-bbbbbbbb\n', GITHUB_TOKEN: 'ghp_cccccccccc', GEMINI_API_KEY: '  ', HOME: '/home/me'};
		const {commandEnv, secrets} = sessionSecrets(env, {secrets: ['GITHUB_TOKEN', 'NOT_SET'], passthrough: ['ANTHROPIC_API_KEY']});
		expect(commandEnv).toEqual({PATH: '/bin', HOME: '/home/me', ANTHROPIC_API_KEY: ' sk-ant-bbbbbbbb\n'});
		expect(secrets).toEqual([{name: 'OPENAI_API_KEY', value: 'sk-aaaaaaaaaaaa'}, {name: 'ANTHROPIC_API_KEY', value: 'sk-ant-bbbbbbbb'}, {name: 'GITHUB_TOKEN', value: 'ghp_cccccccccc'}]);
	});
});
