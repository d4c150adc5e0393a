/**
@module Where cardterm's settings live: the project's `.cardterm/config.json` in the working
directory (or the file `CARDTERM_CONFIG` names instead), the user's config under the XDG config
folder, and the user's own data (what they allowed) under the XDG data folder. `env-paths` gives the
platform's folders where no XDG variable is set.
*/
import {join} from 'node:path';
import envPaths from 'env-paths';

/** The project's config file in `cwd`. */
export function projectConfigPath(cwd: string): string {
	return join(cwd, '.cardterm', 'config.json');
}

/** The project's `.mcp.json` in `cwd`: the MCP servers other agents read too. */
export function projectMcpPath(cwd: string): string {
	return join(cwd, '.mcp.json');
}

/** The user's config file: `$XDG_CONFIG_HOME/cardterm/config.json`, else the platform's config folder. */
export function userConfigPath(env: NodeJS.ProcessEnv): string {
	const xdg = env.XDG_CONFIG_HOME;
	return join(xdg !== undefined && xdg !== '' ? join(xdg, 'cardterm') : envPaths('cardterm', {suffix: ''}).config, 'config.json');
}

/** The user's data folder: `$XDG_DATA_HOME/cardterm`, else the platform's data folder (where sessions are kept too). */
export function userDataFolder(env: NodeJS.ProcessEnv): string {
	const xdg = env.XDG_DATA_HOME;
	return xdg !== undefined && xdg !== '' ? join(xdg, 'cardterm') : envPaths('cardterm', {suffix: ''}).data;
}
