/**
OAuth for an MCP server over HTTP, offline: a fake authorization server and MCP server on loopback
(`fixtures/fake-oauth-mcp-server.mjs`, which checks PKCE, the registered redirect URI, the resource
and the state), the browser step done by the test (it fetches the authorization URL and follows the
redirect to cardterm's loopback listener). Before a login the server "needs login" in `/mcp`; the
login registers a client, stores the tokens 0600 under the data folder; the session then connects
with them, and an expired token is refreshed.
*/
import {mkdir, mkdtemp, readFile, rm, stat, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {createServer, type AddressInfo} from 'node:net';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {main} from '../../src/cli/main.js';
import {readMcpServers} from '../../src/config/mcp-servers.js';
import {mcpLogin, McpLoginNeeded, mcpOAuthFile, McpOAuthProvider} from '../../src/host/mcp-oauth.js';
import {openSession, type OpenedSession} from '../../src/host/open-session.js';
import {fakeIo} from '../cli/cli-io-fake.js';
import {browse, startOAuthMcpServer} from './fixtures/fake-oauth-mcp-server.mjs';

const FAKE_BROWSER = fileURLToPath(new URL('fixtures/fake-browser.mjs', import.meta.url));

let data: string;
let server: Awaited<ReturnType<typeof startOAuthMcpServer>>;
const sessions: OpenedSession[] = [];
beforeEach(async () => {
	data = await mkdtemp(join(tmpdir(), 'cardterm-oauth-'));
	server = await startOAuthMcpServer();
});
afterEach(async () => {
	for (const session of sessions.splice(0)) {
		await session.close();
	}

	await server.close();
	await rm(data, {recursive: true, force: true});
});

const env = (): NodeJS.ProcessEnv => ({...process.env, XDG_DATA_HOME: data});

async function connect(): Promise<OpenedSession> {
	const session = await openSession({cwd: data, mcp: {servers: readMcpServers({docs: {type: 'http', url: server.url}}, 'the config', false).entries, env: env(), ask: false}});
	sessions.push(session);
	await session.mcp!.settled();
	return session;
}

async function freePort(): Promise<number> {
	const probe = createServer();
	await new Promise<void>(resolve => {
		probe.listen(0, '127.0.0.1', resolve);
	});
	const {port} = probe.address() as AddressInfo;
	await new Promise(resolve => {
		probe.close(resolve);
	});
	return port;
}

async function login(open: (url: URL) => Promise<void>): Promise<string> {
	return mcpLogin({name: 'docs', url: server.url, file: mcpOAuthFile(env(), 'docs', server.url), open, timeoutMs: 10_000});
}

describe('an MCP server behind OAuth', () => {
	it('needs login first; the login (discovery, registration, PKCE, loopback callback) stores tokens 0600; the session then works', async () => {
		const before = await connect();
		expect(before.mcp!.status()[0]).toMatchObject({state: 'needs login', reason: 'the server asks for a login: run cardterm mcp login docs'});
		// The session registered nothing and opened nothing.
		expect(server.seen.registrations).toBe(0);

		let opened: URL | undefined;
		const said = await login(async url => {
			opened = url;
			const back = await browse(url);
			expect(back).toMatchObject({status: 200, text: 'cardterm: logged in. You can close this tab.\n'});
			expect(back.location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
		});
		const file = mcpOAuthFile(env(), 'docs', server.url);
		expect(said).toBe(`MCP server "docs": logged in (tokens in ${file}, readable by you alone)`);
		expect(opened!.searchParams.get('code_challenge_method')).toBe('S256');
		expect(opened!.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
		expect(server.seen).toMatchObject({registrations: 1, authorizations: 1, rejected: []});
		expect((await stat(file)).mode & 0o777).toBe(0o600);
		expect((await stat(join(data, 'cardterm', 'mcp-oauth'))).mode & 0o777).toBe(0o700);
		expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({tokens: {access_token: server.seen.tokens[0], refresh_token: expect.stringMatching(/^rt-/)}, client: {client_id: 'client-1'}});

		const after = await connect();
		expect(after.mcp!.status()[0]).toMatchObject({state: 'ready', tools: 1});
		const result = await after.runtime.runCall('mcp__docs__whoami', {}, {signal: new AbortController().signal});
		expect(JSON.stringify(result)).toContain(`called with ${server.seen.tokens[0]!}`);
	}, 30_000);

	it('an expired token is refreshed with the refresh token, and the new one is saved', async () => {
		await login(async url => {
			await browse(url);
		});
		server.expireAll();
		const session = await connect();
		expect(session.mcp!.status()[0]).toMatchObject({state: 'ready', tools: 1});
		expect(server.seen.refreshes).toBe(1);
		const saved = JSON.parse(await readFile(mcpOAuthFile(env(), 'docs', server.url), 'utf8')) as {tokens: {access_token: string}};
		expect(saved.tokens.access_token).toBe(server.seen.tokens[1]);
	}, 30_000);

	it('tokens that expire within a minute are refreshed before the session connects', async () => {
		await server.close();
		server = await startOAuthMcpServer({expiresIn: 30});
		await login(async url => {
			await browse(url);
		});
		// The login's first request, without a token, read the 401's challenge.
		expect(server.seen.mcp).toEqual(['no token']);
		const session = await connect();
		expect(session.mcp!.status()[0]).toMatchObject({state: 'ready', tools: 1});
		// Refreshed first: the session never sent the old token on /mcp, nor got a 401.
		expect(server.seen.refreshes).toBe(1);
		expect(server.seen.mcp.slice(1).filter(what => what.endsWith('token'))).toEqual([]);
		const result = await session.runtime.runCall('mcp__docs__whoami', {}, {signal: new AbortController().signal});
		expect(JSON.stringify(result)).toContain(`called with ${server.seen.tokens[1]!}`);
	}, 30_000);

	it('a pre-registered client ("oauth" in the entry) is not registered again, and its callbackPort is the redirect\'s port', async () => {
		const port = await freePort();
		const cancel = new AbortController();
		let redirect: string | null = null;
		const login = mcpLogin({name: 'docs', url: server.url, file: mcpOAuthFile(env(), 'docs', server.url), client: {clientId: 'registered-beforehand', callbackPort: port}, signal: cancel.signal, timeoutMs: 10_000, open(url) {
			redirect = url.searchParams.get('redirect_uri');
			expect(url.searchParams.get('client_id')).toBe('registered-beforehand');
			cancel.abort();
		}});
		await expect(login).rejects.toThrow('the login was cancelled');
		// Claude Code's redirect for a fixed port, so a client registered for it works here too.
		expect(redirect).toBe(`http://localhost:${port}/callback`);
		expect(server.seen.registrations).toBe(0);
	});

	it('a session refused for want of scope (step-up) keeps that scope; the next login asks for it, and its tokens clear it', async () => {
		await login(async url => {
			expect(url.searchParams.get('scope')).toBeNull();
			await browse(url);
		});
		const file = mcpOAuthFile(env(), 'docs', server.url);
		// What the SDK does on a 403 insufficient_scope: a new authorization, which a session does not open.
		const session = new McpOAuthProvider(file, {mode: 'session', server: 'docs'});
		const refusal = session.redirectToAuthorization(new URL(`${server.url}/authorize?scope=read+write`));
		await expect(refusal).rejects.toThrow(McpLoginNeeded);
		await expect(refusal).rejects.toThrow('the server asks for a login with the scope "read write": run cardterm mcp login docs');
		expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({stepUpScope: 'read write'});

		let asked: string | null = null;
		await login(async url => {
			asked = url.searchParams.get('scope');
			await browse(url);
		});
		expect(asked).toBe('read write');
		expect(JSON.parse(await readFile(file, 'utf8'))).not.toHaveProperty('stepUpScope');
	}, 30_000);

	it('a redirect with another state is refused and nothing is saved; a refusal by the server is named', async () => {
		await expect(login(async url => {
			const first = await fetch(url, {redirect: 'manual'});
			const forged = new URL(first.headers.get('location')!);
			forged.searchParams.set('state', 'forged');
			await fetch(forged);
		})).rejects.toThrow('the browser came back with another state than the login sent');
		expect(JSON.parse(await readFile(mcpOAuthFile(env(), 'docs', server.url), 'utf8'))).not.toHaveProperty('tokens');

		await expect(login(async url => {
			const callback = new URL(url.searchParams.get('redirect_uri')!);
			callback.searchParams.set('error', 'access_denied');
			callback.searchParams.set('error_description', 'the person said no \u001B[2J');
			await fetch(callback);
		})).rejects.toThrow('the authorization server refused: access_denied (the person said no \u001B[2J)');
	}, 30_000);
});

describe('cardterm mcp login NAME', () => {
	it('opens $BROWSER on the authorization URL (printed too), and the session then finds the tokens', async () => {
		const config = join(data, 'config');
		await mkdir(join(config, 'cardterm'), {recursive: true});
		await writeFile(join(config, 'cardterm', 'config.json'), JSON.stringify({mcpServers: {docs: {url: server.url}, local: {command: 'true'}}}));
		const io = fakeIo({cwd: data, env: {PATH: process.env.PATH, XDG_CONFIG_HOME: config, XDG_DATA_HOME: data, BROWSER: FAKE_BROWSER}});
		expect(await main(['mcp', 'login', 'docs'], io), io.err()).toBe(0);
		expect(io.err()).toMatch(/^cardterm: log in to MCP server docs in your browser; if it did not open, visit:\n {2}http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
		expect(io.out()).toBe(`MCP server "docs": logged in (tokens in ${mcpOAuthFile(env(), 'docs', server.url)}, readable by you alone)\n`);
		expect((await connect()).mcp!.status()[0]).toMatchObject({state: 'ready', tools: 1});

		const program = fakeIo({cwd: data, env: {XDG_CONFIG_HOME: config, XDG_DATA_HOME: data}});
		await expect(main(['mcp', 'login', 'local'], program)).resolves.toBe(2);
		expect(program.err()).toContain('mcp login: local is a program (stdio); OAuth is for servers at a URL');
	}, 30_000);
});
