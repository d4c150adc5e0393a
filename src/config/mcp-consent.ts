/**
@module Which MCP servers a session may start. A project's file (`.mcp.json`, the project's
`.cardterm/config.json`) must not start programs or reach servers on its own: its servers need the
person's consent, once per project and per server as it is defined (a changed command asks again),
by the rule and in the file the model servers' consent uses (`endpoint-consent.ts`). `--yolo` counts
as consent for this session (not remembered). The user's own servers need none.
*/
import type {CardtermConfig} from './load-config.js';
import {projectConsented, rememberProjectConsent} from './endpoint-consent.js';
import {mcpConsentKey, type McpServerEntry} from './mcp-servers.js';

/** The servers a session starts, and a project's servers still waiting for the person's consent. */
export type McpServerChoice = {readonly start: readonly McpServerEntry[]; readonly unconsented: readonly McpServerEntry[]};

/** Split the configured servers (disabled ones left out) into those that may start and those that need consent. */
export async function mcpServerChoice(config: CardtermConfig, env: NodeJS.ProcessEnv, options: {readonly yolo: boolean}): Promise<McpServerChoice> {
	const start: McpServerEntry[] = [];
	const unconsented: McpServerEntry[] = [];
	for (const entry of config.mcpServers ?? []) {
		if (entry.disabled) {
			continue;
		}

		// A project's entry cardterm cannot use starts nothing: it is listed as failed, no consent needed.
		// eslint-disable-next-line no-await-in-loop -- a project names a few servers; the consent file is small
		const allowed = !entry.byProject || options.yolo || 'problem' in entry.spec || (await projectConsented(mcpConsentKey(entry), config, env));
		(allowed ? start : unconsented).push(entry);
	}

	return {start, unconsented};
}

/** Remember the person's consent to these project servers; returns the file it is kept in. */
export async function allowMcpServers(entries: readonly McpServerEntry[], config: CardtermConfig, env: NodeJS.ProcessEnv): Promise<string> {
	return rememberProjectConsent(entries.map(entry => mcpConsentKey(entry)), config, env);
}
