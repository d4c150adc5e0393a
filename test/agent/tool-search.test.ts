/**
Tool search over large MCP tool lists: past a share of the model's window the MCP tools' schemas are
not sent; the request carries `tool_search` instead, the model finds a tool with it, and from its
next step on the found tool is in its tool list and callable. End to end through `cardterm -p`: a
hostile MCP server with 10 000 tools, a small window, the fake model server (which checks requests
as the provider does) holding every request body.
*/
import {mkdtemp, mkdir, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {toolSearchSettings} from '../../src/agent/context-settings.js';
import {TOOL_SEARCH_NAME, ToolSearch, toolSearchText} from '../../src/agent/tool-search.js';
import {resolveModel} from '../../src/agent/model-client.js';
import {main} from '../../src/cli/main.js';
import {openInteractiveSession} from '../../src/cli/interactive/open-interactive-session.js';
import {readMcpServers} from '../../src/config/mcp-servers.js';
import {lineText} from '../../src/layout/text/spans.js';
import {until} from '../live/live-session-harness.js';
import type {ToolSchema} from '../../src/tools/types.js';
import {fakeIo} from '../cli/cli-io-fake.js';
import {startFakeModelServer} from '../fixtures/fake-model-server.mjs';

const HOSTILE_SERVER = fileURLToPath(new URL('../host/fixtures/hostile-mcp-server.mjs', import.meta.url));

const schema = (name: string, description = `the ${name} tool`): ToolSchema => ({name, description, parameters: {type: 'object', properties: {n: {type: 'integer'}}}});
const mcpTools = Array.from({length: 200}, (_, index) => schema(`mcp__s__t${index}`));
const own = [schema('read', 'Read a file'), schema('bash', 'Run a command')];

describe('ToolSearch', () => {
	it('within the share: every tool is sent and tool_search is not; past it: the MCP tools give way to tool_search', () => {
		const search = new ToolSearch({share: 0.1});
		const offered = [...own, ...mcpTools];
		// 200 small tools are ~4k tokens: within a tenth of 100k, past a tenth of 20k.
		expect(search.select(offered, 100_000)).toBe(offered);
		expect(search.state()).toMatchObject({on: false, tools: 200, limit: 10_000});
		const sent = search.select(offered, 20_000);
		expect(sent.map(tool => tool.name)).toEqual(['read', 'bash', TOOL_SEARCH_NAME]);
		const state = search.state();
		expect(state).toMatchObject({on: true, tools: 200, limit: 2000, found: 0});
		expect(state.saved).toBeGreaterThan(state.tokens * 0.9);
		expect(toolSearchText(state)).toMatch(/^tool search: on \(200 MCP tools' schemas, \dk tokens, past 2k\): not sent, the model searches them \(tool_search\); 0 found and sent; saves \dk tokens a request$/);
		// An unknown window: only "always" (share 0) defers.
		expect(search.select(offered, undefined)).toBe(offered);
		expect(toolSearchText(search.state())).toMatch(/the window is unknown/);
		expect(new ToolSearch({share: 0}).select(offered, undefined).map(tool => tool.name)).toEqual(['read', 'bash', TOOL_SEARCH_NAME]);
	});

	it('finds by name first, then description; a found tool joins the next selection, in its place', async () => {
		const search = new ToolSearch({share: 0});
		const offered = [...own, ...mcpTools, schema('mcp__cal__create_event', 'Create a calendar event')];
		search.select(offered, 1000);
		expect(search.search('calendar', 5).map(tool => tool.name)).toEqual(['mcp__cal__create_event']);
		expect(search.search('t17', 3).map(tool => tool.name)).toEqual(['mcp__s__t17', 'mcp__s__t170', 'mcp__s__t171']);
		expect(search.search('mcp__s__t5', 2).map(tool => tool.name)[0]).toBe('mcp__s__t5');
		expect(search.search('nothing-like-it', 5)).toEqual([]);
		const value = await search.tool.execute({query: 'create event'}, undefined as never);
		expect(value).toMatchObject({searched: 201, tools: [{name: 'mcp__cal__create_event', description: 'Create a calendar event', parameters: {type: 'object'}}]});
		expect(search.select(offered, 1000).map(tool => tool.name)).toEqual(['read', 'bash', 'mcp__cal__create_event', TOOL_SEARCH_NAME]);
		expect(search.state().found).toBe(1);
	});

	it('the config: a share, always, never; a value that is none is the default', () => {
		expect(toolSearchSettings('25%')).toEqual({share: 0.25});
		expect(toolSearchSettings(true)).toEqual({share: 0});
		expect(toolSearchSettings(false)).toBeUndefined();
		expect(toolSearchSettings(undefined)).toEqual({share: 0.1});
		expect(toolSearchSettings('lots')).toEqual({share: 0.1});
	});
});

describe('cardterm -p with 10 000 MCP tools and a small window', () => {
	let workspace: string;
	let config: string;
	beforeEach(async () => {
		workspace = await mkdtemp(join(tmpdir(), 'cardterm-tool-search-'));
		config = await mkdtemp(join(tmpdir(), 'cardterm-tool-search-config-'));
		await mkdir(join(config, 'cardterm'));
		await writeFile(join(config, 'cardterm', 'config.json'), JSON.stringify({
			context: {windows: {fake: 32_000}},
			mcpServers: {h: {command: process.execPath, args: [HOSTILE_SERVER, '--tools=10000'], allow: true}},
		}));
	});
	afterEach(async () => {
		await rm(workspace, {recursive: true, force: true});
		await rm(config, {recursive: true, force: true});
	});

	it('the request holds tool_search, not the schemas; the model searches, and calls the tool it found from the next step on', async () => {
		const server = await startFakeModelServer({script: [
			{toolCalls: [{id: 'c1', name: TOOL_SEARCH_NAME, args: '{"query":"t4242"}'}]},
			{toolCalls: [{id: 'c2', name: 'mcp__h__t4242', args: '{"n":7}'}]},
			{text: 'done'},
		]});
		const io = fakeIo({cwd: workspace, env: {OPENAI_API_KEY: 'k', XDG_CONFIG_HOME: config}});
		try {
			const code = await main(['-p', 'use t4242', '--model', 'fake', '--base-url', server.url, '--session-dir', join(workspace, 'sessions'), '--no-color'], io);
			expect(code, io.err()).toBe(0);
			expect(server.refusals).toEqual([]);
			const tools = server.requests.map(request => (request.body as {tools?: Array<{function: {name: string}}>}).tools?.map(tool => tool.function.name) ?? []);
			expect(tools).toHaveLength(3);
			expect(tools[0]).toContain(TOOL_SEARCH_NAME);
			expect(tools[0]!.filter(name => name.startsWith('mcp__'))).toEqual([]);
			expect(JSON.stringify(server.requests[0]!.body).length).toBeLessThan(60_000);
			// Found: in the next request's tools, and its call ran on the server.
			expect(tools[1]!.filter(name => name.startsWith('mcp__'))).toEqual(['mcp__h__t4242']);
			expect(JSON.stringify(server.requests[1]!.body)).toContain('1 of 10000 MCP tools matched');
			expect(JSON.stringify(server.requests[2]!.body)).toContain('t4242 ran with n=7');
			expect(io.out()).toBe('done\n');
		} finally {
			await server.close();
		}
	}, 60_000);
});

describe('/context and /mcp', () => {
	it('say the tool search is on and what it saves', async () => {
		const workspace = await mkdtemp(join(tmpdir(), 'cardterm-tool-search-live-'));
		const server = await startFakeModelServer({script: []});
		try {
			const model = resolveModel({spec: 'fake-model', baseUrl: server.url, env: {}});
			const {session, controller} = await openInteractiveSession({
				root: join(workspace, 'sessions'), cwd: workspace, id: 's-search',
				agent: {model, from: '--model', context: {windows: {'fake-model': 20_000}}},
				mcp: {servers: readMcpServers({h: {command: process.execPath, args: [HOSTILE_SERVER, '--tools=1000']}}, 'the config', false).entries, env: process.env, ask: false},
			});
			const said: string[] = [];
			controller.onScrollback(entry => {
				if (entry.kind === 'lines') {
					said.push(entry.lines.map(line => lineText(line)).join('\n'));
				}
			});
			await session.mcp!.settled();
			controller.submit('/context');
			controller.submit('/mcp');
			await until(() => said.some(text => text.startsWith('context:')) && said.some(text => text.startsWith('MCP servers')));
			const line = /tool search: on \(1000 MCP tools' schemas, (\d+)k tokens, past 2k\): not sent, the model searches them \(tool_search\); 0 found and sent; saves (\d+)k tokens a request/;
			const context = said.find(text => text.startsWith('context:'))!;
			expect(context).toMatch(line);
			// The tool schemas the request carries are cardterm's own and tool_search: far below the MCP tools' cost.
			const sent = Number(/tool schemas +(\d+)k?/.exec(context)![1]);
			expect(sent).toBeLessThan(Number(line.exec(context)![1]));
			expect(said.find(text => text.startsWith('MCP servers'))).toMatch(line);
			await controller.close();
		} finally {
			await server.close();
			await rm(workspace, {recursive: true, force: true});
		}
	}, 30_000);
});
