/**
@module The person's MCP servers: `mcpServers` in the user's config, in the project's
`.cardterm/config.json` and in the project's `.mcp.json` (the file Claude Code, Cursor and Gemini CLI
read: the same shape, so a person's file works as it is). Each entry is a program (`command`, `args`,
`env`, `cwd`) or a server (`url`, `headers`; `type` `http` — streamable HTTP — or `sse`, the legacy
transport; Gemini's `httpUrl` is `http`). cardterm's own keys: `allow` (true, or the tool names that
run without asking), `timeoutMs` (per call), `startupTimeoutMs`, `trustReadOnlyHint`, `disabled`.

Precedence, lowest first: the user's config < the project's `.mcp.json` < the project's
`.cardterm/config.json` (or the file `CARDTERM_CONFIG` names): a name defined twice is the higher
file's, whole. A project's servers (either project file) are started only with the person's consent
(`mcp-consent.ts`). An entry cardterm cannot use is not an error that stops the session: the server
is listed as failed, with the reason naming the file and key, and the others start.
*/
import {createHash} from 'node:crypto';
import {isPlainRecord} from '../json/is-plain-record.js';
import {httpUrl} from './config-schema.js';

/** How cardterm reaches a server. */
export type McpTransportSpec =
	| {readonly transport: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>>; readonly cwd?: string}
	| {readonly transport: 'http' | 'sse'; readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly oauth?: McpOAuthClientConfig};

/**
A client registered with the server's authorization server beforehand (`"oauth"` in the entry, the
shape Claude Code's `.mcp.json` takes): used instead of dynamic registration, which many servers do
not offer. `callbackPort` fixes the loopback redirect's port, for a client registered with one.
*/
export type McpOAuthClientConfig = {readonly clientId: string; readonly clientSecret?: string; readonly callbackPort?: number};

/** One configured server, as its file says it (`${VAR}` not expanded yet). */
export type McpServerEntry = {
	readonly name: string;
	/** The file that defines it. */
	readonly from: string;
	/** Defined by a project's file: started only with the person's consent. */
	readonly byProject: boolean;
	/** How to reach it, or why the entry cannot be used. */
	readonly spec: McpTransportSpec | {readonly problem: string};
	/** Tools that run without asking: every tool (`true`), or these names (the server's own names). */
	readonly allow: true | readonly string[];
	/** A call's limit, in ms (default `DEFAULT_CALL_TIMEOUT_MS`). */
	readonly timeoutMs?: number;
	/** How long connecting may take, in ms (default `DEFAULT_STARTUP_TIMEOUT_MS`). */
	readonly startupTimeoutMs?: number;
	/** A tool the server marks `readOnlyHint` runs without asking (the person's opt-in: a server's hint is its own word). */
	readonly trustReadOnlyHint: boolean;
	readonly disabled: boolean;
};

export const DEFAULT_CALL_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
const MAX_TIMER_MS = 2_147_483_647;
/** Names as peers allow them; the tool names built from them are sanitised again (`mcp-tool-name.ts`). */
const SERVER_NAME = /^[\w.-]{1,64}$/;

/** The keys of an entry cardterm reads; others (a peer's own: `trust`, `includeTools`) are named once as ignored. */
const KNOWN_KEYS = new Set(['type', 'command', 'args', 'env', 'cwd', 'url', 'httpUrl', 'headers', 'oauth', 'allow', 'timeoutMs', 'startupTimeoutMs', 'trustReadOnlyHint', 'disabled']);

/** The entries of one file's `mcpServers` value, and what was odd in it (warnings naming the key). */
export function readMcpServers(value: unknown, from: string, byProject: boolean): {readonly entries: readonly McpServerEntry[]; readonly warnings: readonly string[]} {
	if (value === undefined) {
		return {entries: [], warnings: []};
	}

	if (!isPlainRecord(value)) {
		return {entries: [], warnings: [`${from}: "mcpServers" must be an object of servers by name; ignored`]};
	}

	const entries: McpServerEntry[] = [];
	const warnings: string[] = [];
	for (const [name, raw] of Object.entries(value)) {
		const where = `mcpServers.${JSON.stringify(name)}`;
		if (!SERVER_NAME.test(name)) {
			warnings.push(`${from}: ${where}: a server's name is letters, digits, "_", "-" or "." (at most 64); ignored`);
			continue;
		}

		const unknown = isPlainRecord(raw) ? Object.keys(raw).filter(key => !KNOWN_KEYS.has(key)) : [];
		if (unknown.length > 0) {
			warnings.push(`${from}: ${where}: ${unknown.slice(0, 5).map(key => JSON.stringify(key)).join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''} ignored`);
		}

		entries.push(readEntry(name, raw, from, byProject));
	}

	return {entries, warnings};
}

