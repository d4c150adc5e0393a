/**
The person's consent to a project's server: per project and URL, remembered in the user's data
folder (mode 0600), by the allow list of the user's own config, never by the project.
*/
import {mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {ConfigError} from '../../src/config/config-error.js';
import {allowEndpoint, consentPath, endpointAllowed} from '../../src/config/endpoint-consent.js';
import type {CardtermConfig} from '../../src/config/load-config.js';
import type {Endpoint} from '../../src/config/model-setting.js';

let data: string;
let project: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
	data = await mkdtemp(join(tmpdir(), 'cardterm-consent-data-'));
	project = await mkdtemp(join(tmpdir(), 'cardterm-consent-project-'));
	env = {XDG_DATA_HOME: data};
});
afterEach(async () => {
	await rm(data, {recursive: true, force: true});
	await rm(project, {recursive: true, force: true});
});

const configIn = (projectDir: string, allowedEndpoints: readonly string[] = []): CardtermConfig => ({layers: [], projectDir, approval: {ask: []}, agent: {}, allowedEndpoints, warnings: []});
const byProject = (url: string): Endpoint => ({url, from: '/p/.cardterm/config.json', byProject: true});

describe('endpoint consent', () => {
	it('the person\'s own servers need none; a project\'s needs it once per project and URL, and it is remembered 0600', async () => {
		const config = configIn(project);
		expect(await endpointAllowed({url: 'http://mine.example', from: '--base-url', byProject: false}, config, env)).toBe(true);
		expect(await endpointAllowed(byProject('http://gw.example/v1'), config, env)).toBe(false);
		const kept = await allowEndpoint(byProject('http://gw.example/v1/'), config, env, new Date(0));
		expect(kept).toBe(join(data, 'cardterm', 'allowed-endpoints.json'));
		expect(kept).toBe(consentPath(env));
		expect((await stat(kept)).mode & 0o777).toBe(0o600);
		expect(JSON.parse(await readFile(kept, 'utf8'))).toEqual({allowed: [{project, url: 'http://gw.example/v1', at: '1970-01-01T00:00:00.000Z'}]});
		// The same URL written another way is the same server; another URL or another project is not.
		expect(await endpointAllowed(byProject('http://GW.example/v1'), config, env)).toBe(true);
		expect(await endpointAllowed(byProject('http://gw.example/v2'), config, env)).toBe(false);
		const other = await mkdtemp(join(tmpdir(), 'cardterm-consent-other-'));
		try {
			expect(await endpointAllowed(byProject('http://gw.example/v1'), configIn(other), env)).toBe(false);
		} finally {
			await rm(other, {recursive: true, force: true});
		}
	});

	it('a project reached through a link is the same project', async () => {
		const link = join(data, 'link');
		await symlink(project, link);
		await allowEndpoint(byProject('http://gw.example'), configIn(link), env);
		expect(await endpointAllowed(byProject('http://gw.example'), configIn(project), env)).toBe(true);
	});

	it('allowing again keeps one entry per project and URL, and the others', async () => {
		await allowEndpoint(byProject('http://a.example'), configIn(project), env);
		await allowEndpoint(byProject('http://b.example'), configIn(project), env);
		await allowEndpoint(byProject('http://a.example'), configIn(project), env);
		const {allowed} = JSON.parse(await readFile(consentPath(env), 'utf8')) as {allowed: Array<{url: string}>};
		expect(allowed.map(entry => entry.url)).toEqual(['http://b.example', 'http://a.example']);
	});

	it('the user\'s config can allow a server for every project', async () => {
		expect(await endpointAllowed(byProject('https://company-gw.example/v1'), configIn(project, ['https://company-gw.example/v1/']), env)).toBe(true);
	});

	it('a broken consent file is an error naming it, never a silent yes (and never overwritten)', async () => {
		await mkdir(join(data, 'cardterm'));
		await writeFile(consentPath(env), '{"allowed": "everything"}');
		await expect(endpointAllowed(byProject('http://gw.example'), configIn(project), env)).rejects.toThrow(ConfigError);
		await expect(allowEndpoint(byProject('http://gw.example'), configIn(project), env)).rejects.toThrow(`${consentPath(env)}: "allowed" must be an array of {"project", "url"} (the servers you allowed; fix or remove it)`);
		expect(await readFile(consentPath(env), 'utf8')).toBe('{"allowed": "everything"}');
	});
});
