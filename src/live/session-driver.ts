/**
@module What differs between a native session and an ACP agent's, as the live session core sees it:
who runs a piece of work (the agent loop or the session's tools; an ACP agent), how a second Ctrl+C
forces a stop, what the status line adds, what text that is no command becomes, and the commands the
driver announces. Everything else — the queue, approvals, the scrollback, pagers, history — is the
core's (`live-session.ts`), once for both.
*/
import type {LiveSnapshot} from '../../components/session-model.js';
import type {AgentTurns} from '../host/agent-turns.js';
import type {McpHost} from '../host/mcp-host.js';
import type {TurnProgress} from '../session/fold/turn-progress.js';
import type {AttachmentStore} from '../session/store/image-attachments.js';
import type {ImageAttachment} from '../tools/content.js';
import type {ToolSchema} from '../tools/types.js';
import type {PromptCommand} from './commands/prompt-command.js';

/** A call of one of the session's tools, as the prompt asks for it (`!ls`, `/read a.txt`, `read {…}`). */
type ToolRequest = {readonly kind: 'tool'; readonly name: string; readonly args: unknown; readonly rawArgs?: string};

/** What a driver runs: a message for the model or agent (with the images attached to it), or a call of the session's own tools. */
export type DriverWork = {readonly kind: 'prompt'; readonly text: string; readonly images?: readonly ImageAttachment[]} | ToolRequest;

/** What a command's own work may have the driver do in its turn: run a piece of driver work, a shell command. */
export type TaskDriver = {
	run(work: DriverWork): Promise<void>;
	/** The driver's `shell`, when it has one. */
	readonly shell?: (command: string, label: string) => Promise<ShellOutcome>;
};

/** A shell command a command file runs: its output (a non-zero exit is output too), or why it did not run. */
export type ShellOutcome = {readonly output: string} | {readonly refused: string};

/** Work a command runs itself, in its turn in the queue (`/undo` waits for the running turn to end): its label and its body. */
type SessionTask = {readonly kind: 'task'; readonly label: string; readonly run: (signal: AbortSignal, driver: TaskDriver) => Promise<void>};

/** A piece of work in the queue: the driver's, or a command's own. */
export type LiveWork = DriverWork | SessionTask;

/** The session's own tools, for the commands that call them and the help that lists them. */
export type SessionTools = {
	/** Names of the registered tools. */
	names(): ReadonlySet<string>;
	/** A tool's name, description and parameter schema. */
	schema(name: string): ToolSchema | undefined;
};

/** What a line no command took becomes: work to queue, or what to say instead. */
export type LineOutcome = {readonly work: LiveWork} | {readonly say: string};

/** The session's MCP servers as commands, the status line and the `@` picker see them (their prompts are commands, their resources references). */
export type SessionMcp = Pick<McpHost, 'status' | 'reconnect' | 'onChange' | 'prompts' | 'getPrompt' | 'resources'>;

/** What the driver adds to the status line. */
export type DriverStatus = Pick<LiveSnapshot, 'model' | 'modelConnected' | 'agent' | 'problem' | 'context' | 'mode' | 'confinement'> & {readonly jobsRunning?: number};

/**
The session's modes as Shift+Tab and `/mode` change them: cardterm's own in a native session
(`src/host/session-mode.ts`), the agent's announced ones in an ACP session.
*/
export type DriverModes = {
	/** The modes in Shift+Tab's order: each one's id (what `/mode` takes) and what the status line calls it. */
	available(): ReadonlyArray<{readonly id: string; readonly label: string}>;
	/** The current mode's id. */
	current(): string | undefined;
	/** Switch to `id` (`by`: the key or the command); resolves with what to say, or undefined when it switched quietly. */
	set(id: string, by: 'key' | 'command'): Promise<string | undefined>;
};

export type SessionDriver = {
	/** The session's own tools, when the prompt may call them (a native session). */
	readonly tools?: SessionTools;
	/** The model the prompt talks to, when `/model` may show or switch it (a native session's agent). */
	readonly model?: AgentTurns;
	/** The session's modes, when it has some (Shift+Tab, `/mode`). */
	readonly modes?: DriverModes;
	/** The MCP servers the session started, for `/mcp` (a native session with servers configured). */
	readonly mcp?: SessionMcp;
	/**
	Where images attached at the prompt are kept (the session's `attachments/`): a pasted image path,
	the clipboard's image and an `@x.png` reference go through `attachImage(path, cwd, attachments)`.
	*/
	readonly attachments?: AttachmentStore;
	/** What the empty prompt says (default: the native commands). */
	readonly placeholder?: string;
	/** What `/help` says under the command table: the keys, and where text that is no command goes. */
	readonly helpNotes: readonly string[];
	/** A line no command took: a message for the model or agent, or why it is none. */
	line(line: string): LineOutcome;
	/** Run one piece of work; resolves when its turn has ended (and is recorded). A rejection is said as an error. */
	run(work: DriverWork, signal: AbortSignal): Promise<void>;
	/**
	Ctrl+C on the running work, `press` times (1: the core has just aborted `run`'s signal; later: the
	work is still ending and may be forced); `say` tells the person.
	*/
	interrupt?(press: number, say: (message: string) => void): void;
	/**
	Run a shell command for a command file's `` !`…` `` as the person's own `!command` runs (the
	session's bash tool: its card, its approvals, its caps), `label` saying whose it is (a native session).
	*/
	shell?(command: string, label: string, signal: AbortSignal): Promise<ShellOutcome>;
	/** The running model turn's progress (the status line's time, usage, a retry's wait), if the driver shows one. */
	turn?(): TurnProgress | undefined;
	status(): DriverStatus;
	/** Hear when `status()` (or the announced commands) changed. */
	onChange(listener: () => void): () => void;
	/** Commands the driver announces (an ACP agent's); they join the session's table after its own. */
	commands?(): readonly PromptCommand[];
	/** Completions for a word no command completes (paths in a native session). */
	completeWord?(word: string): Promise<readonly string[]>;
	/** The session closes: stop what could keep the last work from ending (an ACP agent). */
	stop(): Promise<void>;
	/** The last work has ended: release everything (the log, jobs, tools). */
	close(): Promise<void>;
};
