/**
@module The session's MCP servers. `start()` connects every server in parallel and returns at once:
the first prompt never waits for them, a slow or dead server never holds the others, and each
server's state (connecting, ready with N tools, failed with the reason, waiting for consent) is
there for `/mcp` and the status line. A ready server's tools are registered in the session's
registry as `mcp__SERVER__TOOL` (`mcp-tool.ts`); a tool whose input schema does not compile is
skipped and named. The tools ask before they run unless the person allowed them (`allow` in the
server's config, `--yolo`, or the dialog's "for this session"): `rules` holds one rule per tool that
asks, read by the session's approval policy at every call. A server's `listChanged` updates its
tools; a request cardterm does not serve (sampling, elicitation) is refused saying so; `close()`
ends every server's program and connection.
*/
import {isAbsolute, resolve} from 'node:path';
import {Client, SSEClientTransport, StreamableHTTPClientTransport, UnauthorizedError, type GetPromptResult, type JsonSchemaValidator, type Prompt, type Tool, type Transport} from '@modelcontextprotocol/client';
import {AjvJsonSchemaValidator} from '@modelcontextprotocol/client/validators/ajv';
import {distinctMcpToolName, mcpToolName} from '../builtin/mcp/mcp-tool-name.js';
import type {AskRule} from '../config/approval-rules.js';
import {pushAll} from '../layout/text/push-all.js';
import {DEFAULT_CALL_TIMEOUT_MS, DEFAULT_STARTUP_TIMEOUT_MS, describeMcpSpec, expandMcpSpec, type McpOAuthClientConfig, type McpServerEntry, type McpTransportSpec} from '../config/mcp-servers.js';
import {thrownMessage} from '../tools/errors.js';
import type {ToolRegistry} from '../tools/registry.js';
import type {McpPromptEntry} from './mcp-prompts.js';
import {mcpOAuthFile, McpOAuthProvider} from './mcp-oauth.js';
import type {AttachmentStore} from '../session/store/image-attachments.js';
import {McpStdioTransport} from './mcp-stdio-transport.js';
import {mcpToolDefinition, type CompiledMcpTool} from './mcp-tool.js';

/** Where one server is. */
export type McpServerState = 'connecting' | 'ready' | 'failed' | 'needs consent' | 'needs login' | 'closed';

/** One server, as `/mcp` shows it. */
export type McpServerStatus = {
	readonly name: string;
	/** The file that defines it. */
	readonly from: string;
	/** What it runs or where it is (`npx -y server`, `http https://…`). */
	readonly target: string;
	readonly state: McpServerState;
	/** Tools registered from it. */
	readonly tools: number;
	/** Prompts it offers (each a slash command). */
	readonly prompts: number;
	/** Tools it lists that were not registered, each with why. */
	readonly skipped: readonly string[];
	/** Why it failed, or what it waits for. */
	readonly reason?: string;
	/** The server's own name and version, once connected. */
	readonly server?: string;
	/** Requests of the server's that cardterm refused. */
	readonly refused: readonly string[];
	/** The newest log messages it sent (`notifications/message`), `LEVEL: text`. */
	readonly logs: readonly string[];
	/** Connecting for longer than `SLOW_START_MS`: the status line names it. */
	readonly slow?: true;
};

/** How long a server may take to connect before the status line names it. */
export const SLOW_START_MS = 5000;

/** Resources of one server the `@` picker offers at most. */
const MAX_RESOURCES = 1000;

/** A server's resource as the `@` picker offers it (`@server:uri`). */
export type McpResource = {readonly server: string; readonly uri: string; readonly name: string; readonly mimeType?: string};

export type McpHostOptions = {
	readonly registry: ToolRegistry;
	/** The servers the session starts (consented). */
	readonly servers: readonly McpServerEntry[];
	/** A project's servers waiting for the person's consent: listed, not started. */
	readonly unconsented?: readonly McpServerEntry[];
	/** The workspace: a program's default folder, relative `cwd`s resolve against it. */
	readonly cwd: string;
	/** Where `${VAR}` in a server's config is read from (the person's environment). */
	readonly env: NodeJS.ProcessEnv;
	/** The programs' environment before their config's `env` (the session's: secrets kept out). */
	readonly commandEnv: NodeJS.ProcessEnv;
	/** Where images, audio and over-long results are saved. */
	readonly saveDir: string;
	/** The session's attachments: image results are kept there too, for the model (`mcp-tool.ts`). */
	readonly attachments?: AttachmentStore;
	/** Whether tools the person did not allow ask before they run (false: `--yolo`). */
	readonly ask: boolean;
	/**
	Only the servers' prompts: no tool is listed or registered (an ACP agent's session, whose agent
	runs the servers' tools itself); a server that offers no prompts is disconnected once that is known.
	*/
	readonly promptsOnly?: boolean;
	readonly clientVersion?: string;
};

