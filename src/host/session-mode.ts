/**
@module The permission mode of a native session, cycled with Shift+Tab (or `/mode NAME`, `--mode`):
- `ask`: the agent's writes and commands ask first (the default);
- `edits`: writes and edits inside the workspace run without asking; outside it, into `.git/` or
  `.cardterm/`, and every command still ask;
- `plan`: only the tools that change nothing run (`READ_ONLY_TOOLS`); any other call is refused with
  a result that tells the model to propose the change instead, and the model is told it is planning;
- `bypass`: nothing the agent does asks (`--yolo`); the config's own rules still ask.

The mode decides which of the agent's approval rules apply (`agentAskRules`) and, in plan mode,
refuses before any rule asks (`planRefusal`). A change is recorded as a `permission/preset` event
(replay shows when it changed) and told to the model with the next prompt (`tell`).
*/
import type {AskRule} from '../config/approval-rules.js';
import {SESSION_MODES, type SessionModeName} from '../config/config-schema.js';
import type {PreExecuteListener} from '../tools/registry-hooks.js';
import type {Agent} from '../tools/types.js';
import {assertNever} from '../presentation/assert-never.js';
import {READ_ONLY_TOOLS} from './change-history.js';

export {SESSION_MODES, type SessionModeName} from '../config/config-schema.js';

/** A mode as the status line and notices name it. */
export function modeLabel(mode: SessionModeName): string {
	switch (mode) {
		case 'ask': {
			return 'ask';
		}

		case 'edits': {
			return 'accept edits';
		}

		case 'plan': {
			return 'plan';
		}

		case 'bypass': {
			return 'bypass';
		}

		default: {
			return assertNever(mode, 'modeLabel');
		}
	}
}

/** The mode `text` names (its name, or its label: `accept edits`), or undefined. */
export function parseMode(text: string): SessionModeName | undefined {
	const wanted = text.trim().toLowerCase();
	return SESSION_MODES.find(mode => mode === wanted || modeLabel(mode) === wanted || (mode === 'edits' && wanted === 'accept-edits') || (mode === 'bypass' && wanted === 'yolo'));
}

/** The mode after `mode` in Shift+Tab's cycle. */
export function nextMode(mode: SessionModeName): SessionModeName {
	return SESSION_MODES[(SESSION_MODES.indexOf(mode) + 1) % SESSION_MODES.length]!;
}

const AGENT = 'the agent session (--yolo skips this)';

/** What the agent's calls ask in every mode that asks: a write into `.git/` (hooks run code) or `.cardterm/` (the project's config), every time. */
const GUARDED_FOLDERS: readonly AskRule[] = [
	{tool: ['write', 'edit'], inside: '.git/', everyTime: true, by: 'cardterm'},
	{tool: ['write', 'edit'], inside: '.cardterm/', everyTime: true, by: 'cardterm'},
];

/**
The approval rules the agent's calls ask by in `mode`. `run_code` asks as a whole, and its
sub-calls as calls (a program may compute any path); reads, searches, fetches and todo lists never ask.
*/
export function agentAskRules(mode: SessionModeName): readonly AskRule[] {
	switch (mode) {
		case 'ask':
		case 'plan': {
			return [{tool: ['write', 'edit', 'bash', 'run_code', 'job_kill'], by: AGENT}, ...GUARDED_FOLDERS];
		}

		case 'edits': {
			return [{tool: ['bash', 'run_code', 'job_kill'], by: AGENT}, {tool: ['write', 'edit'], outside: '.', by: 'accept-edits mode'}, ...GUARDED_FOLDERS];
		}

		case 'bypass': {
			return [];
		}

		default: {
			return assertNever(mode, 'agentAskRules');
		}
	}
}

/** What the model is told when it works in `mode` (with the first prompt after a change). */
export function modeNote(mode: SessionModeName): string {
	switch (mode) {
		case 'ask': {
			return 'The person switched to ask mode: you may change files and run commands again; each write and command asks the person first.';
		}

		case 'edits': {
			return 'The person switched to accept-edits mode: writes and edits inside the workspace run without asking; commands and writes elsewhere still ask the person.';
		}

		case 'plan': {
			return 'Plan mode is on: the person wants a plan, not changes. Only read-only tools run (read, grep, glob, web fetches and searches, todo lists); any write, edit or command is refused. Investigate, then propose the change step by step and wait for the person to leave plan mode.';
		}

		case 'bypass': {
			return 'The person switched to bypass mode: your calls run without asking. Be careful with anything that cannot be undone.';
		}

		default: {
			return assertNever(mode, 'modeNote');
		}
	}
}

/** Who changed the mode, for the log. */
export type ModeChangeBy = 'key' | 'command' | 'flag';

/** A native session's mode: the current one, who hears a change, and what the model has not been told yet. */
export class SessionMode {
	#current: SessionModeName;
	/** The mode the model was last told of. */
	#told: SessionModeName;
	readonly #listeners = new Set<(mode: SessionModeName, by: ModeChangeBy) => void>();

	/** Whether commands confined in this session's modes may still reach the network (the user config's `sandbox.network`). */
	readonly commandNetwork: boolean;

	constructor(initial: SessionModeName = 'ask', options: {readonly commandNetwork?: boolean} = {}) {
		this.#current = initial;
		this.commandNetwork = options.commandNetwork === true;
		// A session that starts planning says so with its first prompt; one that starts asking less (--yolo) needs no note.
		this.#told = initial === 'plan' ? 'ask' : initial;
	}

	get current(): SessionModeName {
		return this.#current;
	}

	/** Switch to `mode` (nothing happens when it is the current one); listeners record and show it. */
	set(mode: SessionModeName, by: ModeChangeBy): void {
		if (mode === this.#current) {
			return;
		}

		this.#current = mode;
		for (const listener of this.#listeners) {
			listener(mode, by);
		}
	}

	/** Hear each change. */
	onChange(listener: (mode: SessionModeName, by: ModeChangeBy) => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	/**
	Before a prompt: when the mode changed since the model was last told (several changes between
	prompts: the last), its note goes to the agent's inbox, written into the conversation with the next step.
	*/
	tell(agent: Pick<Agent, 'inject'>): void {
		if (this.#told === this.#current) {
			return;
		}

		this.#told = this.#current;
		agent.inject?.({content: [{type: 'text', text: modeNote(this.#current)}], source: {kind: 'note', name: 'cardterm mode'}});
	}
}

/** The result a call gets in plan mode: what the model reads, and the card shows. */
export function planRefusalReason(tool: string): string {
	return `plan mode: ${tool} was not run; only read-only tools run while the person plans. Propose the change instead (the person leaves plan mode with Shift+Tab or /mode)`;
}

/**
A `tools/pre-execute` listener that refuses, in plan mode, every call of a tool that may change
something, before any rule asks; a Code Mode sub-call is judged as a call.
*/
export function planRefusal(mode: SessionMode): PreExecuteListener {
	return async (exec, next) => mode.current === 'plan' && !READ_ONLY_TOOLS.has(exec.name) ? {kind: 'deny', reason: planRefusalReason(exec.name)} : next();
}
