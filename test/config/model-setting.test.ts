/**
Which model and which server: flags over the environment over the project over the user; a file's
`baseUrl` goes with that file's `model` only; a provider's server from `providers`; and a server
a project's file chose is marked as the project's (it needs the person's consent).
*/
import {describe, expect, it} from 'vitest';
import type {ConfigFile} from '../../src/config/config-schema.js';
import type {CardtermConfig, ConfigRole} from '../../src/config/load-config.js';
import {endpointFor, modelSetting, projectEndpoints, sessionEndpoint, withoutProjectModel} from '../../src/config/model-setting.js';

function configOf(...files: Array<[ConfigRole, ConfigFile]>): CardtermConfig {
	return {
		layers: files.map(([role, file]) => ({role, path: `/${role}.json`, file})),
		projectDir: '/p',
		approval: {ask: []},
		agent: {},
		allowedEndpoints: [],
		warnings: [],
	};
}

describe('modelSetting', () => {
	const user: [ConfigRole, ConfigFile] = ['user', {model: 'user-model', baseUrl: 'http://user.example/v1'}];
	const project: [ConfigRole, ConfigFile] = ['project', {model: 'project-model', baseUrl: 'http://project.example/v1'}];

	it('takes the model from --model, CARDTERM_MODEL, the project\'s file, the user\'s, in that order', () => {
		const config = configOf(user, project);
		expect(modelSetting({flag: 'flag-model', env: {CARDTERM_MODEL: 'env-model'}, config})).toMatchObject({spec: 'flag-model', from: '--model'});
		expect(modelSetting({env: {CARDTERM_MODEL: 'env-model'}, config})).toMatchObject({spec: 'env-model', from: 'CARDTERM_MODEL'});
		expect(modelSetting({env: {}, config})).toMatchObject({spec: 'project-model', from: '/project.json'});
		expect(modelSetting({env: {}, config: configOf(user)})).toMatchObject({spec: 'user-model', from: '/user.json'});
		expect(modelSetting({env: {CARDTERM_MODEL: ' '}, config: configOf()})).toBeUndefined();
	});

	it('a file\'s baseUrl goes with its own model only; the person\'s --base-url / CARDTERM_BASE_URL with any', () => {
		expect(modelSetting({env: {}, config: configOf(user, project)})!.endpoint).toEqual({url: 'http://project.example/v1', from: '/project.json', byProject: true});
		expect(modelSetting({env: {}, config: configOf(user)})!.endpoint).toEqual({url: 'http://user.example/v1', from: '/user.json', byProject: false});
		// The user's server is not paired with the project's model, nor the project's with a model named elsewhere.
		expect(modelSetting({env: {}, config: configOf(user, ['project', {model: 'openai:gpt-4.1'}])})!.endpoint).toBeUndefined();
		expect(modelSetting({flag: 'openai:gpt-4.1', env: {}, config: configOf(project)})!.endpoint).toBeUndefined();
		expect(modelSetting({env: {CARDTERM_BASE_URL: 'http://env.example/v1'}, config: configOf(user, project)})!.endpoint).toEqual({url: 'http://env.example/v1', from: 'CARDTERM_BASE_URL', byProject: false});
		expect(modelSetting({baseUrlFlag: 'http://flag.example/v1', env: {CARDTERM_BASE_URL: 'http://env.example/v1'}, config: configOf(user, project)})!.endpoint).toEqual({url: 'http://flag.example/v1', from: '--base-url', byProject: false});
	});

	it('a provider\'s server comes from providers.NAME.baseUrl, the project\'s over the user\'s', () => {
		const config = configOf(['user', {model: 'anthropic:claude-x', providers: {anthropic: {baseUrl: 'https://user-gw.example'}}}], ['project', {providers: {anthropic: {baseUrl: 'https://project-gw.example'}}}]);
		expect(modelSetting({env: {}, config})).toEqual({spec: 'anthropic:claude-x', from: '/user.json', endpoint: {url: 'https://project-gw.example', from: '/project.json', byProject: true}});
		expect(endpointFor('Anthropic:other', undefined, config)).toMatchObject({url: 'https://project-gw.example'});
		expect(endpointFor('openai:gpt-4.1', undefined, config)).toBeUndefined();
		expect(endpointFor('bare-name', undefined, config)).toBeUndefined();
		// The session's server (the person's, or the model's file's) wins over a provider's.
		expect(endpointFor('anthropic:x', {url: 'http://s', from: '--base-url', byProject: false}, config)).toMatchObject({url: 'http://s'});
	});

	it('the session\'s server is the person\'s, else the configured model\'s file\'s', () => {
		expect(sessionEndpoint({env: {}, config: configOf(user, project)})).toMatchObject({url: 'http://project.example/v1', byProject: true});
		expect(sessionEndpoint({env: {CARDTERM_BASE_URL: 'http://env.example/v1'}, config: configOf(project)})).toMatchObject({url: 'http://env.example/v1', byProject: false});
		expect(sessionEndpoint({env: {}, config: configOf()})).toBeUndefined();
	});

	it('a CARDTERM_CONFIG file is the person\'s: its server is not the project\'s', () => {
		expect(modelSetting({env: {}, config: configOf(['named', {model: 'm', baseUrl: 'http://named.example/v1'}])})!.endpoint).toMatchObject({byProject: false});
	});

	it('lists every server a project\'s file names, and drops them (and its model) on request', () => {
		const config = configOf(user, ['project', {model: 'project-model', baseUrl: 'http://project.example/v1', providers: {openai: {baseUrl: 'http://o.example'}}, agent: {maxSteps: 3}}]);
		expect(projectEndpoints(config).map(endpoint => endpoint.url)).toEqual(['http://project.example/v1', 'http://o.example']);
		const own = withoutProjectModel(config);
		expect(own.layers[1]!.file).toEqual({agent: {maxSteps: 3}});
		expect(modelSetting({env: {}, config: own})).toEqual({spec: 'user-model', from: '/user.json', endpoint: {url: 'http://user.example/v1', from: '/user.json', byProject: false}});
	});
});
