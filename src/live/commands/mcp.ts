/**
@module `/mcp [reconnect NAME]`: the session's MCP servers, each with its state (connecting, ready
with N tools and M prompts, failed with the reason, waiting for the person's consent), the tools it lists that
were skipped and why, and the requests of its that cardterm refused, its newest log messages; `reconnect NAME` connects one
again (its tools are replaced).
*/
import type {McpServerStatus} from '../../host/mcp-host.js';
import {assertNever} from '../../presentation/assert-never.js';
import {splitWords, type PromptCommand} from './prompt-command.js';

const USAGE = 'usage: /mcp [reconnect NAME]';

export const mcpCommand: PromptCommand = {
	name: '/mcp',
	args: '[reconnect NAME]',
	help: 'the MCP servers and their state; reconnect one',
	available: session => session.mcp !== undefined,
	async complete(word, first, session) {
		if (first) {
			return 'reconnect'.startsWith(word) ? ['reconnect'] : [];
		}

		return (session.mcp?.status() ?? []).map(server => server.name).filter(name => name.startsWith(word));
	},
	async run(text, context) {
		const mcp = context.mcp!;
		const words = splitWords(text);
		if (words.length === 0) {
			const search = context.model?.toolSearch?.();
			context.say(`${describeServers(mcp.status())}${search === undefined ? '' : `\n${search}`}`, 'info');
			return;
		}

		if (words[0] !== 'reconnect' || words.length !== 2) {
			context.say(USAGE, 'error');
			return;
		}

		context.say(`MCP server "${words[1]!}": connecting…`, 'info');
		const said = await mcp.reconnect(words[1]!);
		context.say(said, said.includes(' reconnected: ') ? 'info' : 'error');
	},
};

/** The servers as `/mcp` lists them. */
export function describeServers(servers: readonly McpServerStatus[]): string {
	if (servers.length === 0) {
		return 'no MCP servers (add one: cardterm mcp add NAME -- COMMAND ARGS…, or "mcpServers" in a config or .mcp.json)';
	}

	const lines = [`MCP servers (${servers.length}):`];
	for (const server of servers) {
		lines.push(`  ${server.name} · ${stateText(server)} · ${server.target}`, `    from ${server.from}${server.server === undefined ? '' : ` · ${server.server}`}`);
		for (const skipped of server.skipped) {
			lines.push(`    skipped ${skipped}`);
		}

		for (const refused of server.refused) {
			lines.push(`    ${refused}`);
		}

		for (const log of server.logs) {
			lines.push(`    log ${log}`);
		}
	}

	lines.push('/mcp reconnect NAME connects one again');
	return lines.join('\n');
}

function stateText(server: McpServerStatus): string {
	switch (server.state) {
		case 'ready': {
			// A server connected for its prompts alone (an ACP agent runs its tools) says why it has none.
			const counts = [
				...(server.tools === 0 && server.reason !== undefined ? [] : [`${server.tools} ${server.tools === 1 ? 'tool' : 'tools'}`]),
				...(server.prompts === 0 ? [] : [`${server.prompts} ${server.prompts === 1 ? 'prompt' : 'prompts'}`]),
			];
			return `ready${counts.length === 0 ? '' : `, ${counts.join(', ')}`}${server.reason === undefined ? '' : ` (${server.reason})`}`;
		}

		case 'failed':
		case 'needs consent':
		case 'needs login': {
			return `${server.state}: ${server.reason ?? 'no reason given'}`;
		}

		case 'connecting':
		case 'closed': {
			return server.state;
		}

		default: {
			return assertNever(server.state, '/mcp state');
		}
	}
}
