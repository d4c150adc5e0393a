/**
@module The system prompt: short and honest — who the agent is, where it works, the date and
platform, and the instruction files the host loaded (the user's, the project's `AGENTS.md` or
`CLAUDE.md` from the repository's root down, their imports). The tools are not listed: their
schemas travel with every request and carry their descriptions (listing them again was 2 418 of
the prompt's 2 825 characters, issue 26). `--system-prompt FILE` replaces all of it.
*/
import type {ToolSchema} from '../tools/types.js';

/** The instruction files as the host loaded them (`src/host/instruction-files.ts`): each file's path and text, in order, and what was cut or left out. */
export type PromptInstructions = {
	readonly files: ReadonlyArray<{readonly path: string; readonly text: string}>;
	readonly notes: readonly string[];
};

export type SystemPromptFacts = {
	readonly cwd: string;
	readonly tools: readonly ToolSchema[];
	/** Today, as the person's clock says. */
	readonly now: Date;
	readonly platform: string;
	/** The user's and the project's instruction files (`AGENTS.md`, `CLAUDE.md`, their imports). */
	readonly instructions?: PromptInstructions;
};

/**
What every tool's schema would otherwise repeat, said once (issue 34, "Tokens": the descriptions are
budgeted, test/agent/request-budget.test.ts): how paths resolve, and what a `description` argument is.
*/
const TOOL_CONVENTIONS = 'Paths are relative to it or absolute, and default to it. A `description` argument is 5-10 words on what the call does.';

export function systemPrompt(facts: SystemPromptFacts): string {
	const sections = [
		facts.tools.length === 0
			? 'You are cardterm, an assistant working in a terminal for the person you talk to. You have no tools in this session.'
			: 'You are cardterm, a coding agent in a terminal, working for the person you talk to. You act through the tools you are given; each call is shown to them as a card, some wait for their approval. Read before changing, keep changes small, and say plainly what you did and did not do.',
		`Workspace: ${facts.cwd}${facts.tools.length === 0 ? '' : `\n${TOOL_CONVENTIONS}`}\nDate: ${facts.now.toISOString().slice(0, 10)}. Platform: ${facts.platform}.`,
	];
	const files = (facts.instructions?.files ?? []).filter(file => file.text.trim() !== '');
	if (files.length > 0) {
		const notes = facts.instructions!.notes.length === 0 ? '' : `\n\nNot all of them reached you: ${facts.instructions!.notes.join('; ')}.`;
		sections.push([
			`Instruction files from the person and the project's maintainers, the most general first (where they disagree, the later, more specific file wins):${notes}`,
			...files.map(file => `<instructions file="${file.path}">\n${file.text.trim()}\n</instructions>`),
		].join('\n\n'));
	}

	return sections.join('\n\n');
}
