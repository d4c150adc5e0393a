/**
@module OAuth for MCP servers over HTTP, through the SDK's `OAuthClientProvider` (its `auth()` does
discovery, dynamic client registration, PKCE, the token exchange and refresh). What a server's login
left — the registered client, the tokens, the discovery — is one JSON file per server under the
user's data folder (`mcp-oauth/`, the folder 0700, the file 0600, written whole). Two uses:
- a session's connection (`'session'`): the stored tokens go with every request and a 401 refreshes
  them with the refresh token (the SDK's rule; a refreshed token is saved); when only a login in a
  browser would help, nothing is registered or opened: the provider says `needsLogin` and the
  connection fails, so `/mcp` says "needs login" and names `cardterm mcp login NAME`;
- `cardterm mcp login NAME` (`mcpLogin`): a first request without a token reads the server's 401
  (the resource metadata's URL and the scope it names), a loopback listener on 127.0.0.1 at a
  random port is the redirect URI, the authorization URL is opened in the browser (or printed), and the code that comes
  back, with the state checked, is exchanged for tokens.
*/
import {createHash, randomBytes} from 'node:crypto';
import {mkdir, readFile} from 'node:fs/promises';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {dirname, join} from 'node:path';
import {auth, extractWWWAuthenticateParams, type OAuthClientMetadata, type OAuthClientProvider, type OAuthDiscoveryState, type StoredOAuthClientInformation, type StoredOAuthTokens} from '@modelcontextprotocol/client';
import {userDataFolder} from '../config/config-paths.js';
import type {McpOAuthClientConfig} from '../config/mcp-servers.js';
import {writeConfigFile} from '../config/write-config-file.js';
import {isPlainRecord} from '../json/is-plain-record.js';

/** What one server's login left on disk. */
type OAuthRecord = {
	readonly url?: string;
	readonly client?: StoredOAuthClientInformation;
	/** The redirect URI the client was registered with (a later login on another port registers again). */
	readonly clientRedirect?: string;
	readonly tokens?: StoredOAuthTokens;
	/** When `tokens` were saved (ms): with their `expires_in`, when they expire. */
	readonly tokensSavedAt?: number;
	readonly discovery?: OAuthDiscoveryState;
	/**
	The scope a session's authorization asked for when only a login would help, chiefly a server's
	403 `insufficient_scope` (the SDK's step-up): a session opens no browser, so the next
	`cardterm mcp login` asks for it, rather than the smaller scope of the server's 401.
	*/
	readonly stepUpScope?: string;
};

/** A step-up scope longer than this is not kept (a server's, unbounded otherwise). */
const MAX_SCOPE_LENGTH = 4096;

/** Tokens this close to their end are refreshed before a session connects. */
const REFRESH_MARGIN_MS = 60_000;

/** How long `cardterm mcp login` waits for the browser to come back. */
const LOGIN_TIMEOUT_MS = 5 * 60_000;

/** The file of `name`'s OAuth state at `url` (a server renamed or moved logs in again). */
export function mcpOAuthFile(env: NodeJS.ProcessEnv, name: string, url: string): string {
	const hash = createHash('sha256').update(`${name}\u0000${url}`).digest('hex').slice(0, 12);
	return join(userDataFolder(env), 'mcp-oauth', `${name.replaceAll(/[^\w.-]/gu, '_').slice(0, 40)}-${hash}.json`);
}

/** Thrown where only a login in a browser would help, in a session. */
export class McpLoginNeeded extends Error {}

export class McpOAuthProvider implements OAuthClientProvider {
	/** In a session: set once only a login would help (the host says "needs login"). */
	needsLogin = false;
	readonly #file: string;
	readonly #mode: 'session' | 'login';
	readonly #redirect: string;
	readonly #onAuthorize: ((url: URL) => void | Promise<void>) | undefined;
	/** A client registered beforehand (the entry's `"oauth"`): never registered dynamically. */
	readonly #preRegistered: StoredOAuthClientInformation | undefined;
	/** The server's name in the config, for the command a session's refusal names. */
	readonly #server: string | undefined;
	#record: OAuthRecord | undefined;
	#verifier: string | undefined;
	readonly #state = randomBytes(16).toString('hex');

