/**
@module The person's MCP servers as an ACP agent takes them in `session/new` and `session/load`:
`${VAR}` expanded, the environment and headers as name/value lists, and a program's command as an
absolute path (the protocol asks for one; a bare name is looked up on PATH as a shell would). An
entry that cannot be used is not passed, and said why.
*/
import {constants} from 'node:fs';
import {access} from 'node:fs/promises';
import {delimiter, isAbsolute, join, resolve} from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import {expandMcpSpec, type McpServerEntry} from '../config/mcp-servers.js';

export async function acpMcpServers(entries: readonly McpServerEntry[], env: NodeJS.ProcessEnv, cwd: string): Promise<{readonly servers: acp.McpServer[]; readonly problems: string[]}> {
	const servers: acp.McpServer[] = [];
	const problems: string[] = [];
	for (const entry of entries) {
		const spec = 'problem' in entry.spec ? entry.spec : expandMcpSpec(entry.spec, env);
		if ('problem' in spec) {
			problems.push(`${entry.name}: ${spec.problem}`);
			continue;
		}

		if (spec.transport === 'stdio') {
			// eslint-disable-next-line no-await-in-loop -- a few servers; PATH lookups in order
			const command = await absoluteCommand(spec.command, env, spec.cwd === undefined ? cwd : resolve(cwd, spec.cwd));
			servers.push({name: entry.name, command, args: [...spec.args], env: Object.entries(spec.env).map(([name, value]) => ({name, value}))});
		} else {
			servers.push({type: spec.transport, name: entry.name, url: spec.url, headers: Object.entries(spec.headers).map(([name, value]) => ({name, value}))});
		}
	}

	return {servers, problems};
}

async function absoluteCommand(command: string, env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
	if (isAbsolute(command)) {
		return command;
	}

	if (command.includes('/')) {
		return resolve(cwd, command);
	}

	for (const folder of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
		const candidate = join(folder, command);
		// eslint-disable-next-line no-await-in-loop -- the first hit on PATH wins, as in a shell
		if (await access(candidate, constants.X_OK).then(() => true, () => false)) {
			return candidate;
		}
	}

	// Not on PATH here: the agent may still find it; its error names it.
	return command;
}
