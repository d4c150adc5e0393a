/**
@module `cardterm mcp list|add|remove|login`: the MCP servers a session here would have — from the user's
config, the project's `.mcp.json` and the project's config, merged — and adding or removing one in
the user's config (default) or the project's `.mcp.json` (`--scope project`, the file other agents
read too). `/mcp` in a session shows them live.
*/
import {resolve} from 'node:path';
import {projectMcpPath, userConfigPath} from '../../config/config-paths.js';
import {loadConfig} from '../../config/load-config.js';
import {addMcpServer, removeMcpServer} from '../../config/mcp-config-file.js';
import {mcpServerChoice} from '../../config/mcp-consent.js';
import {describeMcpSpec, expandMcpSpec, readMcpServers} from '../../config/mcp-servers.js';
import {mcpLogin, mcpOAuthFile} from '../../host/mcp-oauth.js';
import {thrownMessage} from '../../tools/errors.js';
import {openBrowser} from '../environment/open-browser.js';
import {withTerminationSignals} from '../environment/termination-signals.js';
import {sanitizeInline} from '../../layout/text/sanitize.js';
import type {CliIo} from '../environment/cli-io.js';
import {parseArgs, stringFlag, UsageError} from '../environment/parse-args.js';
import {printHelp} from '../environment/terminal-text.js';

export const MCP_HELP = `usage: cardterm mcp list [--cwd DIR]
       cardterm mcp add [--scope user|project] [--env NAME=VALUE]… NAME -- COMMAND [ARGS…]
       cardterm mcp add [--scope user|project] [--transport http|sse] [--header "NAME: VALUE"]… NAME URL
       cardterm mcp remove [--scope user|project] NAME
       cardterm mcp login NAME

MCP servers give a session their tools (as mcp__SERVER__TOOL cards). They are read from your config
(${'$'}XDG_CONFIG_HOME/cardterm/config.json), the project's .mcp.json (Claude Code's, Cursor's and Gemini
CLI's file: the same shape) and the project's .cardterm/config.json, later ones first; a project's
servers start only once you allowed them (the session asks; --yolo allows them for one session).
add writes to your config (--scope user, the default) or to the project's .mcp.json; values may
say \${VAR} (expanded from the environment when the server starts). In the file, "allow": true or
["tool", …] lets tools run without asking, "timeoutMs" limits a call, "startupTimeoutMs" the start.
login signs in to an HTTP server that asks for OAuth: the browser opens (or the URL is printed),
and the tokens are kept, readable by you alone, under your data folder; a session refreshes them.`;

const flags = [
	{name: 'cwd', value: true},
	{name: 'scope', value: true},
	{name: 'transport', value: true},
	{name: 'env', value: true, repeat: true},
	{name: 'header', value: true, repeat: true},
	{name: 'help'},
] as const;

export async function mcpCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseArgs(argv, flags, 'mcp');
	const [action, ...rest] = parsed.positionals;
	if (parsed.flags.has('help') || action === undefined) {
		await printHelp(io, MCP_HELP);
		return action === undefined && !parsed.flags.has('help') ? 2 : 0;
	}

	const cwd = resolve(io.cwd, stringFlag(parsed, 'cwd') ?? '.');
	const scope = stringFlag(parsed, 'scope') ?? 'user';
	if (scope !== 'user' && scope !== 'project') {
		throw new UsageError(`mcp: --scope must be user or project (got ${scope})`);
	}

	const [path, mode] = scope === 'user' ? [userConfigPath(io.env), 0o600] : [projectMcpPath(cwd), 0o644];
	switch (action) {
		case 'list': {
			return list(cwd, io);
		}

		case 'add': {
			const [name, ...target] = rest;
			if (name === undefined || target.length === 0) {
				throw new UsageError('mcp add: NAME and a command (NAME -- COMMAND ARGS…) or a URL (NAME URL)');
			}

			const server = serverOf(target, parsed.repeated.get('env') ?? [], parsed.repeated.get('header') ?? [], stringFlag(parsed, 'transport'));
			// The entry is checked as a session would read it: a name or shape it would refuse is refused now.
			const {entries, warnings} = readMcpServers({[name]: server}, path, false);
			const problem = entries[0] === undefined ? warnings[0] : ('problem' in entries[0].spec ? entries[0].spec.problem : undefined);
			if (problem !== undefined) {
				throw new UsageError(`mcp add: ${problem}`);
			}

			const replaced = await addMcpServer(path, name, server, mode);
			await io.print(`${replaced ? 'replaced' : 'added'} MCP server ${name} in ${path}: ${describeMcpSpec(entries[0]!.spec)}\n`);
			return 0;
		}

		case 'remove': {
			const [name] = rest;
			if (name === undefined || rest.length > 1) {
				throw new UsageError('mcp remove: one NAME');
			}

			if (!(await removeMcpServer(path, name, mode))) {
				await io.printError(`cardterm: no MCP server ${name} in ${path}${scope === 'user' ? ' (a project\'s? --scope project)' : ''}\n`);
				return 1;
			}

			await io.print(`removed MCP server ${name} from ${path}\n`);
			return 0;
		}

		case 'login': {
			const [name] = rest;
			if (name === undefined || rest.length > 1) {
				throw new UsageError('mcp login: one NAME');
			}

			return login(name, cwd, io);
		}

		default: {
			throw new UsageError(`mcp: unknown action ${action} (list, add, remove or login)`);
		}
	}
}

