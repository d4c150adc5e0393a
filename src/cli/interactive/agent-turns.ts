/**
@module The interactive session's thin adapter to the agent: which prompt lines go to the model
(anything that is not a `/command`, a `!shell` line or `TOOL {json}`), what the status line and
`/model` say about the model, and running one turn.
*/
import type {AgentLoop} from '../../agent/agent-loop.js';
import {modelLabel} from '../agent-setup.js';

export type AgentTurns = {
	/** `provider:model`, or undefined when no model is connected. */
	readonly model: string | undefined;
	/** What the status line says: the model's name, or how to connect one. */
	readonly status: string;
	/** What `/model` prints. */
	describe(): string;
	/** Run one turn; resolves when the turn has ended (its end is in the log). */
	run(prompt: string, signal: AbortSignal): Promise<void>;
};

/** Turns with a connected model. */
export function modelTurns(loop: AgentLoop, from: string): AgentTurns {
	const label = modelLabel(loop.model);
	return {
		model: label,
		status: label,
		describe: () => `model: ${label} (from ${from}); start cardterm with --model PROVIDER:MODEL to use another`,
		async run(prompt, signal) {
			await loop.runTurn(prompt, {signal});
		},
	};
}

/** No model: the prompt stays in command mode, and says how to connect one. */
export function noModelTurns(why: string, status = 'no model (see /model)'): AgentTurns {
	return {
		model: undefined,
		status,
		describe: () => why,
		async run() {
			throw new Error(why);
		},
	};
}

/**
The model's prompt for `line`, or undefined when the line is a command: `/…`, `!…`, or a tool
name followed by nothing or by JSON (`read {"file_path":"a"}`). "read the README" is a prompt.
*/
export function modelPrompt(line: string, toolNames: ReadonlySet<string>): string | undefined {
	const text = line.trim();
	if (text === '' || text.startsWith('/') || text.startsWith('!')) {
		return undefined;
	}

	const match = /^([A-Za-z_$][\w$.-]*)(?:\s+([\s\S]*))?$/.exec(text);
	if (match !== null && toolNames.has(match[1]!)) {
		const rest = (match[2] ?? '').trim();
		if (rest === '' || rest.startsWith('{')) {
			return undefined;
		}
	}

	return line;
}
