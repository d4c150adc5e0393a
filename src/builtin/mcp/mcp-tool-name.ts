/**
@module The name an MCP server's tool has in the registry and for the model: `mcp__SERVER__TOOL`
(Claude Code's form, so a person's allow lists read the same), sanitised to what every provider
accepts (`[A-Za-z0-9_-]`, at most 64 characters). A name that had to change, or that would collide
with another, keeps a short hash of the original so two tools never share one name.
*/
import {createHash} from 'node:crypto';

/** The prefix of every MCP tool's name; the presenter of `mcp__` calls keys on it. */
export const MCP_TOOL_PREFIX = 'mcp__';
const MAX_NAME = 64;

/** The registry name of `server`'s tool `tool`. */
export function mcpToolName(server: string, tool: string): string {
	const plain = `${MCP_TOOL_PREFIX}${server}__${tool}`;
	const safe = plain.replaceAll(/[^\w-]/g, '_');
	if (safe === plain && safe.length <= MAX_NAME) {
		return safe;
	}

	const hash = createHash('sha256').update(plain).digest('hex').slice(0, 8);
	return `${safe.slice(0, MAX_NAME - hash.length - 1)}_${hash}`;
}

/** A distinct name for the tool whose sanitised name is already taken (two originals that sanitise alike). */
export function distinctMcpToolName(name: string, server: string, tool: string): string {
	const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
	return `${name.slice(0, MAX_NAME - hash.length - 1)}_${hash}`;
}

/** Server and tool of a name built here, as well as it can be read back (the card's meta says it exactly). */
export function splitMcpToolName(name: string): {readonly server: string; readonly tool: string} | undefined {
	if (!name.startsWith(MCP_TOOL_PREFIX)) {
		return undefined;
	}

	const rest = name.slice(MCP_TOOL_PREFIX.length);
	const at = rest.indexOf('__');
	return at <= 0 ? undefined : {server: rest.slice(0, at), tool: rest.slice(at + 2)};
}
