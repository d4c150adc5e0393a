/**
@module The ACP driver of the live session: a message (or one of the agent's slash commands) is one
`session/prompt`; the first Ctrl+C cancels the turn (`session/cancel`) and a later one kills the
agent's process tree; the status line shows the running turn (Esc to cancel, its time), the agent's
mode and context use, and that it exited;
the agent's announced commands join the session's table. Everything shown comes from the log's fold.
*/
import {meterText} from '../agent/context-ledger.js';
import type {AcpClient} from '../acp/acp-client.js';
import {describeExit} from '../acp/acp-client.js';
import type {AcpCommand} from '../acp/acp-events.js';
import {acpUndo} from '../host/acp-undo.js';
import {attachReferences} from '../host/prompt-references.js';
import {sessionForks} from '../host/session-forks.js';
import type {AcpSession} from '../host/open-acp-session.js';
import type {SessionEvent} from '../session/events/events.js';
import type {TurnProgress} from '../session/fold/turn-progress.js';
import {agentCommand} from './commands/agent-command.js';
import type {PromptCommand} from './commands/prompt-command.js';
import {LiveSession, sessionFeeds, type LiveSessionOptions} from './live-session.js';
import {shortInline} from './queued-lines.js';
import {mcpPromptCommands} from './commands/mcp-prompt.js';
import type {DriverStatus, DriverWork, SessionDriver, SessionMcp} from './session-driver.js';
import type {PromptImage} from '../acp/acp-client.js';
import type {AttachmentStore} from '../session/store/image-attachments.js';
import type {ImageAttachment} from '../tools/content.js';

export type AcpDriverOptions = {
	readonly client: AcpClient;
	/** The workspace `@` references resolve in. */
	readonly cwd: string;
	/** Every event as the log records it (the agent's commands, mode and usage arrive as events). */
	readonly onEvent: (listener: (event: SessionEvent) => void) => () => void;
	/** The agent's mode when the session started. */
	readonly mode?: string;
	/** The open turn's progress as the log tells it (its time, usage, latency): the status line's while a prompt runs. */
	readonly turnProgress?: () => TurnProgress | undefined;
	/** Flush and close the log (after the last turn's end is recorded). */
	readonly closeLog: () => Promise<void>;
	/** The MCP servers cardterm connects for their prompts (the agent runs their tools): `/mcp`, and their prompts as commands. */
	readonly mcp?: SessionMcp;
	/** Where the images attached at the prompt are kept (the session's). */
	readonly attachments?: AttachmentStore;
};

/** What `/help` says under the command table of an ACP agent's session. */
const HELP_NOTES: readonly string[] = [
	'Keys: Tab completes /commands · ↑/↓ history · Ctrl+O pager · Ctrl+L clears the screen',
	'Esc or Ctrl+C cancels the agent\'s turn (again: stops the agent); lines queued after it are held (Enter runs, Ctrl+C drops)',
	'Lines typed while one runs wait above the prompt: Alt+↑ takes the newest back to edit, Alt+↓ drops it',
	'Ctrl+C twice on an empty prompt or Ctrl+D exits · Shift+Enter, Alt+Enter or \\ Enter: a new line',
	'Text that is no command goes to the agent, and so do the agent\'s own commands.',
];

/** An ACP `usage_update`'s context use as the meter shows it (the native agent's too): `42% · 54k/128k`. */
function contextMeter(data: Record<string, unknown>): string | undefined {
	const {used, size} = data;
	return typeof used === 'number' && typeof size === 'number' && size > 0 && used >= 0 ? meterText(used, size) : undefined;
}

/** An ACP `usage_update`'s cost for the status line. */
function usageText(data: Record<string, unknown>): string | undefined {
	const {cost} = data;
	const parts: string[] = [];
	if (typeof cost === 'object' && cost !== null && typeof (cost as {amount?: unknown}).amount === 'number') {
		const {amount, currency} = cost as {amount: number; currency?: unknown};
		parts.push(`${amount.toFixed(2)} ${typeof currency === 'string' ? currency : ''}`.trim());
	}

	return parts.length === 0 ? undefined : parts.join(' · ');
}

