/**
A person's `.mcp.json` through the real binary (issue 18): `bin/cardterm -p` against the fake model
server, with server-everything (offline, over stdio) named in the project's `.mcp.json`. Without
consent the project's server is not started and stderr says how to allow it; with `--yolo` the
model's first request offers its tools, a call of one is a card that says what came back, the model
reads the result, and `replay` shows the same card from the log. In tmux, the interactive session:
asked about the project's server before the first frame, `/mcp` shows it ready, and quitting ends
its program.
*/
import {execFile} from 'node:child_process';
import {mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {startFakeModelServer, type FakeModelServer} from '../fixtures/fake-model-server.mjs';
import {buildDist, cardtermCommand, descendants, killTmuxServer, running, screen, shellWord, shows, tmux, tmuxMissing, waitFor} from './e2e-helpers.js';

const require = createRequire(import.meta.url);
const FAKE_AGENT = fileURLToPath(new URL('../acp/fake-agent.mjs', import.meta.url));
const everything = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

let folder = '';
let workspace = '';
let server: FakeModelServer | undefined;

beforeAll(() => {
	buildDist();
}, 300_000);

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'cardterm-mcp-binary-'));
	workspace = join(folder, 'repo');
	mkdirSync(workspace);
	writeFileSync(join(workspace, '.mcp.json'), JSON.stringify({mcpServers: {everything: {command: process.execPath, args: [everything, 'stdio']}}}));
});

afterEach(async () => {
	await server?.close();
	server = undefined;
	rmSync(folder, {recursive: true, force: true});
});

async function cardterm(...args: string[]): Promise<{code: number; stdout: string; stderr: string}> {
	const environment = {OPENAI_API_KEY: 'sk-test', XDG_CONFIG_HOME: join(folder, 'config'), XDG_DATA_HOME: join(folder, 'data'), CARDTERM_SESSION_DIR: join(folder, 'sessions')};
	const [command, ...rest] = cardtermCommand(environment, ...args);
	return new Promise(resolve => {
		execFile(command!, rest, {cwd: workspace, encoding: 'utf8', timeout: 60_000}, (error, stdout, stderr) => {
			resolve({code: error === null ? 0 : (typeof error.code === 'number' ? error.code : -1), stdout, stderr});
		});
	});
}

const toolNames = (request: {body: unknown}): string[] => ((request.body as {tools?: Array<{function: {name: string}}>}).tools ?? []).map(tool => tool.function.name);

describe('a project\'s .mcp.json in -p', () => {
	it('is not started without consent, and stderr says how to allow it', async () => {
		server = await startFakeModelServer({script: [{text: 'No tools, fine.'}]});
		const result = await cardterm('-p', 'hello', '--base-url', server.url, '--model', 'fake-model');
		expect(result.code).toBe(0);
		expect(result.stderr).toContain('this project\'s MCP servers are not started: you have not allowed them (allow them in an interactive session, or run with --yolo)');
		expect(result.stderr).toContain(`everything: ${process.execPath} ${everything} stdio`);
		expect(toolNames(server.requests[0]!).some(name => name.startsWith('mcp__'))).toBe(false);
	}, 60_000);

	it('with --yolo: its tools reach the model, a call is an honest card, the model reads the result, replay shows the same card', async () => {
		server = await startFakeModelServer({script: [
			{toolCalls: [{id: 'weather', name: 'mcp__everything__get-structured-content', args: JSON.stringify({location: 'Chicago'})}]},
			{text: 'It is cloudy somewhere.'},
		]});
		const result = await cardterm('-p', 'weather?', '--yolo', '--base-url', server.url, '--model', 'fake-model', '--transcript');
		expect(result.code).toBe(0);
		expect(toolNames(server.requests[0]!)).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-structured-content', 'mcp__everything__get-tiny-image']));
		expect(result.stdout).toContain('● mcp__everything__get-structured-content location: Chicago');
		expect(result.stdout).toContain('structured content (conforms to the output schema)');
		// The model's second request carries the result's JSON.
		expect(JSON.stringify(server.requests[1]!.body)).toContain('temperature');
		const sessions = join(folder, 'sessions');
		const [id] = readdirSync(sessions).filter(name => !name.startsWith('.'));
		const replayed = await cardterm('replay', join(sessions, id!, 'session.jsonl'), '--print', '--expand', 'all', '--no-color', '--width', '120');
		expect(replayed.code).toBe(0);
		expect(replayed.stdout).toContain('● mcp__everything__get-structured-content location: Chicago');
		expect(replayed.stdout).toContain('structured content (conforms to the output schema)');
		expect(replayed.stdout).toMatch(/"temperature": \d+/);
	}, 60_000);
});

