/**
MCP prompts as slash commands: a ready server's prompts join the session's table as
`/mcp__SERVER__PROMPT`, with the prompt's description and its arguments as the hint; running one
asks the server (`prompts/get`) and sends what it returns as the person's message — in a native
session (server-everything's prompts, and the hostile server's: roles, images, escape sequences, a
prompt list that changes) and in an ACP agent's session, whose agent receives the text as its prompt.
*/
import {mkdir, mkdtemp, realpath, rm, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, describe, expect, it} from 'vitest';
import type {ScrollbackEntry} from '../../components/session-model.js';
import {main} from '../../src/cli/main.js';
import {readMcpServers} from '../../src/config/mcp-servers.js';
import {promptArgumentHint, promptArgumentValues, promptMessageText} from '../../src/host/mcp-prompts.js';
import {openSession, type OpenedSession} from '../../src/host/open-session.js';
import {lineText} from '../../src/layout/text/spans.js';
import {acpLiveSession} from '../../src/live/acp-driver.js';
import {LiveSession, sessionFeeds} from '../../src/live/live-session.js';
import {nativeDriver} from '../../src/live/native-driver.js';
import type {DriverWork} from '../../src/live/session-driver.js';
import {startHarness} from '../acp/acp-harness.js';
import {fakeIo} from '../cli/cli-io-fake.js';
import {startFakeModelServer} from '../fixtures/fake-model-server.mjs';
import {until} from './live-session-harness.js';

const require = createRequire(import.meta.url);
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const HOSTILE_SERVER = fileURLToPath(new URL('../host/fixtures/hostile-mcp-server.mjs', import.meta.url));

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) {
		await cleanup();
	}
});

/** A native live session over real MCP servers whose driver records the work it is given instead of running a model. */
async function live(config: Record<string, unknown>): Promise<{session: OpenedSession; screen: LiveSession; sent: DriverWork[]; said: () => string[]}> {
	const workspace = await realpath(await mkdtemp(join(tmpdir(), 'cardterm-mcp-prompts-')));
	cleanups.push(async () => rm(workspace, {recursive: true, force: true}));
	const session = await openSession({cwd: workspace, mcp: {servers: readMcpServers(config, 'the config', false).entries, env: process.env, ask: true}});
	const sent: DriverWork[] = [];
	const driver = nativeDriver({session, cwd: workspace, shutdown: async () => session.close()});
	const screen = new LiveSession({cwd: workspace, ...sessionFeeds(session), driver: {...driver, async run(work) {
		sent.push(work);
	}}});
	cleanups.push(async () => screen.close());
	const written: ScrollbackEntry[] = [];
	screen.onScrollback(entry => written.push(entry));
	await session.mcp!.settled();
	return {session, screen, sent, said: () => written.flatMap(entry => entry.kind === 'lines' ? [entry.lines.map(line => lineText(line)).join('\n')] : [])};
}

