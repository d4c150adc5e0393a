/**
@module The system prompt: short and honest — who the agent is, where it works, the date and
platform, and the project's `AGENTS.md` when there is one. The tools are not listed: their
schemas travel with every request and carry their descriptions (listing them again was 2 418 of
the prompt's 2 825 characters, issue 26). `--system-prompt FILE` replaces all of it.
*/
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {ToolSchema} from '../tools/types.js';

/** Most of an `AGENTS.md` that goes into the prompt; a longer file is cut with a note. */
const AGENTS_FILE_LIMIT = 64 * 1024;

export type SystemPromptFacts = {
	readonly cwd: string;
	readonly tools: readonly ToolSchema[];
	/** Today, as the person's clock says. */
	readonly now: Date;
	readonly platform: string;
	/** The project's `AGENTS.md` text, when present. */
	readonly agentsFile?: string;
};

export function systemPrompt(facts: SystemPromptFacts): string {
	const sections = [
		facts.tools.length === 0
			? 'You are cardterm, an assistant working in a terminal for the person you talk to. You have no tools in this session.'
			: 'You are cardterm, a coding agent working in a terminal for the person you talk to. You act through the tools you are given; every call you make is shown to the person as a card, and some calls wait for their approval. Prefer reading before changing, keep changes small, and say plainly what you did and what you did not do.',
		`Workspace: ${facts.cwd} (relative paths are resolved here).\nDate: ${facts.now.toISOString().slice(0, 10)}. Platform: ${facts.platform}.`,
	];
	if (facts.agentsFile !== undefined && facts.agentsFile.trim() !== '') {
		const text = facts.agentsFile.length > AGENTS_FILE_LIMIT ? `${facts.agentsFile.slice(0, AGENTS_FILE_LIMIT)}\n[AGENTS.md cut at ${AGENTS_FILE_LIMIT} characters]` : facts.agentsFile;
		sections.push(`The project's AGENTS.md (instructions from its maintainers):\n\n${text.trim()}`);
	}

	return sections.join('\n\n');
}

/** The project's `AGENTS.md` in `cwd`, or `undefined` when it has none (or it cannot be read). */
export async function readAgentsFile(cwd: string): Promise<string | undefined> {
	try {
		return await readFile(join(cwd, 'AGENTS.md'), 'utf8');
	} catch {
		return undefined;
	}
}