	constructor(file: string, options: ({readonly mode: 'session'} | {readonly mode: 'login'; readonly redirectUrl: string; readonly onAuthorize: (url: URL) => void | Promise<void>}) & {readonly client?: McpOAuthClientConfig; readonly server?: string}) {
		this.#file = file;
		this.#mode = options.mode;
		this.#redirect = options.mode === 'login' ? options.redirectUrl : 'http://127.0.0.1/callback';
		this.#onAuthorize = options.mode === 'login' ? options.onAuthorize : undefined;
		const {client} = options;
		this.#server = options.server;
		this.#preRegistered = client === undefined ? undefined : {client_id: client.clientId, ...(client.clientSecret === undefined ? {} : {client_secret: client.clientSecret})};
	}

	/** Whether a login left tokens (before the session connects: "needs login" at once without them). */
	async hasTokens(): Promise<boolean> {
		return (await this.#read()).tokens !== undefined;
	}

	get redirectUrl(): string {
		return this.#mode === 'login' ? this.#redirect : ((this.#record?.clientRedirect) ?? this.#redirect);
	}

	get clientMetadata(): OAuthClientMetadata {
		return {client_name: 'cardterm', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none'};
	}

	state(): string {
		return this.#state;
	}

	async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
		if (this.#preRegistered !== undefined) {
			return this.#preRegistered;
		}

		const record = await this.#read();
		if (this.#mode === 'login') {
			// A client registered for another loopback port is registered again.
			return record.clientRedirect === this.#redirect ? record.client : undefined;
		}

		// The SDK registers a client that has none before it asks to save it: not in a session.
		if (record.client === undefined) {
			this.#loginOnly();
		}

		return record.client;
	}

	async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
		this.#loginOnly();
		await this.#write({client, clientRedirect: this.#redirect});
	}

	async tokens(): Promise<StoredOAuthTokens | undefined> {
		return (await this.#read()).tokens;
	}

	async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
		// A login's tokens were asked with the step-up scope: it is no longer pending.
		await this.#write({tokens, tokensSavedAt: Date.now(), ...(this.#mode === 'login' ? {stepUpScope: undefined} : {})});
	}

	/** The scope a session's server asked for beyond its tokens', for the next login. */
	async stepUpScope(): Promise<string | undefined> {
		return (await this.#read()).stepUpScope;
	}

	/**
	Refresh tokens that expire within a minute before connecting (a token that ends mid-session is
	refreshed on the server's 401, the SDK's rule). A refresh that fails is left to that path.
	*/
	async refreshIfDue(serverUrl: URL): Promise<void> {
		const {tokens, tokensSavedAt} = await this.#read();
		if (tokens?.refresh_token === undefined || tokens.expires_in === undefined || tokensSavedAt === undefined || tokensSavedAt + (tokens.expires_in * 1000) - REFRESH_MARGIN_MS > Date.now()) {
			return;
		}

		await auth(this, {serverUrl}).catch(() => {});
	}

	async redirectToAuthorization(url: URL): Promise<void> {
		const scope = url.searchParams.get('scope');
		const stepUp = this.#mode === 'session' && scope !== null && scope.length <= MAX_SCOPE_LENGTH && (await this.#read()).tokens !== undefined;
		if (stepUp) {
			// Tokens the server no longer takes for this scope: the next login asks for it.
			await this.#write({stepUpScope: scope});
		}

		this.#loginOnly(stepUp ? scope : undefined);
		await this.#onAuthorize!(url);
	}

	saveCodeVerifier(verifier: string): void {
		this.#verifier = verifier;
	}

	codeVerifier(): string {
		if (this.#verifier === undefined) {
			throw new Error('no PKCE code verifier: the login did not start here');
		}

		return this.#verifier;
	}

	async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
		await this.#write({discovery});
	}

