/**
@module A native session as a live screen runs it: the session folder, the session (tools, runtime,
log, approvals), the agent (its model, or why there is none and how `/model` connects one), and
what a screen borrows from the log: where the pager reads the session back, the child sessions of
subagent cards, whether written entries may leave memory. A folder or log that cannot be used is a
problem the status line shows, and the session goes on in memory.
*/
import {rm, rmdir} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import type {ModelClient} from '../agent/model-types.js';
import type {SessionEvent, SessionHeader} from '../session/events/events.js';
import {makeDirectory} from '../session/store/make-directory.js';
import type {SessionMode} from './session-mode.js';
import type {ContextFileSettings} from '../config/config-schema.js';
import type {ToolDefinition} from '../tools/types.js';
import {childSessionLinks, type ChildSessionLinks} from '../transcript/child-session-links.js';
import type {EntrySource} from '../transcript/entry-source.js';
import {openIndexedEntrySource} from '../transcript/indexed-entry-source.js';
import {connectableTurns, modelTurns, noModelTurns, type AgentTurns} from './agent-turns.js';
import {Approvals} from './approvals.js';
import {continueLog} from './continue-log.js';
import {logOutcomeOf, type LogOutcome} from './log-outcome.js';
import {openSession, type OpenedSession, type OpenSessionOptions} from './open-session.js';
import {modelContext, modelWindow, sessionAgent, type SessionAgent} from './session-agent.js';
import type {SessionPlugin} from './session-plugin.js';

/** The log a session continues (`--continue`, `--resume ID`): its path, header and events. */
export type ContinuedLog = {readonly path: string; readonly header: SessionHeader; readonly events: readonly SessionEvent[]};

/** The agent's settings, for a model configured now or connected later with `/model`. */
type AgentSettings = {readonly systemPrompt?: string; readonly maxSteps?: number; readonly stallTimeoutMs?: number; readonly context?: ContextFileSettings};

/** How a session started without a model connects one: the specs' resolution, the agent's settings, and what connecting adds (its approval rules). */
export type AgentConnect = AgentSettings & {readonly resolve: (spec: string) => ModelClient; readonly connected?: () => void};

export type NativeSessionOptions = {
	/** The sessions folder; the session gets `<root>/<id>/session.jsonl`. */
	readonly root: string;
	readonly cwd: string;
	readonly id: string;
	readonly extraTools?: readonly ToolDefinition[];
	/** `--plugin` files, loaded. */
	readonly plugins?: readonly SessionPlugin[];
	/** When to give up on a plugin's apply, and who is told (`openSession`'s options). */
	readonly pluginApply?: OpenSessionOptions['pluginApply'];
	readonly onPluginSkipped?: OpenSessionOptions['onPluginSkipped'];
	/** The approval rules, read at every call (`OpenSessionOptions.rules`). */
	readonly rules?: OpenSessionOptions['rules'];
	/** The session's permission mode (`OpenSessionOptions.mode`). */
	readonly mode?: SessionMode;
	/** The hooks it runs (`OpenSessionOptions.hooks`). */
	readonly hooks?: OpenSessionOptions['hooks'];
	/** How the writer opens the log file (fault-injection tests). */
	readonly openLogFile?: OpenSessionOptions['openLogFile'];
	/**
	The agent's model (and where it was configured), or why there is none — and then, with `connect`,
	how `/model PROVIDER:MODEL` connects one. Absent: no agent at all.
	*/
	readonly agent?: (AgentSettings & {readonly model: ModelClient; readonly from: string; readonly resolve?: (spec: string) => ModelClient}) | {readonly none: string; readonly status?: string; readonly connect?: AgentConnect};
	/** The log this session continues; `id` is then its header's. */
	readonly resumed?: ContinuedLog;
	/** The secrets kept from commands and redacted from events (default: the keys cardterm knows). */
	readonly secrets?: OpenSessionOptions['secrets'];
	/** The MCP servers the session starts (`OpenSessionOptions.mcp`). */
	readonly mcp?: OpenSessionOptions['mcp'];
};

export type NativeSession = {
	readonly session: OpenedSession;
	/** The agent's turns (absent: a session without an agent). */
	readonly agent?: AgentTurns;
	/** Why the log is not being written now (said in the status line); undefined while it is. */
	problem(): string | undefined;
	/** Hear when `problem()` changes. */
	onProblem(listener: () => void): () => void;
	/** Where a pager reads the session back (its log); absent without a log. */
	readonly pagerSource?: () => Promise<EntrySource & {close?(): unknown}>;
	/** The child sessions of subagent cards, beside the log. */
	readonly childSessions?: ChildSessionLinks;
	/** Stop the agent, end jobs and tools, flush and close the log. */
	shutdown(): Promise<void>;
	/** What is on disk; meaningful once shut down. */
	logOutcome(): LogOutcome;
	/**
	Once shut down: removes the session's log (and its folder, when nothing else is in it) if it holds
	no event beyond the header — nothing was done, so no session is kept. Returns whether it did.
	*/
	discardIfEmpty(): Promise<boolean>;
};