describe('a prompt\'s arguments and messages', () => {
	const prompt = {name: 'p', arguments: [{name: 'city', required: true}, {name: 'state'}]};

	it('the hint names required arguments in angle brackets, optional ones in square brackets', () => {
		expect(promptArgumentHint(prompt)).toBe('<city> [state]');
		expect(promptArgumentHint({name: 'none'})).toBeUndefined();
		expect(promptArgumentHint({name: 'odd', arguments: [{name: 'a b\u001B[2J'}]})).toBe('[a_b__2J]');
	});

	it('words go to the arguments in order, the rest join the last; a missing required one is named', () => {
		expect(promptArgumentValues(prompt, ['Paris'])).toEqual({values: {city: 'Paris'}});
		expect(promptArgumentValues(prompt, ['Paris', 'Ile', 'de', 'France'])).toEqual({values: {city: 'Paris', state: 'Ile de France'}});
		expect(promptArgumentValues(prompt, [])).toEqual({problem: 'the prompt "p" needs city (<city> [state])'});
		expect(promptArgumentValues({name: 'q'}, ['x'])).toEqual({problem: 'the prompt "q" takes no arguments'});
	});

	it('one role: the texts; two roles: each message marked; what is no text is named with its type and size', () => {
		expect(promptMessageText({messages: [{role: 'user', content: {type: 'text', text: 'a'}}, {role: 'user', content: {type: 'text', text: 'b'}}]})).toEqual({text: 'a\n\nb', named: 0});
		expect(promptMessageText({messages: [
			{role: 'user', content: {type: 'text', text: 'q'}},
			{role: 'assistant', content: {type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png'}},
			{role: 'user', content: {type: 'resource', resource: {uri: 'demo://blob', mimeType: 'application/octet-stream', blob: 'AAAA'}}},
			{role: 'user', content: {type: 'resource', resource: {uri: 'demo://text', mimeType: 'text/plain', text: 'the text'}}},
		]})).toEqual({
			text: '[user]\nq\n\n[assistant]\n[image · image/png · 8 B: not sent, cardterm sends a prompt as text]\n\n[user]\n[resource demo://blob · application/octet-stream · 3 B: its bytes not sent, cardterm sends a prompt as text]\n\n[user]\n[resource demo://text · text/plain]\nthe text',
			named: 2,
		});
	});
});

describe('server-everything\'s prompts in a native session', () => {
	it('are commands with description and hint in /help and Tab; each sends what the server returns as the person\'s message', async () => {
		const {session, screen, sent, said} = await live({everything: {command: process.execPath, args: [EVERYTHING, 'stdio']}});
		expect(session.mcp!.prompts().map(entry => entry.prompt.name)).toEqual(['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']);
		expect(await screen.complete('/mcp__ev', 8)).toEqual(['/mcp__everything__simple-prompt', '/mcp__everything__args-prompt', '/mcp__everything__completable-prompt', '/mcp__everything__resource-prompt']);
		screen.submit('/help');
		await until(() => said().some(text => text.includes('/mcp__everything__args-prompt')));
		const help = said().find(text => text.includes('/mcp__everything__args-prompt'))!;
		// /help wraps a long description under itself.
		expect(help.replaceAll(/\s+/g, ' ')).toContain('/mcp__everything__args-prompt <city> [state] A prompt with two arguments, one required and one optional (MCP prompt of everything)');

		screen.submit('/mcp__everything__simple-prompt');
		await until(() => sent.length === 1);
		expect(sent[0]).toEqual({kind: 'prompt', text: 'This is a simple prompt without arguments.'});
		screen.submit('/mcp__everything__args-prompt "New York" NY');
		await until(() => sent.length === 2);
		expect(sent[1]).toEqual({kind: 'prompt', text: 'What\'s weather in New York, NY?'});
		screen.submit('/mcp__everything__resource-prompt Text 1');
		await until(() => sent.length === 3);
		expect(sent[2]).toMatchObject({kind: 'prompt', text: expect.stringMatching(/^This prompt includes the Text resource with id: 1\. Please analyze the following resource:\n\n\[resource demo:\/\/resource\/dynamic\/text\/1 · text\/plain\]\nResource 1: This is a plaintext resource/)});

		// A required argument left out is said, and nothing is asked or sent; the server's own refusal is said too.
		screen.submit('/mcp__everything__args-prompt');
		await until(() => said().some(text => text.includes('needs city')));
		expect(said().at(-1)).toBe('/mcp__everything__args-prompt: the prompt "args-prompt" needs city (<city> [state])');
		screen.submit('/mcp__everything__resource-prompt Nope 1');
		await until(() => said().some(text => text.includes('did not give the prompt')));
		expect(said().at(-1)).toMatch(/^\/mcp__everything__resource-prompt: the server did not give the prompt: .*Invalid resourceType: Nope/);
		expect(sent).toHaveLength(3);

		screen.submit('/mcp');
		await until(() => said().some(text => text.includes('MCP servers (1)')));
		expect(said().find(text => text.includes('MCP servers (1)'))).toMatch(/everything · ready, \d+ tools, 4 prompts · /);
	}, 30_000);
});

describe('a hostile server\'s prompts', () => {
	it('a changed prompt list changes the commands; roles are marked, an image named; escape sequences never reach the screen', async () => {
		const {session, screen, sent, said} = await live({h: {command: process.execPath, args: [HOSTILE_SERVER, '--prompts', '--hostile'], allow: true}});
		const names = (await screen.complete('/mcp__h__', 9));
		expect(names.slice(0, 2)).toEqual(['/mcp__h__greet', '/mcp__h__mixed']);
		// The hostile name is sanitised (and hashed): no control character in the command's name.
		expect(names).toHaveLength(3);
		expect(names[2]).toMatch(/^\/mcp__h__hostile[\w-]+$/);

		screen.submit('/mcp__h__mixed');
		await until(() => sent.length === 1);
		expect(sent[0]).toEqual({kind: 'prompt', text: '[user]\nfirst\n\n[assistant]\nsecond\n\n[user]\n[image · image/png · 8 B: not sent, cardterm sends a prompt as text]'});
		expect(said().at(-1)).toBe('/mcp__h__mixed: 1 item of the prompt named in the message, not sent (cardterm sends a prompt as text)');

		screen.submit('/help');
		await until(() => said().some(text => text.includes('/mcp__h__greet')));
		const help = said().find(text => text.includes('/mcp__h__greet'))!;
		expect(help).toContain('/mcp__h__greet <who> [mood]');
		expect(help).not.toMatch(/[\u001B\u009B\u0007\u202E]/u);

		await session.runtime.runCall('mcp__h__add-prompt', {}, {signal: new AbortController().signal});
		await until(() => session.mcp!.prompts().some(entry => entry.prompt.name === 'extra'));
		expect(await screen.complete('/mcp__h__e', 10)).toEqual(['/mcp__h__extra']);
		screen.submit('/mcp__h__greet Ada cheerful');
		await until(() => sent.length === 2);
		expect(sent[1]).toEqual({kind: 'prompt', text: 'Say hello to Ada in a cheerful mood.'});
	}, 20_000);
});

describe('a server with thousands of prompts', () => {
	it('gives the first 500 as commands and says so in /mcp', async () => {
		const {session, screen, said} = await live({many: {command: process.execPath, args: [HOSTILE_SERVER, '--prompts=3000']}});
		expect(session.mcp!.status()[0]).toMatchObject({state: 'ready', prompts: 500});
		// greet, mixed, then p0 … p497.
		expect(await screen.complete('/mcp__many__p49', 15)).toEqual(['/mcp__many__p49', ...Array.from({length: 8}, (_, index) => `/mcp__many__p49${index}`)]);
		screen.submit('/mcp');
		await until(() => said().some(text => text.includes('MCP servers (1)')));
		expect(said().find(text => text.includes('MCP servers (1)'))).toContain('it offers 3002 prompts; the first 500 are commands');
	});
});

describe('an ACP agent\'s session', () => {
	it('offers the servers\' prompts as commands (cardterm connects them for their prompts alone); the agent receives the text as its prompt', async () => {
		const harness = await startHarness({mcp: {servers: readMcpServers({everything: {command: process.execPath, args: [EVERYTHING, 'stdio']}}, 'the config', false).entries, env: process.env, ask: true}});
		cleanups.push(async () => harness.dispose());
		const model = acpLiveSession(harness, harness.workspace);
		cleanups.push(async () => model.close());
		await harness.session.mcp!.settled();
		// No tool of the server's is registered in cardterm's registry: the agent runs them.
		expect([...harness.session.toolNames()].filter(name => name.startsWith('mcp__'))).toEqual([]);
		expect(harness.session.mcp!.status()[0]).toMatchObject({state: 'ready', tools: 0, prompts: 4, reason: 'its tools are the agent\'s'});
		model.submit('/mcp__everything__args-prompt Oslo');
		await until(() => harness.session.fold.entries.some(entry => entry.entry === 'turn'));
		const prompts = harness.session.fold.entries.flatMap(entry => entry.entry === 'user' ? [entry.text] : []);
		expect(prompts).toEqual(['What\'s weather in Oslo?']);
		// Nor later, when the server says its tool list changed (server-everything does, once connected).
		expect([...harness.session.toolNames()].filter(name => name.startsWith('mcp__'))).toEqual([]);
		expect(harness.session.mcp!.status()[0]).toMatchObject({tools: 0});
	}, 30_000);
});

describe('cardterm -p "/mcp__SERVER__PROMPT args"', () => {
	it('sends the server\'s prompt as the message (what a missing argument says is tested in the live session above)', async () => {
		const folder = await realpath(await mkdtemp(join(tmpdir(), 'cardterm-mcp-prompts-p-')));
		cleanups.push(async () => rm(folder, {recursive: true, force: true}));
		await mkdir(join(folder, 'config', 'cardterm'), {recursive: true});
		await writeFile(join(folder, 'config', 'cardterm', 'config.json'), JSON.stringify({mcpServers: {everything: {command: process.execPath, args: [EVERYTHING, 'stdio']}}}));
		const server = await startFakeModelServer({script: [{text: 'sunny'}]});
		cleanups.push(async () => server.close());
		const io = fakeIo({cwd: folder, env: {OPENAI_API_KEY: 'k', XDG_CONFIG_HOME: join(folder, 'config')}});
		const code = await main(['-p', '/mcp__everything__args-prompt Lima Peru', '--model', 'fake', '--base-url', server.url, '--session-dir', join(folder, 'sessions')], io);
		expect(code, io.err()).toBe(0);
		expect(io.out()).toBe('sunny\n');
		const {messages} = server.requests[0]!.body;
		expect(messages.at(-1)).toEqual({role: 'user', content: 'What\'s weather in Lima, Peru?'});
	}, 30_000);
});