	async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
		return (await this.#read()).discovery;
	}

	async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
		const record = await this.#read();
		const keep = (key: keyof OAuthRecord): boolean => scope !== 'all' && !(scope === 'client' ? ['client', 'clientRedirect'] : [scope]).includes(key);
		this.#record = Object.fromEntries(Object.entries(record).filter(([key]) => keep(key as keyof OAuthRecord))) as OAuthRecord;
		if (scope === 'verifier') {
			this.#verifier = undefined;
		}

		await writeRecord(this.#file, this.#record);
	}

	/** In a session nothing is registered or opened: the person logs in with `cardterm mcp login`. */
	#loginOnly(scope?: string): void {
		if (this.#mode === 'session') {
			this.needsLogin = true;
			const run = this.#server === undefined ? '' : `: run cardterm mcp login ${this.#server}`;
			throw new McpLoginNeeded(`the server asks for a login${scope === undefined ? '' : ` with the scope "${scope.slice(0, 200)}"`}${run}`);
		}
	}

	async #read(): Promise<OAuthRecord> {
		this.#record ??= await readRecord(this.#file);
		return this.#record;
	}

	async #write(change: Partial<OAuthRecord>): Promise<void> {
		this.#record = {...await this.#read(), ...change};
		await writeRecord(this.#file, this.#record);
	}
}

async function readRecord(file: string): Promise<OAuthRecord> {
	try {
		const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
		return isPlainRecord(parsed) ? parsed as OAuthRecord : {};
	} catch {
		// None yet, or unreadable: a login writes it again.
		return {};
	}
}

async function writeRecord(file: string, record: OAuthRecord): Promise<void> {
	await mkdir(dirname(file), {recursive: true, mode: 0o700});
	await writeConfigFile(file, `${JSON.stringify(record, null, '\t')}\n`, 0o600);
}

export type McpLoginOptions = {
	readonly name: string;
	readonly url: string;
	readonly file: string;
	/** Show the person the authorization URL: open it in the browser, else print it (a test fetches it). */
	readonly open: (url: URL) => void | Promise<void>;
	readonly signal?: AbortSignal;
	readonly timeoutMs?: number;
	/** A client registered beforehand (the entry's `"oauth"`). */
	readonly client?: McpOAuthClientConfig;
};

/** Log in to the server at `url`: resolves with what to say once tokens are saved; rejects naming what failed. */
export async function mcpLogin(options: McpLoginOptions): Promise<string> {
	const callback = loopbackCallback(options.client?.callbackPort ?? 0, options.timeoutMs ?? LOGIN_TIMEOUT_MS, options.signal);
	try {
		// A fixed port is a client registered beforehand, in Claude Code's shape: http://localhost:PORT/callback
		// (the listener is on 127.0.0.1, where a browser's "localhost" lands).
		const redirectUrl = `http://${options.client?.callbackPort === undefined ? '127.0.0.1' : 'localhost'}:${await callback.port}/callback`;
		const provider = new McpOAuthProvider(options.file, {mode: 'login', redirectUrl, onAuthorize: options.open, ...(options.client === undefined ? {} : {client: options.client})});
		const serverUrl = new URL(options.url);
		const stepUpScope = await provider.stepUpScope();
		const challenge = {...await loginChallenge(serverUrl, options.signal), ...(stepUpScope === undefined ? {} : {scope: stepUpScope})};
		if (await auth(provider, {serverUrl, forceReauthorization: true, ...challenge}) === 'AUTHORIZED') {
			return `MCP server "${options.name}": authorized (tokens in ${options.file})`;
		}

		const answer = await callback.answer;
		if (answer.state !== provider.state()) {
			throw new Error('the browser came back with another state than the login sent (a stale or forged redirect); nothing was saved');
		}

		await auth(provider, {serverUrl, authorizationCode: answer.code, ...challenge, ...(answer.iss === undefined ? {} : {iss: answer.iss})});
		return `MCP server "${options.name}": logged in (tokens in ${options.file}, readable by you alone)`;
	} finally {
		callback.close();
	}
}