export async function openNativeSession(options: NativeSessionOptions): Promise<NativeSession> {
	const folder = options.resumed === undefined ? join(options.root, options.id) : dirname(options.resumed.path);
	// Why the log is not being written right now; cleared when a write succeeds again.
	let problem: string | undefined;
	let reason: string | undefined;
	const problemListeners = new Set<() => void>();
	const logProblem = (message: string | undefined): void => {
		problem = message === undefined ? undefined : `session log not saved: ${message} — the session goes on in memory`;
		for (const listener of problemListeners) {
			listener();
		}
	};

	const folderMade = await makeDirectory(folder).then(() => true, (error: unknown) => {
		reason = `cannot create ${folder}: ${(error as Error).message}`;
		logProblem(reason);
		return false;
	});

	const approvals = new Approvals();
	const agentOption = options.agent;
	const connect = agentOption !== undefined && 'none' in agentOption ? agentOption.connect : undefined;
	const session = await openSession({
		cwd: options.cwd,
		id: options.id,
		...(folderMade ? {logPath: options.resumed?.path ?? join(folder, 'session.jsonl')} : {}),
		...(options.resumed === undefined ? {} : {history: options.resumed.events}),
		...(options.extraTools === undefined ? {} : {extraTools: options.extraTools}),
		...(options.plugins === undefined ? {} : {plugins: options.plugins}),
		...(options.pluginApply === undefined ? {} : {pluginApply: options.pluginApply}),
		...(options.onPluginSkipped === undefined ? {} : {onPluginSkipped: options.onPluginSkipped}),
		...(options.openLogFile === undefined ? {} : {openLogFile: options.openLogFile}),
		...(options.secrets === undefined ? {} : {secrets: options.secrets}),
		...(options.mcp === undefined ? {} : {mcp: options.mcp}),
		approvals,
		// A live session runs commands: its spawner starts now, not at the first of them.
		warmCommands: true,
		// With a healthy log, written entries leave memory and the pager reads the session back from the
		// log (the session's memory stays flat however long it runs).
		releaseWritten: () => folderMade && problem === undefined,
		...(options.rules === undefined ? {} : {rules: options.rules}),
		...(options.mode === undefined ? {} : {mode: options.mode}),
		...(options.hooks === undefined ? {} : {hooks: options.hooks}),
		onLogError(error) {
			reason = error.message;
			logProblem(reason);
		},
		onLogRecovered() {
			logProblem(undefined);
		},
	});
	const history = options.resumed === undefined ? {} : {history: options.resumed.events};
	const created = agentOption === undefined || 'none' in agentOption ? undefined : await sessionAgent(session, {cwd: options.cwd, model: agentOption.model, ...settingsOf(agentOption), ...history});
	let instructions = created?.instructions;
	if (options.resumed !== undefined) {
		continueLog(session, options.resumed.events);
	}

	let agent: AgentTurns | undefined;
	let connected: Promise<SessionAgent> | undefined;
	if (connect !== undefined && agentOption !== undefined && 'none' in agentOption) {
		agent = connectableTurns(agentOption.none, {
			resolve: connect.resolve,
			async start(model) {
				connect.connected?.();
				// The model sees the conversation of a continued log; commands run here before were the person's.
				connected = sessionAgent(session, {cwd: options.cwd, model, ...settingsOf(connect), ...history});
				const started = await connected;
				instructions = started.instructions;
				return started.loop;
			},
			instructions: () => instructions?.(),
			windowOf: {window: model => modelWindow(model, connect.context), budget: (model, window) => modelContext(model, window, connect.context).budget},
		}, agentOption.status);
	} else if (created !== undefined && agentOption !== undefined && !('none' in agentOption)) {
		const {context} = agentOption;
		agent = modelTurns(created.loop, agentOption.from, agentOption.resolve ?? (() => {
			throw new Error('switching models is not available in this session');
		}), () => instructions?.(), {window: model => modelWindow(model, context), budget: (model, window) => modelContext(model, window, context).budget});
	} else if (agentOption !== undefined && 'none' in agentOption) {
		agent = noModelTurns(agentOption.none, agentOption.status);
	}

	const {logPath} = session;
	return {
		session,
		...(agent === undefined ? {} : {agent}),
		problem: () => problem,
		onProblem(listener) {
			problemListeners.add(listener);
			return () => problemListeners.delete(listener);
		},
		...(logPath === undefined ? {} : {
			// Subagent cards' child sessions, beside this log as beside a replayed one; children start while it runs.
			childSessions: childSessionLinks(logPath, session.header, () => name => session.registry.get(name), {live: true}),
			async pagerSource() {
				if (problem !== undefined) {
					throw new Error(problem);
				}

				await session.flush();
				return openIndexedEntrySource(logPath, {presenters: () => name => session.registry.get(name), tail: false});
			},
		}),
		// A final write that fails was reported already; the closing line says what is missing.
		async shutdown() {
			created?.dispose();
			(await connected?.catch(() => undefined))?.dispose();
			await session.close().catch(() => undefined);
		},
		logOutcome: () => logOutcomeOf(session, reason ?? 'no log was opened'),
		async discardIfEmpty() {
			const state = session.logState();
			// A continued session is someone's earlier session: never ours to remove.
			if (options.resumed !== undefined || state === undefined || state.written > 0 || state.unwritten > 0) {
				return false;
			}

			await rm(state.path, {force: true});
			// Only an empty folder goes: anything else in it is not ours to delete.
			await rmdir(folder).catch(() => undefined);
			return true;
		},
	};
}

function settingsOf(settings: AgentSettings): AgentSettings {
	return {
		...(settings.systemPrompt === undefined ? {} : {systemPrompt: settings.systemPrompt}),
		...(settings.maxSteps === undefined ? {} : {maxSteps: settings.maxSteps}),
		...(settings.stallTimeoutMs === undefined ? {} : {stallTimeoutMs: settings.stallTimeoutMs}),
		...(settings.context === undefined ? {} : {context: settings.context}),
	};
}
