/**
@module The native driver of the live session: the agent loop runs a message (or the session stays in
command mode without a model), the session's runtime runs a call the person asked for, and the status
line shows the model, the running turn, background jobs and a log that cannot be written.
*/
import type {AgentTurns} from '../host/agent-turns.js';
import type {McpServerStatus} from '../host/mcp-host.js';
import type {OpenedSession} from '../host/open-session.js';
import {attachReferences, mcpReferences} from '../host/prompt-references.js';
import type {TurnProgress} from '../session/fold/turn-progress.js';
import {mcpPromptCommands} from './commands/mcp-prompt.js';
import {completeShellWord} from './complete.js';
import {modeLabel} from '../host/session-mode.js';
import {nativeLine} from './native-lines.js';
import {INLINE_TIMEOUT_MS} from './commands/inline-shell.js';
import {nativeModes} from './native-modes.js';
import type {DriverStatus, DriverWork, SessionDriver} from './session-driver.js';

export type NativeDriverOptions = {
	/** The session: its runtime runs calls, its registry names the tools, its jobs and fold feed the status line. */
	readonly session: Pick<OpenedSession, 'runtime' | 'registry' | 'jobs' | 'fold' | 'toolNames' | 'mcp'> & Partial<Pick<OpenedSession, 'attachments' | 'mode' | 'approvals' | 'confinement'>>;
	readonly cwd: string;
	/** The agent: with a model, a line that is no command is a message for it. */
	readonly agent?: AgentTurns;
	/** Why the log is not written now (the status line says it), and hear when that changes. */
	readonly problem?: {readonly now: () => string | undefined; readonly onChange: (listener: () => void) => () => void};
	/** Stop the agent, end jobs and tools, flush and close the log. */
	readonly shutdown: () => Promise<void>;
};

/** What `/help` says under the command table of a native session. */
export const NATIVE_HELP_NOTES: readonly string[] = [
	'Keys: Tab completes (programs after !) · ↑/↓ history · Ctrl+O pager · Ctrl+L clears the screen',
	'Shift+Tab cycles the mode: ask → accept edits (writes in the workspace run) → plan (read-only) → bypass (nothing asks); in accept edits and bypass, commands run in bwrap where it works (the status line says whether)',
	'Esc or Ctrl+C cancels the running call; lines queued after it are held (Enter runs, Ctrl+C drops)',
	'Lines typed while one runs wait above the prompt: Alt+↑ takes the newest back to edit, Alt+↓ drops it',
	'Ctrl+C twice on an empty prompt or Ctrl+D exits · Shift+Enter, Alt+Enter or \\ Enter: a new line',
	'Text that is no command goes to the model when one is connected (/model PROVIDER:MODEL connects one).',
];

export function nativeDriver({session, cwd, agent, problem, shutdown}: NativeDriverOptions): SessionDriver {
	/** A message is with the model (its turn's progress shows in the status line); calls the person runs say it all on their cards. */
	let prompting = false;
	const runningJobs = (): number => session.jobs.list().filter(job => job.status === 'running' || job.status === 'stopping').length;
	return {
		tools: {names: () => session.toolNames(), schema: name => session.registry.get(name)},
		...(agent === undefined ? {} : {model: agent}),
		...(session.mcp === undefined ? {} : {mcp: session.mcp}),
		...(session.attachments === undefined ? {} : {attachments: session.attachments}),
		...(session.mode === undefined || session.approvals === undefined ? {} : {modes: nativeModes({mode: session.mode, approvals: session.approvals})}),
		helpNotes: NATIVE_HELP_NOTES,
		line: line => nativeLine(line, session.toolNames(), {connected: agent?.model !== undefined, ...(agent === undefined ? {} : {howToConnect: () => agent.describe()})}),
		async run(work: DriverWork, signal: AbortSignal) {
			if (work.kind === 'tool') {
				await session.runtime.runCall(work.name, work.rawArgs ?? work.args, {signal});
				return;
			}

			if (agent === undefined) {
				throw new Error('no agent in this session');
			}

			// The model learns the mode with the first prompt after it changed (several changes: the last).
			session.mode?.tell(session.runtime.agent);

			prompting = true;
			try {
				await agent.run(await attachReferences(work.text, {cwd, signal, ...(session.mcp === undefined ? {} : {resources: mcpReferences(session.mcp)})}), signal, work.images);
			} finally {
				prompting = false;
			}
		},
		async shell(command, label, signal) {
			// The bash tool's own path: a card, the session's approval rules, its timeout and output cap.
			const result = await session.runtime.runCall('bash', {command, description: label, timeoutMs: INLINE_TIMEOUT_MS}, {signal});
			if (result.isError) {
				return {refused: result.error.message};
			}

			return {output: result.content.map(block => block.type === 'text' ? block.text : '').join('')};
		},
		turn: (): TurnProgress | undefined => prompting ? session.fold.turnProgress : undefined,
		status(): DriverStatus {
			const shown = problem?.now() ?? mcpProblem(session.mcp?.status() ?? []);
			const meter = agent?.meter?.();
			const confined = session.confinement?.state();
			return {
				...(meter === undefined ? {} : {context: meter}),
				jobsRunning: runningJobs(),
				// Ask, the default, goes unsaid (as in Claude Code's status line); every other mode is always shown.
				...(session.mode === undefined || session.mode.current === 'ask' ? {} : {mode: modeLabel(session.mode.current)}),
				...(confined === undefined ? {} : {confinement: confined}),
				...(agent === undefined ? {} : {model: agent.status, modelConnected: agent.model !== undefined}),
				...(shown === undefined ? {} : {problem: shown}),
			};
		},
		onChange(listener) {
			const stopJobs = session.jobs.onJobsChanged(listener);
			const stopProblem = problem?.onChange(listener);
			const stopMcp = session.mcp?.onChange(listener);
			const stopMode = session.mode?.onChange(() => {
				listener();
				// A mode that confines commands: say whether they are, as soon as it is known.
				void session.confinement?.probe().then(listener);
			});
			if (session.mode !== undefined && session.mode.current !== 'ask') {
				void session.confinement?.probe().then(listener);
			}

			return () => {
				stopMode?.();
				stopJobs();
				stopProblem?.();
				stopMcp?.();
			};
		},
		// The MCP servers' prompts, as commands.
		...(session.mcp === undefined ? {} : {commands: () => mcpPromptCommands(session.mcp!)}),
		completeWord: async word => completeShellWord(word, false, cwd),
		async stop() {
			// Aborting the running work is enough: its calls stop, and the turn records its end.
		},
		close: shutdown,
	};
}

/** A dead or slow MCP server, named in the status line until it works (the log's problem goes first). */
function mcpProblem(servers: readonly McpServerStatus[]): string | undefined {
	const failed = servers.filter(server => server.state === 'failed').map(server => server.name);
	const slow = servers.filter(server => server.slow === true).map(server => server.name);
	const login = servers.filter(server => server.state === 'needs login').map(server => server.name);
	const said = [
		...(failed.length === 0 ? [] : [`MCP ${failed.length === 1 ? 'server' : 'servers'} ${failed.join(', ')} failed`]),
		...(login.length === 0 ? [] : [`${failed.length === 0 ? 'MCP ' : ''}${login.join(', ')} ${login.length === 1 ? 'needs' : 'need'} login`]),
		...(slow.length === 0 ? [] : [`${failed.length === 0 ? 'MCP ' : ''}${slow.join(', ')} still connecting`]),
	];
	return said.length === 0 ? undefined : `${said.join('; ')} (/mcp)`;
}
