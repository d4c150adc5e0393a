/**
The person's MCP servers reach an ACP agent (issue 18): `session/new` and `session/load` carry them
as the protocol shapes them (the agent's SDK checks the request), stdio ones always with an absolute
command, HTTP ones only to an agent whose `mcpCapabilities` take them (the others named in a notice).
Before, cardterm told every agent it had none (`mcpServers: []`).
*/
import {afterEach, describe, expect, it} from 'vitest';
import {readMcpServers} from '../../src/config/mcp-servers.js';
import {acpMcpServers} from '../../src/host/acp-mcp-servers.js';
import {startHarness, type Harness} from './acp-harness.js';

let harness: Harness | undefined;
afterEach(async () => {
	await harness?.dispose();
	harness = undefined;
});

const config = {
	files: {command: 'node', args: ['server.js', '--root', '${MCP_TEST_ROOT}'], env: {TOKEN: '${MCP_TEST_TOKEN}'}},
	remote: {type: 'http', url: 'https://mcp.example.test/mcp', headers: {Authorization: 'Bearer ${MCP_TEST_TOKEN}'}},
};
const env = {PATH: process.env.PATH, MCP_TEST_ROOT: '/srv/data', MCP_TEST_TOKEN: 'tok-123'};

async function given(flags: readonly string[]): Promise<{servers: unknown; notices: string[]}> {
	const {servers, problems} = await acpMcpServers(readMcpServers(config, 'test config', false).entries, env, process.cwd());
	expect(problems).toEqual([]);
	harness = await startHarness({flags, mcpServers: servers});
	await harness.client.prompt('mcp');
	const said = harness.session.fold.entries.flatMap(entry => entry.entry === 'assistant' ? [entry.text] : []);
	const notices = harness.session.fold.entries.flatMap(entry => entry.entry === 'notice' ? [`${entry.summary}\n${entry.detail ?? ''}`] : []);
	return {servers: JSON.parse(said.at(-1)!) as unknown, notices};
}

describe('ACP session/new carries the MCP servers', () => {
	it('a stdio server with its command made absolute and ${VAR} expanded; an http one only to an agent that takes it', async () => {
		const {servers, notices} = await given([]);
		expect(servers).toEqual([{name: 'files', command: expect.stringMatching(/^\/.*\/node$/), args: ['server.js', '--root', '/srv/data'], env: [{name: 'TOKEN', value: 'tok-123'}]}]);
		expect(notices.join('\n')).toContain('MCP servers not given to fake-agent: remote (the agent does not take http servers)');
	});

	it('an agent whose mcpCapabilities say http gets the http server with its headers', async () => {
		const {servers, notices} = await given(['--mcp-http']);
		expect(servers).toEqual([
			{name: 'files', command: expect.stringMatching(/\/node$/), args: ['server.js', '--root', '/srv/data'], env: [{name: 'TOKEN', value: 'tok-123'}]},
			{type: 'http', name: 'remote', url: 'https://mcp.example.test/mcp', headers: [{name: 'Authorization', value: 'Bearer tok-123'}]},
		]);
		expect(notices.join('\n')).not.toContain('MCP servers not given');
	});

	it('session/load carries them too', async () => {
		const {servers} = await acpMcpServers(readMcpServers({files: config.files}, 'test config', false).entries, env, process.cwd());
		harness = await startHarness({flags: ['--load'], resume: 'fake-9', mcpServers: servers});
		await harness.client.prompt('mcp');
		const said = harness.session.fold.entries.flatMap(entry => entry.entry === 'assistant' ? [entry.text] : []);
		expect(JSON.parse(said.at(-1)!)).toEqual([expect.objectContaining({name: 'files', args: ['server.js', '--root', '/srv/data']})]);
	});
});