function readEntry(name: string, raw: unknown, from: string, byProject: boolean): McpServerEntry {
	const base = {name, from, byProject};
	const fail = (problem: string): McpServerEntry => ({...base, spec: {problem: `${from}: mcpServers.${name}: ${problem}`}, allow: [], trustReadOnlyHint: false, disabled: false});
	if (!isPlainRecord(raw)) {
		return fail('must be an object ({"command": …} or {"url": …})');
	}

	const allow = raw.allow ?? [];
	if (allow !== true && !(Array.isArray(allow) && allow.every(tool => typeof tool === 'string'))) {
		return fail('"allow" must be true or a list of the server\'s tool names');
	}

	const limits: {timeoutMs?: number; startupTimeoutMs?: number} = {};
	for (const key of ['timeoutMs', 'startupTimeoutMs'] as const) {
		const number = raw[key];
		if (number === undefined) {
			continue;
		}

		if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1 || number > MAX_TIMER_MS) {
			return fail(`"${key}" must be a positive integer of at most ${MAX_TIMER_MS} (ms)`);
		}

		limits[key] = number;
	}

	for (const key of ['trustReadOnlyHint', 'disabled'] as const) {
		if (raw[key] !== undefined && typeof raw[key] !== 'boolean') {
			return fail(`"${key}" must be true or false`);
		}
	}

	const spec = transportOf(raw);
	return {
		...base,
		spec: 'problem' in spec ? {problem: `${from}: mcpServers.${name}: ${spec.problem}`} : spec,
		allow: allow === true ? true : (allow as string[]),
		...limits,
		trustReadOnlyHint: raw.trustReadOnlyHint === true,
		disabled: raw.disabled === true,
	};
}

function transportOf(raw: Record<string, unknown>): McpTransportSpec | {readonly problem: string} {
	const {type} = raw;
	const url = raw.httpUrl ?? raw.url;
	if (type === 'stdio' || (type === undefined && raw.command !== undefined)) {
		const {command, args = [], env = {}, cwd} = raw;
		if (typeof command !== 'string' || command.trim() === '') {
			return {problem: '"command" must be the program to start (a non-empty string)'};
		}

		if (!Array.isArray(args) || !args.every(arg => typeof arg === 'string')) {
			return {problem: '"args" must be a list of strings'};
		}

		if (!stringRecord(env)) {
			return {problem: '"env" must be an object of strings'};
		}

		if (cwd !== undefined && typeof cwd !== 'string') {
			return {problem: '"cwd" must be a string'};
		}

		return {transport: 'stdio', command, args: args as string[], env, ...(cwd === undefined ? {} : {cwd})};
	}

	const transport = type === 'sse' ? 'sse' : (type === undefined || type === 'http' || type === 'streamable-http' || type === 'streamableHttp' ? 'http' : undefined);
	if (transport === undefined) {
		return {problem: `"type" must be "stdio", "http" or "sse" (got ${JSON.stringify(type)})`};
	}

	if (typeof url !== 'string' || httpUrl(url.replaceAll(/\$\{[^}]*\}/g, 'x')) === undefined) {
		return {problem: url === undefined ? 'needs "command" (a program) or "url" (a server)' : `"url" must be an http(s) URL (got ${JSON.stringify(url)})`};
	}

	const headers = raw.headers ?? {};
	if (!stringRecord(headers)) {
		return {problem: '"headers" must be an object of strings'};
	}

	const oauth = oauthOf(raw.oauth);
	if (typeof oauth === 'string') {
		return {problem: oauth};
	}

	return {transport, url, headers, ...(oauth === undefined ? {} : {oauth})};
}

