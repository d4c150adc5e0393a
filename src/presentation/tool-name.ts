/**
@module The name a card's header shows for its tool. An ACP agent's calls are recorded under
`acp_<kind>` (src/acp/acp-presenter.ts), a name for the log that no agent or person uses: the header
says the kind in words (`execute`, `read`, `switch mode`), and nothing for `other`, whose title says
what it is. Another agent's calls (`claude-code:Bash`) show the agent's own name. Every other tool is shown by its own name; `--json` keeps the recorded one.
*/

/** The prefix of the tool names ACP calls are recorded under: `acp_` + the call's ACP `kind`. */
export const ACP_TOOL_PREFIX = 'acp_';

/** The foreign session formats cardterm reads (src/session/foreign), by the id their calls are recorded under. */
export type ForeignFormatId = 'claude-code' | 'codex' | 'gemini-cli' | 'pi' | 'opencode';

export const FOREIGN_FORMAT_IDS: ReadonlySet<string> = new Set<ForeignFormatId>(['claude-code', 'codex', 'gemini-cli', 'pi', 'opencode']);

/** Between the format and the agent's tool name in a recorded foreign call: `claude-code:Bash`. */
export const FOREIGN_TOOL_SEPARATOR = ':';

/** The agent's own tool name of a foreign call (`Bash` of `claude-code:Bash`), or `undefined` for any other name. */
export function foreignToolName(name: string): string | undefined {
	const separator = name.indexOf(FOREIGN_TOOL_SEPARATOR);
	return separator > 0 && FOREIGN_FORMAT_IDS.has(name.slice(0, separator)) ? name.slice(separator + 1) : undefined;
}

/** The tool name a card's header shows ('' for an ACP call of kind `other`; the agent's own name of another agent's call). */
export function shownToolName(name: string): string {
	if (!name.startsWith(ACP_TOOL_PREFIX)) {
		return foreignToolName(name) ?? name;
	}

	const kind = name.slice(ACP_TOOL_PREFIX.length);
	return kind === 'other' ? '' : kind.replaceAll('_', ' ');
}
