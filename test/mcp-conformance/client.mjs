#!/usr/bin/env node
// The client @modelcontextprotocol/conformance drives (`conformance client --command "node client.mjs"`):
// cardterm's own MCP client, from the built dist/ (`npm test` builds it), connects to the scenario's
// server — the URL is the last argument, the scenario's name is MCP_CONFORMANCE_SCENARIO — and does
// what a session does: the McpHost connects over streamable HTTP, lists the tools and registers them,
// and each tool is called through the ToolRegistry as a model's call would be. An auth scenario first
// logs in as `cardterm mcp login` does (mcpLogin, the browser step done by fetching the authorization
// URL and following its redirect to the loopback callback), then connects with the tokens it saved;
// a client the scenario registered beforehand (MCP_CONFORMANCE_CONTEXT) is the entry's "oauth".
// Exit code 0 when every tool call succeeded; otherwise 1 with what failed on stderr.
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {readMcpServers} from '../../dist/src/config/mcp-servers.js';
import {McpHost} from '../../dist/src/host/mcp-host.js';
import {mcpLogin, mcpOAuthFile} from '../../dist/src/host/mcp-oauth.js';
import {ToolRegistry} from '../../dist/src/tools/registry.js';
import {browse} from '../host/fixtures/fake-oauth-mcp-server.mjs';

const SERVER = 'conformance';
const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';

/** A call's arguments: the scenario's tools take numbers (`add_numbers`) or nothing. */
function argumentsFor(tool) {
	const properties = Object.entries(tool.parameters?.properties ?? {});
	return Object.fromEntries(properties.map(([name, schema], index) => [name, schema?.type === 'number' || schema?.type === 'integer' ? index + 2 : 'conformance']));
}

/** The server's config entry; a client the scenario registered beforehand goes in its `"oauth"`, as a person's would. */
function configEntry() {
	const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
	const oauth = typeof context.client_id === 'string' ? {clientId: context.client_id, ...(typeof context.client_secret === 'string' ? {clientSecret: context.client_secret} : {})} : undefined;
	const {entries, warnings} = readMcpServers({[SERVER]: {url, allow: true, ...(oauth === undefined ? {} : {oauth})}}, 'conformance', false);
	if (warnings.length > 0 || 'problem' in entries[0].spec) {
		throw new Error([...warnings, entries[0].spec.problem].filter(Boolean).join('; '));
	}

	return entries;
}

async function run(data) {
	// The OAuth state goes to a folder of this run's own, never the person's data folder.
	const env = {...process.env, XDG_DATA_HOME: data};
	const entries = configEntry();
	const {oauth} = entries[0].spec;
	const login = async () => {
		const said = await mcpLogin({name: SERVER, url, file: mcpOAuthFile(env, SERVER, url), ...(oauth === undefined ? {} : {client: oauth}), open: async authorization => {
			await browse(authorization.href);
		}, timeoutMs: 20_000});
		console.log(said);
	};

	if (scenario.startsWith('auth/')) {
		await login();
	}

	const registry = new ToolRegistry();
	const host = new McpHost({registry, servers: entries, cwd: data, env, commandEnv: env, saveDir: data, ask: false, clientVersion: '0.1.0'});
	host.start();
	await host.settled();
	try {
		const [status] = host.status();
		console.log(`${status.name}: ${status.state}, ${status.tools} tools${status.reason === undefined ? '' : ` (${status.reason})`}`);
		if (status.state !== 'ready') {
			throw new Error(`the server is ${status.state}: ${status.reason ?? ''}`);
		}

		const failed = [];
		for (const {name} of registry.schemas().filter(schema => schema.name.startsWith(`mcp__${SERVER}__`))) {
			const args = argumentsFor(registry.get(name));
			const call = async () => registry.execute({callId: name, name, arguments: args, signal: AbortSignal.timeout(20_000)});
			let result = await call();
			if (result.isError && result.error.message.includes('asks for a login') && scenario.startsWith('auth/')) {
				// What the person does when a call needs more (a step-up scope): `cardterm mcp login`, then `/mcp reconnect`.
				console.log(`${name}: ${result.error.message}; logging in again`);
				await login();
				console.log(await host.reconnect(SERVER));
				result = await call();
			}

			console.log(`${name} ${JSON.stringify(args)}: ${result.isError ? `failed: ${result.error.message}` : 'ok'} ${JSON.stringify(result.content).slice(0, 300)}`);
			if (result.isError) {
				failed.push(name);
			}
		}

		if (failed.length > 0) {
			throw new Error(`failed calls: ${failed.join(', ')}`);
		}
	} finally {
		await host.close();
	}
}

const data = await mkdtemp(join(tmpdir(), 'cardterm-conformance-'));
try {
	await run(data);
} catch (error) {
	console.error(`cardterm conformance client (${scenario}): ${error instanceof Error ? error.message : String(error)}`);
	process.exitCode = 1;
} finally {
	await rm(data, {recursive: true, force: true});
}