/** An entry's `"oauth"`, or what is wrong with it. */
function oauthOf(raw: unknown): McpOAuthClientConfig | undefined | string {
	if (raw === undefined) {
		return undefined;
	}

	if (!isPlainRecord(raw) || typeof raw.clientId !== 'string' || raw.clientId.trim() === '') {
		return '"oauth" must be {"clientId": "…"} with an optional "clientSecret" and "callbackPort"';
	}

	const {clientId, clientSecret, callbackPort} = raw;
	if (clientSecret !== undefined && typeof clientSecret !== 'string') {
		return '"oauth.clientSecret" must be a string';
	}

	if (callbackPort !== undefined && (typeof callbackPort !== 'number' || !Number.isSafeInteger(callbackPort) || callbackPort < 1 || callbackPort > 65_535)) {
		return '"oauth.callbackPort" must be a port number (1 to 65535)';
	}

	return {clientId, ...(clientSecret === undefined ? {} : {clientSecret}), ...(callbackPort === undefined ? {} : {callbackPort})};
}

function stringRecord(value: unknown): value is Record<string, string> {
	return isPlainRecord(value) && Object.values(value).every(item => typeof item === 'string');
}

/** Merge files' entries, lowest precedence first: a name defined again is the later file's. */
export function mergeMcpServers(layers: ReadonlyArray<readonly McpServerEntry[]>): McpServerEntry[] {
	const byName = new Map<string, McpServerEntry>();
	for (const entries of layers) {
		for (const entry of entries) {
			byName.delete(entry.name);
			byName.set(entry.name, entry);
		}
	}

	return [...byName.values()];
}

/**
`${VAR}` and `${VAR:-default}` in a spec's command, arguments, environment, URL and headers, from
`env`. A variable that is not set (and has no default) is a problem naming it: a server started
with an empty key fails later and less clearly.
*/
export function expandMcpSpec(spec: McpTransportSpec, env: NodeJS.ProcessEnv): McpTransportSpec | {readonly problem: string} {
	const missing = new Set<string>();
	const expand = (text: string): string => text.replaceAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_whole, name: string, fallback: string | undefined) => {
		const value = env[name];
		if (value !== undefined && value !== '') {
			return value;
		}

		if (fallback !== undefined) {
			return fallback;
		}

		missing.add(name);
		return '';
	});
	const record = (values: Readonly<Record<string, string>>): Record<string, string> => Object.fromEntries(Object.entries(values).map(([key, value]) => [key, expand(value)]));
	const expanded: McpTransportSpec = spec.transport === 'stdio'
		? {transport: 'stdio', command: expand(spec.command), args: spec.args.map(arg => expand(arg)), env: record(spec.env), ...(spec.cwd === undefined ? {} : {cwd: expand(spec.cwd)})}
		: {transport: spec.transport, url: expand(spec.url), headers: record(spec.headers), ...(spec.oauth === undefined ? {} : {oauth: {...spec.oauth, clientId: expand(spec.oauth.clientId), ...(spec.oauth.clientSecret === undefined ? {} : {clientSecret: expand(spec.oauth.clientSecret)})}})};
	if (missing.size > 0) {
		return {problem: `${[...missing].map(name => `\${${name}}`).join(', ')} ${missing.size === 1 ? 'is' : 'are'} not set in the environment`};
	}

	return expanded;
}

/** What a person consents to for a project's server: its name and what it starts (a changed command asks again). */
export function mcpConsentKey(entry: McpServerEntry): string {
	const digest = createHash('sha256').update(JSON.stringify(entry.spec)).digest('hex').slice(0, 16);
	return `mcp-server:${entry.name}#${digest}`;
}

/** A spec in one line for lists and questions: the command line, or the transport and URL. */
export function describeMcpSpec(spec: McpServerEntry['spec']): string {
	if ('problem' in spec) {
		return spec.problem;
	}

	return spec.transport === 'stdio' ? [spec.command, ...spec.args].join(' ') : `${spec.transport} ${spec.url}`;
}