/** How many refused requests a server's status keeps. */
const MAX_REFUSALS = 20;
/** How many of a server's prompts become commands. */
const MAX_PROMPTS = 500;
/** How many of a server's log messages its status keeps. */
const MAX_LOGS = 5;

export class McpHost {
	/** One ask rule per registered tool that asks; the session's approval policy reads it at every call. */
	readonly rules: AskRule[] = [];
	readonly #options: McpHostOptions;
	readonly #links: Map<string, ServerLink>;
	readonly #listeners = new Set<() => void>();
	readonly #validators = new AjvJsonSchemaValidator();
	/** `prompts()` kept until a server's state or prompts change. */
	#prompts: McpPromptEntry[] | undefined;
	#closed = false;

	constructor(options: McpHostOptions) {
		this.#options = options;
		this.#links = new Map([...options.servers, ...(options.unconsented ?? [])].map(entry => [entry.name, new ServerLink(entry)]));
		for (const entry of options.unconsented ?? []) {
			this.#links.get(entry.name)!.set({state: 'needs consent', reason: 'a project\'s server: allow it when the session starts, or run with --yolo'});
		}
	}

	/**
	Connect every consented server, in parallel; returns at once. Each starts in a later turn of the
	event loop: starting a program takes milliseconds of this thread, which the first frame and the
	prompt do not wait for (5 servers: 112 ms before the session was returned, bench/mcp.mjs).
	*/
	start(): void {
		for (const entry of this.#options.servers) {
			const link = this.#links.get(entry.name)!;
			const done = link.connectingDone();
			setImmediate(() => {
				void this.#connect(link, done);
			});
		}
	}