/** `/mcp` in tmux session `pane` until it shows `pattern`: it prints the state it is asked at, and under load the server may still be connecting, so it is asked again. */
async function mcpSays(pattern: RegExp, pane: string): Promise<void> {
	let asked = 0;
	await waitFor(`/mcp to show ${String(pattern)}`, () => {
		if (pattern.test(screen(pane))) {
			return true;
		}

		if (asked++ % 20 === 0) {
			tmux('send-keys', '-t', pane, '-l', '/mcp');
			tmux('send-keys', '-t', pane, 'Enter');
		}

		return false;
	}, 30_000, pane);
}

describe.skipIf(tmuxMissing)('a project\'s .mcp.json in the interactive session (skipped when tmux is not installed)', () => {
	afterAll(() => {
		killTmuxServer();
	});

	it('asks once (↓ Enter allows), /mcp shows the server ready with its tools, Ctrl+D ends its program', async () => {
		const environment = {XDG_CONFIG_HOME: join(folder, 'config'), XDG_DATA_HOME: join(folder, 'data'), CARDTERM_SESSION_DIR: join(folder, 'sessions')};
		const command = cardtermCommand(environment).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'mcp', '-x', '140', '-y', '40', '-c', workspace, command);
		tmux('set-option', '-t', 'mcp', 'remain-on-exit', 'on');
		await shows('This project\'s files name MCP servers that cardterm would start:', 'mcp');
		expect(screen('mcp')).toContain(`everything: ${process.execPath} ${everything} stdio`);
		tmux('send-keys', '-t', 'mcp', 'Down');
		await shows('› Yes: allow them for this project', 'mcp');
		tmux('send-keys', '-t', 'mcp', 'Enter');
		await shows('MCP servers everything allowed for this project', 'mcp');
		await mcpSays(/everything · ready, \d+ tools/, 'mcp');
		const pid = Number(tmux('display-message', '-p', '-t', 'mcp', '#{pane_pid}').trim());
		const servers = descendants(pid).filter(process => process.command.includes(`${everything} stdio`));
		expect(servers).toHaveLength(1);
		tmux('send-keys', '-t', 'mcp', 'C-d');
		await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', 'mcp', '#{pane_dead}').trim() === '1', 30_000, 'mcp');
		expect(running(pid)).toBe(false);
		await waitFor('the server\'s program to end', () => !running(servers[0]!.pid), 10_000, 'mcp');
	}, 90_000);

	it('cardterm acp asks too; the agent is given the allowed server, /mcp lists it for its prompts, a prompt command reaches the agent', async () => {
		const environment = {XDG_CONFIG_HOME: join(folder, 'config'), XDG_DATA_HOME: join(folder, 'data'), CARDTERM_SESSION_DIR: join(folder, 'sessions')};
		const command = cardtermCommand(environment, 'acp', '--', process.execPath, FAKE_AGENT).map(word => shellWord(word)).join(' ');
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'mcpacp', '-x', '140', '-y', '40', '-c', workspace, command);
		tmux('set-option', '-t', 'mcpacp', 'remain-on-exit', 'on');
		await shows('This project\'s files name MCP servers that cardterm would start:', 'mcpacp');
		tmux('send-keys', '-t', 'mcpacp', 'Down');
		await shows('› Yes: allow them for this project', 'mcpacp');
		tmux('send-keys', '-t', 'mcpacp', 'Enter');
		await shows('MCP servers everything allowed for this project', 'mcpacp');
		// The fake agent's `mcp` prompt answers with the servers it was given in session/new.
		tmux('send-keys', '-t', 'mcpacp', '-l', 'mcp');
		tmux('send-keys', '-t', 'mcpacp', 'Enter');
		await shows('"name":"everything"', 'mcpacp');
		await mcpSays(/everything · ready, 4 prompts \(its tools are the agent's\)/, 'mcpacp');
		tmux('send-keys', '-t', 'mcpacp', '-l', '/mcp__everything__args-prompt Lima');
		tmux('send-keys', '-t', 'mcpacp', 'Enter');
		await shows('What\'s weather in Lima?', 'mcpacp');
		tmux('send-keys', '-t', 'mcpacp', 'C-d');
		await waitFor('the app to exit', () => tmux('display-message', '-p', '-t', 'mcpacp', '#{pane_dead}').trim() === '1', 30_000, 'mcpacp');
	}, 90_000);
});