/** How long the login's first, unauthenticated request may take. */
const CHALLENGE_TIMEOUT_MS = 30_000;

/**
What the server's 401 names, as a session's first request would see it: the resource metadata's
URL (a server may publish it only there, not at a well-known path) and the scope to ask for. A
JSON-RPC `ping` leaves no session behind on a server that answers; no 401, or no answer, names
nothing and discovery goes to the well-known paths.
*/
async function loginChallenge(serverUrl: URL, signal: AbortSignal | undefined): Promise<{resourceMetadataUrl?: URL; scope?: string}> {
	try {
		const timeout = AbortSignal.timeout(CHALLENGE_TIMEOUT_MS);
		const response = await fetch(serverUrl, {
			method: 'POST',
			headers: {'content-type': 'application/json', accept: 'application/json, text/event-stream'},
			body: JSON.stringify({jsonrpc: '2.0', id: 0, method: 'ping'}),
			signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
		});
		await response.body?.cancel();
		if (response.status !== 401) {
			return {};
		}

		const {resourceMetadataUrl, scope} = extractWWWAuthenticateParams(response);
		return {...(resourceMetadataUrl === undefined ? {} : {resourceMetadataUrl}), ...(scope === undefined ? {} : {scope})};
	} catch {
		return {};
	}
}

type CallbackAnswer = {readonly code: string; readonly state: string | null; readonly iss?: string};

/** A one-shot listener on 127.0.0.1 at `port` (0: a random one) for the authorization server's redirect. */
function loopbackCallback(port: number, timeoutMs: number, signal: AbortSignal | undefined): {port: Promise<number>; answer: Promise<CallbackAnswer>; close(): void} {
	let settle!: {resolve: (answer: CallbackAnswer) => void; reject: (error: Error) => void};
	const answer = new Promise<CallbackAnswer>((resolve, reject) => {
		settle = {resolve, reject};
	});
	// Awaited only after the browser step; a failure before it must not be an unhandled rejection.
	answer.catch(() => {});
	const server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://127.0.0.1');
		if (url.pathname !== '/callback') {
			response.writeHead(404).end();
			return;
		}

		const code = url.searchParams.get('code');
		const error = url.searchParams.get('error');
		response.writeHead(code === null ? 400 : 200, {'content-type': 'text/plain; charset=utf-8'}).end(code === null ? `cardterm: the login failed (${error ?? 'no code'}); see the terminal.\n` : 'cardterm: logged in. You can close this tab.\n');
		if (code === null) {
			settle.reject(new Error(`the authorization server refused: ${(error ?? 'no code in the redirect').slice(0, 200)}${url.searchParams.has('error_description') ? ` (${url.searchParams.get('error_description')!.slice(0, 300)})` : ''}`));
			return;
		}

		const iss = url.searchParams.get('iss');
		settle.resolve({code, state: url.searchParams.get('state'), ...(iss === null ? {} : {iss})});
	});
	const timer = setTimeout(() => {
		settle.reject(new Error(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`));
	}, timeoutMs);
	const onAbort = (): void => {
		settle.reject(new Error('the login was cancelled'));
	};

	signal?.addEventListener('abort', onAbort, {once: true});
	const listening = new Promise<number>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			resolve((server.address() as AddressInfo).port);
		});
	});
	return {
		port: listening,
		answer,
		close() {
			clearTimeout(timer);
			signal?.removeEventListener('abort', onAbort);
			server.closeAllConnections();
			server.close();
		},
	};
}