	/** Resolves when no server is connecting any more (`-p` waits for its tools; the interactive session does not). */
	async settled(): Promise<void> {
		await Promise.all([...this.#links.values()].map(async link => link.connecting));
	}

	status(): McpServerStatus[] {
		return [...this.#links.values()].map(link => link.status());
	}

	/** Hear every change of a server's state or tools. */
	onChange(listener: () => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	/** Connect `name` again (its tools are replaced); resolves with what to say. */
	async reconnect(name: string): Promise<string> {
		const link = this.#links.get(name);
		if (link === undefined) {
			return `no MCP server "${name}" (${this.#links.size === 0 ? 'none is configured' : `the servers: ${[...this.#links.keys()].join(', ')}`})`;
		}

		if (link.state === 'needs consent') {
			return `MCP server "${name}" is a project's server you have not allowed: restart the session to be asked, or run with --yolo`;
		}

		await this.#connect(link);
		const status = link.status();
		return status.state === 'ready' ? `MCP server "${name}" reconnected: ${status.tools} tools` : `MCP server "${name}" ${status.state}: ${status.reason ?? ''}`;
	}

	/** Every ready server's prompts, in the servers' order; the same array until one changes. */
	prompts(): readonly McpPromptEntry[] {
		this.#prompts ??= [...this.#links.values()].filter(link => link.state === 'ready').flatMap(link => link.prompts.map(prompt => ({server: link.entry.name, prompt})));
		return this.#prompts;
	}

	/** `prompts/get` of `server`'s prompt `name` with `args`, within the server's call limit. */
	async getPrompt(server: string, name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult> {
		const link = this.#links.get(server);
		const client = link?.client;
		if (link === undefined || client === undefined) {
			throw new Error(`MCP server "${server}" is not connected${link?.reason === undefined ? '' : `: ${link.reason}`}`);
		}

		return client.getPrompt({name, arguments: args}, {timeout: link.entry.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS, ...(signal === undefined ? {} : {signal})});
	}

	/**
	The resources the ready servers list (`resources/list`, first page), for the `@` picker: at most
	`MAX_RESOURCES` a server, a server that lists none or fails saying nothing.
	*/
	async resources(): Promise<McpResource[]> {
		const lists = await Promise.all([...this.#links.values()].map(async link => {
			const {client} = link;
			if (link.state !== 'ready' || client?.getServerCapabilities()?.resources === undefined) {
				return [];
			}

			const listed = await client.listResources(undefined, {timeout: link.entry.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS}).catch(() => ({resources: []}));
			return listed.resources.slice(0, MAX_RESOURCES).map(resource => ({server: link.entry.name, uri: resource.uri, name: resource.name, ...(resource.mimeType === undefined ? {} : {mimeType: resource.mimeType})}));
		}));
		return lists.flat();
	}

	/** The text of `server`'s resource `uri` (`resources/read`): its text contents joined; a blob is refused, named. */
	async readResource(server: string, uri: string, signal?: AbortSignal): Promise<{readonly text: string; readonly mimeType?: string}> {
		const link = this.#links.get(server);
		if (link?.client === undefined || link.state !== 'ready') {
			throw new Error(`the MCP server ${server} is not connected`);
		}

		const read = await link.client.readResource({uri}, {timeout: link.entry.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS, ...(signal === undefined ? {} : {signal})});
		const texts = read.contents.flatMap(content => ('text' in content && typeof content.text === 'string' ? [content.text] : []));
		if (texts.length === 0) {
			throw new Error(read.contents.length === 0 ? 'the resource is empty' : 'binary content (not text)');
		}

		const mimeType = read.contents[0]?.mimeType;
		return {text: texts.join('\n'), ...(mimeType === undefined ? {} : {mimeType})};
	}

	/** End every server: its program and connection; its tools leave the registry. */
	async close(): Promise<void> {
		this.#closed = true;
		await Promise.all([...this.#links.values()].map(async link => {
			this.#unregister(link);
			await link.disconnect();
			link.set({state: 'closed'});
		}));
		this.#changed();
	}

	async #connect(link: ServerLink, started?: () => void): Promise<void> {
		// Marked connecting at once: `settled()` right after `start()` waits for it.
		const done = started ?? link.connectingDone();
		const generation = await link.begin();
		this.#unregister(link);
		link.set({state: 'connecting'});
		link.connectingSince = Date.now();
		// Said in the status line once it is slow (the state changes nothing else then).
		const slow = setTimeout(() => {
			this.#changed();
		}, SLOW_START_MS + 10);
		slow.unref();
		this.#changed();
		try {
			const spec = 'problem' in link.entry.spec ? link.entry.spec : expandMcpSpec(link.entry.spec, this.#options.env);
			if ('problem' in spec) {
				link.set({state: 'failed', reason: spec.problem});
				return;
			}

			const timeout = link.entry.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
			const connected = await this.#open(link, spec, timeout);
			if (this.#closed || link.generation !== generation) {
				await connected.client.close().catch(() => {});
				return;
			}

			link.adopt(connected);
			connected.client.onclose = () => {
				if (link.client === connected.client && !this.#closed) {
					link.lost(connected.transport);
					this.#changed();
				}
			};

			const offersPrompts = connected.client.getServerCapabilities()?.prompts !== undefined;
			const [{tools}, prompts] = await Promise.all([
				this.#options.promptsOnly === true ? {tools: []} : connected.client.listTools(undefined, {timeout}),
				offersPrompts ? this.#listPrompts(link, connected.client, timeout) : [],
			]);
			if (link.generation !== generation) {
				return;
			}

			this.#register(link, tools);
			link.prompts = prompts;
			const version = connected.client.getServerVersion();
			link.set({state: 'ready', ...(version === undefined ? {} : {server: `${version.name} ${version.version}`}), ...(this.#options.promptsOnly === true ? {reason: 'its tools are the agent\'s'} : {})});
			if (this.#options.promptsOnly === true && !offersPrompts) {
				// Kept open for nothing.
				await link.disconnect();
				link.set({state: 'ready', reason: 'offers no prompts, disconnected; its tools are the agent\'s'});
			}
		} catch (error) {
			if (link.generation === generation) {
				link.set(link.oauth?.needsLogin === true || error instanceof UnauthorizedError
					? {state: 'needs login', reason: `the server asks for a login: run cardterm mcp login ${link.entry.name}`}
					: {state: 'failed', reason: link.failure(error, link.entry.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS)});
				await link.disconnect();
			}
		} finally {
			clearTimeout(slow);
			done();
			this.#changed();
		}
	}

	/** A connected client over the server's transport (streamable HTTP, then the legacy SSE transport for an old server). */
	async #open(link: ServerLink, spec: McpTransportSpec, timeout: number): Promise<Connected> {
		const attempt = async (transport: Transport): Promise<Connected> => {
			const client = this.#client(link);
			link.transport = transport;
			try {
				await client.connect(transport, {timeout});
			} catch (error) {
				await client.close().catch(() => {});
				throw error;
			}

			return {client, transport};
		};

		switch (spec.transport) {
			case 'stdio': {
				const cwd = spec.cwd === undefined ? this.#options.cwd : (isAbsolute(spec.cwd) ? spec.cwd : resolve(this.#options.cwd, spec.cwd));
				return attempt(new McpStdioTransport({command: spec.command, args: spec.args, cwd, env: {...this.#options.commandEnv, ...spec.env}}));
			}

			case 'http': {
				const url = new URL(spec.url);
				const authProvider = link.oauthFor(mcpOAuthFile(this.#options.env, link.entry.name, spec.url), spec.oauth);
				await authProvider.refreshIfDue(url);
				try {
					return await attempt(new StreamableHTTPClientTransport(url, {requestInit: {headers: spec.headers}, authProvider}));
				} catch (error) {
					// An old server speaks only the SSE transport; a timeout or a login is no sign of that.
					if (/time(d)? ?out/i.test(thrownMessage(error)) || authProvider.needsLogin || error instanceof UnauthorizedError) {
						throw error;
					}

					try {
						return await attempt(new SSEClientTransport(url, {requestInit: {headers: spec.headers}, authProvider}));
					} catch {
						throw error;
					}
				}
			}

			case 'sse': {
				return attempt(new SSEClientTransport(new URL(spec.url), {requestInit: {headers: spec.headers}, authProvider: link.oauthFor(mcpOAuthFile(this.#options.env, link.entry.name, spec.url), spec.oauth)}));
			}
		}
	}

	#client(link: ServerLink): Client {
		const client = new Client({name: 'cardterm', version: this.#options.clientVersion ?? '0'}, {
			capabilities: {},
			listChanged: {
				// A session that takes only prompts never registers a tool, neither at connect nor when the list changes.
				...(this.#options.promptsOnly === true ? {} : {tools: {
					onChanged: (error: Error | null, tools: Tool[] | null) => {
						if (link.client !== client || this.#closed) {
							return;
						}

						if (error === null && tools !== null) {
							this.#register(link, tools);
						} else if (error !== null) {
							link.note(`the tool list changed but could not be read: ${error.message}`);
						}

						this.#changed();
					},
				}}),
				prompts: {
					onChanged: (error, prompts) => {
						if (link.client !== client || this.#closed) {
							return;
						}

						if (error === null && prompts !== null) {
							link.prompts = keptPrompts(link, prompts);
						} else if (error !== null) {
							link.note(`the prompt list changed but could not be read: ${error.message}`);
						}

						this.#changed();
					},
				},
			},
		});
		// Its log messages (and any notification the SDK has no handler for) are kept for `/mcp`, the newest few.
		client.fallbackNotificationHandler = async notification => {
			if (notification.method === 'notifications/message' && link.client === client) {
				const params = (notification.params ?? {}) as {level?: unknown; logger?: unknown; data?: unknown};
				const text = typeof params.data === 'string' ? params.data : JSON.stringify(params.data) ?? '';
				link.log(`${typeof params.level === 'string' ? params.level : 'log'}${typeof params.logger === 'string' ? ` (${params.logger})` : ''}: ${text.slice(0, 500)}`);
				this.#changed();
			}
		};
		// Sampling and elicitation: cardterm declares neither; a server that asks anyway is told so, and the card says it was refused.
		client.fallbackRequestHandler = async request => {
			const refusal = `refused the server's ${request.method} request: cardterm does not serve ${request.method.startsWith('sampling/') ? 'sampling (it runs no model requests for MCP servers)' : (request.method.startsWith('elicitation/') ? 'elicitation (it asks the person nothing on a server\'s behalf)' : 'this request')}`;
			link.refuse(refusal);
			this.#changed();
			throw new Error(`cardterm ${refusal.slice('refused the server\'s '.length)}`);
		};

		return client;
	}

	/** A server's prompts; a list that cannot be read is noted, and the server's tools still work. */
	async #listPrompts(link: ServerLink, client: Client, timeout: number): Promise<Prompt[]> {
		try {
			return keptPrompts(link, (await client.listPrompts(undefined, {timeout})).prompts);
		} catch (error) {
			link.note(`its prompts could not be listed: ${thrownMessage(error).slice(0, 200)}`);
			return [];
		}
	}

	/** Register `tools` of `link` (replacing the ones it had); the rules are rebuilt. */
	#register(link: ServerLink, tools: readonly Tool[]): void {
		this.#unregister(link);
		const {registry} = this.#options;
		const {entry} = link;
		const skipped: string[] = [];
		const registered: Array<{name: string; tool: Tool}> = [];
		for (const tool of tools) {
			const compiled = this.#compile(tool);
			if (typeof compiled === 'string') {
				skipped.push(`${tool.name}: ${compiled}`);
				continue;
			}

			let name = mcpToolName(entry.name, tool.name);
			if (registry.get(name) !== undefined) {
				name = distinctMcpToolName(name, entry.name, tool.name);
			}

			try {
				link.registrations.push(registry.register(mcpToolDefinition(name, compiled, {
					server: entry.name,
					client: () => link.client ?? link.reason ?? 'not connected',
					timeoutMs: entry.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
					saveDir: this.#options.saveDir,
					...(this.#options.attachments === undefined ? {} : {attachments: this.#options.attachments}),
					refusalMark: () => link.refusals,
					refusalsSince: mark => link.refusedSince(mark),
				})));
				registered.push({name, tool});
			} catch (error) {
				skipped.push(`${tool.name}: ${thrownMessage(error)}`);
			}
		}

		link.skipped = skipped;
		link.toolCount = registered.length;
		link.rules = this.#options.ask ? registered.filter(({tool}) => !allowed(entry, tool)).map(({name}) => ({tool: name, by: `cardterm (MCP server "${entry.name}"; allow its tools in its config's "allow")`})) : [];
		this.#rebuildRules();
	}

	#unregister(link: ServerLink): void {
		for (const dispose of link.registrations.splice(0).reverse()) {
			dispose();
		}

		link.toolCount = 0;
		link.rules = [];
		this.#rebuildRules();
	}

	#rebuildRules(): void {
		// In place: the approval policy holds this array. Pushed, not spread (10 000 tools' rules).
		this.rules.length = 0;
		for (const link of this.#links.values()) {
			pushAll(this.rules, link.rules);
		}
	}

	/** The tool's schemas compiled, or why it cannot be offered. */
	#compile(tool: Tool): CompiledMcpTool | string {
		const schema: unknown = tool.inputSchema;
		if (typeof schema !== 'object' || schema === null || (schema as {type?: unknown}).type !== 'object') {
			return 'its input schema is not an object schema ({"type": "object", …})';
		}

		let validateInput: JsonSchemaValidator<unknown>;
		try {
			validateInput = this.#validators.getValidator(schema as Parameters<AjvJsonSchemaValidator['getValidator']>[0]);
		} catch (error) {
			return `its input schema does not compile: ${thrownMessage(error).slice(0, 200)}`;
		}

		if (tool.outputSchema === undefined) {
			return {tool, validateInput};
		}

		try {
			return {tool, validateInput, validateOutput: this.#validators.getValidator(tool.outputSchema)};
		} catch (error) {
			return {tool, validateInput, validateOutput: thrownMessage(error).slice(0, 200)};
		}
	}

	#changed(): void {
		this.#prompts = undefined;
		for (const listener of this.#listeners) {
			listener();
		}
	}
}

/** The first `MAX_PROMPTS` of a server's prompts (each is a command in the table and in `/help`); the rest are noted. */
function keptPrompts(link: ServerLink, prompts: Prompt[]): Prompt[] {
	if (prompts.length <= MAX_PROMPTS) {
		return prompts;
	}

	link.note(`it offers ${prompts.length} prompts; the first ${MAX_PROMPTS} are commands`);
	return prompts.slice(0, MAX_PROMPTS);
}

/** Whether the person let `tool` run without asking: the server's `allow`, or its read-only hint when they trust hints. */
function allowed(entry: McpServerEntry, tool: Tool): boolean {
	if (entry.allow === true || entry.allow.includes(tool.name)) {
		return true;
	}

	return entry.trustReadOnlyHint && tool.annotations?.readOnlyHint === true;
}

type Connected = {readonly client: Client; readonly transport: Transport};

/** One server's connection and what the host knows of it. */
class ServerLink {
	readonly entry: McpServerEntry;
	state: McpServerState = 'connecting';
	reason: string | undefined;
	server: string | undefined;
	client: Client | undefined;
	transport: Transport | undefined;
	registrations: Array<() => void> = [];
	toolCount = 0;
	prompts: Prompt[] = [];
	skipped: string[] = [];
	rules: AskRule[] = [];
	/** The OAuth provider of its last HTTP connect: the tokens a login left, and whether only a login would help. */
	oauth: McpOAuthProvider | undefined;
	/** Bumped by every connect: an older connect's late answer is ignored. */
	generation = 0;
	refusals = 0;
	connecting: Promise<void> = Promise.resolve();
	connectingSince = 0;
	readonly #refused: string[] = [];
	readonly #notes: string[] = [];
	readonly #logs: string[] = [];

	constructor(entry: McpServerEntry) {
		this.entry = entry;
	}

	/** Start a connect: the previous connection is ended first. */
	async begin(): Promise<number> {
		this.generation++;
		const generation = this.generation;
		await this.disconnect();
		return generation;
	}

	/** A fresh OAuth provider over `file` for a connect (a login since the last one is read again). */
	oauthFor(file: string, client: McpOAuthClientConfig | undefined): McpOAuthProvider {
		this.oauth = new McpOAuthProvider(file, {mode: 'session', server: this.entry.name, ...(client === undefined ? {} : {client})});
		return this.oauth;
	}

	connectingDone(): () => void {
		let done!: () => void;
		this.connecting = new Promise(resolve => {
			done = resolve;
		});
		return done;
	}

	set(state: {state: McpServerState; reason?: string; server?: string}): void {
		this.state = state.state;
		this.reason = state.reason;
		if (state.server !== undefined) {
			this.server = state.server;
		}
	}

	adopt(connected: Connected): void {
		this.client = connected.client;
		this.transport = connected.transport;
	}

	/** The connection ended on its own (the program exited, the server went away). */
	lost(transport: Transport): void {
		this.client = undefined;
		this.set({state: 'failed', reason: `the connection ended${exitText(transport)}`});
	}

	async disconnect(): Promise<void> {
		const {client, transport} = this;
		this.client = undefined;
		this.transport = undefined;
		if (client !== undefined) {
			await client.close().catch(() => {});
		} else if (transport !== undefined) {
			await transport.close().catch(() => {});
		}
	}

	note(text: string): void {
		this.#notes.push(text);
		this.#notes.splice(0, Math.max(0, this.#notes.length - MAX_REFUSALS));
	}

	log(text: string): void {
		this.#logs.push(text);
		this.#logs.splice(0, Math.max(0, this.#logs.length - MAX_LOGS));
	}

	refuse(text: string): void {
		this.refusals++;
		this.#refused.push(text);
		this.#refused.splice(0, Math.max(0, this.#refused.length - MAX_REFUSALS));
	}

	refusedSince(mark: number): readonly string[] {
		const count = Math.min(this.refusals - mark, this.#refused.length);
		return count <= 0 ? [] : this.#refused.slice(-count);
	}

	/** Why connecting failed, naming what the person can act on. */
	failure(error: unknown, timeout: number): string {
		const message = thrownMessage(error);
		const said = /time(d)? ?out/i.test(message) ? `did not finish initialize within ${Math.round(timeout / 100) / 10} s (the limit is "startupTimeoutMs" in its config)` : message;
		return `${said}${exitText(this.transport)}`;
	}

	status(): McpServerStatus {
		return {
			name: this.entry.name,
			from: this.entry.from,
			target: describeMcpSpec(this.entry.spec),
			state: this.state,
			tools: this.toolCount,
			prompts: this.state === 'ready' ? this.prompts.length : 0,
			skipped: this.skipped,
			...(this.reason === undefined ? {} : {reason: this.reason}),
			...(this.server === undefined ? {} : {server: this.server}),
			refused: [...this.#notes, ...this.#refused],
			logs: [...this.#logs],
			...(this.state === 'connecting' && this.connectingSince > 0 && Date.now() - this.connectingSince >= SLOW_START_MS ? {slow: true} : {}),
		};
	}
}

/** How a program ended and the last line of its stderr, when the transport was one. */
function exitText(transport: Transport | undefined): string {
	if (!(transport instanceof McpStdioTransport)) {
		return '';
	}

	const exit = transport.exit();
	const tail = transport.stderrTail().trim().split('\n').at(-1)?.trim();
	const ended = exit === undefined ? '' : `; its program ended (${exit.error?.message ?? (exit.signal === null ? `exit code ${exit.exitCode ?? '?'}` : `signal ${exit.signal}`)})`;
	return `${ended}${tail === undefined || tail === '' ? '' : `; stderr: ${tail.slice(0, 300)}`}`;
}