async function list(cwd: string, io: CliIo): Promise<number> {
	const config = await loadConfig(cwd, io.env);
	for (const warning of config.warnings) {
		// eslint-disable-next-line no-await-in-loop -- warnings print in order
		await io.printError(`cardterm: ${warning}\n`);
	}

	const servers = config.mcpServers ?? [];
	if (servers.length === 0) {
		await io.print('no MCP servers (cardterm mcp add NAME -- COMMAND ARGS…)\n');
		return 0;
	}

	const {unconsented} = await mcpServerChoice(config, io.env, {yolo: false});
	const waiting = new Set(unconsented.map(entry => entry.name));
	const rows = servers.map(entry => {
		const state = 'problem' in entry.spec ? 'unusable' : (entry.disabled ? 'disabled' : (waiting.has(entry.name) ? 'not allowed yet' : 'ok'));
		return sanitizeInline(`${entry.name}  ${state}  ${describeMcpSpec(entry.spec)}  (${entry.from})`);
	});
	await io.print(`${rows.join('\n')}\n`);
	return 0;
}

/** `mcp login NAME`: the OAuth login of the HTTP server `NAME` of the merged config. */
async function login(name: string, cwd: string, io: CliIo): Promise<number> {
	const config = await loadConfig(cwd, io.env);
	const entry = (config.mcpServers ?? []).find(each => each.name === name);
	if (entry === undefined) {
		throw new UsageError(`mcp login: no MCP server ${name} (cardterm mcp list shows them)`);
	}

	const spec = 'problem' in entry.spec ? entry.spec : expandMcpSpec(entry.spec, io.env);
	if ('problem' in spec) {
		throw new UsageError(`mcp login: ${name}: ${spec.problem}`);
	}

	if (spec.transport === 'stdio') {
		throw new UsageError(`mcp login: ${name} is a program (stdio); OAuth is for servers at a URL`);
	}

	return withTerminationSignals(async signal => {
		try {
			const said = await mcpLogin({name, url: spec.url, file: mcpOAuthFile(io.env, name, spec.url), signal, ...(spec.oauth === undefined ? {} : {client: spec.oauth}), async open(url) {
				await io.printError(`cardterm: log in to MCP server ${sanitizeInline(name)} in your browser; if it did not open, visit:\n  ${sanitizeInline(url.href)}\n`);
				openBrowser(url.href, io.env);
			}});
			await io.print(`${sanitizeInline(said)}\n`);
			return 0;
		} catch (error) {
			await io.printError(`cardterm: mcp login ${sanitizeInline(name)}: ${sanitizeInline(thrownMessage(error))}\n`);
			return 1;
		}
	});
}

/** The config entry `add` writes: a program after `--`, or a server's URL. */
function serverOf(target: readonly string[], env: readonly string[], headers: readonly string[], transport: string | undefined): Record<string, unknown> {
	const [first, ...args] = target;
	// Anything that looks like a URL is one (an ftp:// URL is refused as a URL, not run as a program).
	const isUrl = target.length === 1 && /^[a-z][\w+.-]*:\/\//i.test(first!);
	if (isUrl) {
		if (env.length > 0) {
			throw new UsageError('mcp add: --env is for a program; a server takes --header');
		}

		if (transport !== undefined && transport !== 'http' && transport !== 'sse') {
			throw new UsageError(`mcp add: --transport must be http or sse (got ${transport})`);
		}

		return {type: transport ?? 'http', url: first, ...(headers.length === 0 ? {} : {headers: Object.fromEntries(headers.map(header => pair(header, ':', '--header "NAME: VALUE"')))})};
	}

	if (headers.length > 0 || transport !== undefined) {
		throw new UsageError('mcp add: --header and --transport are for a server\'s URL; a program takes --env');
	}

	return {command: first, args, ...(env.length === 0 ? {} : {env: Object.fromEntries(env.map(each => pair(each, '=', '--env NAME=VALUE')))})};
}

function pair(text: string, separator: string, usage: string): [string, string] {
	const at = text.indexOf(separator);
	if (at <= 0) {
		throw new UsageError(`mcp add: ${usage} (got ${text})`);
	}

	return [text.slice(0, at).trim(), text.slice(at + 1).trim()];
}
