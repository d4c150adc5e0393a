/**
@module The name a card's header shows for its tool. An ACP agent's calls are recorded under
`acp_<kind>` (src/acp/acp-presenter.ts), a name for the log that no agent or person uses: the header
says the kind in words (`execute`, `read`, `switch mode`), and nothing for `other`, whose title says
what it is. Every other tool is shown by its own name; `--json` keeps the recorded one.
*/

/** The prefix of the tool names ACP calls are recorded under: `acp_` + the call's ACP `kind`. */
export const ACP_TOOL_PREFIX = 'acp_';

/** The tool name a card's header shows ('' for an ACP call of kind `other`). */
export function shownToolName(name: string): string {
	if (!name.startsWith(ACP_TOOL_PREFIX)) {
		return name;
	}

	const kind = name.slice(ACP_TOOL_PREFIX.length);
	return kind === 'other' ? '' : kind.replaceAll('_', ' ');
}