export function acpDriver({client, cwd, onEvent, mode: startMode, turnProgress, closeLog, mcp, attachments}: AcpDriverOptions): SessionDriver {
	const listeners = new Set<() => void>();
	const changed = (): void => {
		for (const listener of listeners) {
			listener();
		}
	};

	let commands: readonly PromptCommand[] = [];
	/** A prompt is with the agent: its turn's progress shows in the status line (Esc to cancel, how long). */
	let prompting = false;
	let mode = startMode;
	let usage: string | undefined;
	let meter: string | undefined;
	/** The agent is gone: said in the status line; messages are refused from now on. */
	let exited: string | undefined;
	void client.exited.then(exit => {
		exited = describeExit(exit);
		changed();
	});
	onEvent(event => {
		const data = event.data as Record<string, unknown>;
		switch (event.type) {
			case 'acp/commands': {
				commands = (Array.isArray(data.commands) ? data.commands as AcpCommand[] : []).map(command => agentCommand(command));
				break;
			}

			case 'acp/mode': {
				if (typeof data.modeId === 'string') {
					mode = data.modeId;
					changed();
				}

				break;
			}

			case 'acp/usage': {
				usage = usageText(data);
				meter = contextMeter(data);
				changed();
				break;
			}

			default: {
				break;
			}
		}
	});
	return {
		placeholder: 'message the agent (Tab completes its /commands; Ctrl+C cancels a turn)',
		...(attachments === undefined ? {} : {attachments}),
		helpNotes: HELP_NOTES,
		// The agent takes any text, its own commands and ones it did not announce alike.
		line: line => ({work: {kind: 'prompt', text: line}}),
		async run(work: DriverWork, signal: AbortSignal) {
			if (work.kind !== 'prompt') {
				throw new Error(`not sent: ${work.name} — an ACP agent's session has no tools of its own to call`);
			}

			if (exited !== undefined) {
				throw new Error(`not sent: ${shortInline(work.text)} — ${exited}`);
			}

			const cancel = (): void => {
				client.cancel();
			};

			signal.addEventListener('abort', cancel, {once: true});
			prompting = true;
			try {
				await client.prompt(await attachReferences(work.text, {cwd, signal}), promptImages(work.images ?? [], attachments));
			} finally {
				prompting = false;
				signal.removeEventListener('abort', cancel);
			}
		},
		interrupt(press, say) {
			if (press === 1) {
				say('cancelling… (Ctrl+C again stops the agent)');
				return;
			}

			say('stopping the agent and every process it started');
			void client.kill();
		},
		turn: () => prompting ? turnProgress?.() : undefined,
		status(): DriverStatus {
			return {...(mode === undefined ? {} : {mode}), ...(usage === undefined ? {} : {agent: usage}), ...(meter === undefined ? {} : {context: meter}), ...(exited === undefined ? {} : {problem: exited})};
		},
		onChange(listener) {
			listeners.add(listener);
			const stopMcp = mcp?.onChange(listener);
			return () => {
				listeners.delete(listener);
				stopMcp?.();
			};
		},
		...(mcp === undefined ? {} : {mcp}),
		// The agent's own commands first: one that runs the same server's prompt keeps its name.
		commands: () => mcp === undefined ? commands : withoutTaken(commands, mcpPromptCommands(mcp)),
		// Shift+Tab and /mode cycle the modes the agent announced (`session/set_mode`).
		...(startMode === undefined ? {} : {modes: {
			available: () => client.facts.modes?.available.map(id => ({id, label: id})) ?? [],
			current: () => mode,
			async set(id, by) {
				await client.setMode(id, by);
				return undefined;
			},
		}}),
		// The agent goes first, so a turn it never ends is ended (and recorded) before the log closes.
		stop: async () => client.close(),
		close: closeLog,
	};
}

/** The live session over an ACP agent's opened session, as `cardterm acp` runs it (`extra`: other commands, the shadow repository for `/undo`). */
export function acpLiveSession({session, client}: Pick<AcpSession, 'session' | 'client'>, cwd: string, extra: Pick<LiveSessionOptions, 'commands'> & {readonly shadowDir?: string} = {}): LiveSession {
	const {shadowDir, ...options} = extra;
	// The agent keeps its conversation: /rewind takes files back, and /fork is not offered.
	const forks = sessionForks(session, {conversation: false});
	return new LiveSession({
		...options,
		cwd,
		...sessionFeeds(session),
		undo: acpUndo(session, client, cwd, shadowDir),
		...(forks === undefined ? {} : {forks}),
		driver: acpDriver({
			client,
			cwd,
			onEvent: listener => session.log.listen(listener),
			...(client.facts.modes === undefined ? {} : {mode: client.facts.modes.current}),
			turnProgress: () => session.fold.turnProgress,
			closeLog: async () => session.close(),
			...(session.mcp === undefined ? {} : {mcp: session.mcp}),
			attachments: session.attachments,
		}),
	});
}

/** `first`, then the commands of `then` whose names `first` does not have. */
function withoutTaken(first: readonly PromptCommand[], then: readonly PromptCommand[]): readonly PromptCommand[] {
	if (then.length === 0) {
		return first;
	}

	const taken = new Set(first.map(command => command.name));
	return [...first, ...then.filter(command => !taken.has(command.name))];
}

/** The images of a prompt with their bytes, read back from the session's attachments; one whose file is gone is a clear error, not a silent drop. */
function promptImages(images: readonly ImageAttachment[], attachments: AttachmentStore | undefined): PromptImage[] {
	return images.map(attachment => {
		const data = attachments?.bytes(attachment);
		if (data === undefined) {
			throw new Error(`not sent: the image ${attachment.name ?? attachment.attachmentId} is gone from the session's folder`);
		}

		return {attachment, data};
	});
}
