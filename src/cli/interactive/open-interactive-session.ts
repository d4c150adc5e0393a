/**
@module The interactive session without its screen: the session folder, the session (tools, runtime,
log), the prompt history and the controller the app draws. A folder or log that cannot be used is
a problem in the status line, and the session goes on in memory.
*/
import {rm, rmdir} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {makeDirectory} from '../../session/make-directory.js';
import type {ApprovalPrompt} from '../../session/session-runtime.js';
import type {ToolDefinition} from '../../tools/types.js';
import {approvalPolicy, type AskRule} from '../approval-policy.js';
import {openIndexedEntrySource} from '../../transcript/indexed-entry-source.js';
import {childSessionLinks} from '../../transcript/child-session-links.js';
import {openSession, type OpenedSession, type OpenSessionOptions} from '../open-session.js';
import type {SessionPlugin} from '../session-plugin.js';
import {historyPath} from '../session-paths.js';
import type {ModelClient} from '../../agent/model-types.js';
import {sessionAgent} from '../agent-setup.js';
import {continueLog} from '../continue-log.js';
import type {ResumedLog} from '../resume-target.js';
import {connectableTurns, modelTurns, noModelTurns, type AgentTurns} from './agent-turns.js';
import type {CreatedAgent} from '../../agent/create-agent.js';
import {pushAll} from '../../layout/push-all.js';
import type {LogOutcome} from './log-outcome.js';
import {PromptHistory} from './prompt-history.js';
import {SessionController} from './session-controller.js';

export type InteractiveSessionOptions = {
	/** The sessions folder; the session gets `<root>/<id>/session.jsonl`. */
	readonly root: string;
	readonly cwd: string;
	readonly id: string;
	readonly extraTools?: readonly ToolDefinition[];
	/** `--plugin` files, loaded. */
	readonly plugins?: readonly SessionPlugin[];
	/** Approval rules from the config. */
	readonly rules?: readonly AskRule[];
	/** How the writer opens the log file (fault-injection tests). */
	readonly openLogFile?: OpenSessionOptions['openLogFile'];
	/**
	The agent's model (and where it was configured), or why there is none — and then, with `connect`,
	how `/model PROVIDER:MODEL` connects one (its approval rules join the session's then). Absent: no agent at all.
	*/
	readonly agent?: {readonly model: ModelClient; readonly from: string; readonly systemPrompt?: string; readonly maxSteps?: number; readonly resolve?: (spec: string) => ModelClient} | {readonly none: string; readonly status?: string; readonly connect?: AgentConnect};
	/** The log this session continues (`--continue`, `--resume ID`); `id` is then its header's. */
	readonly resumed?: ResumedLog;
};

/** How a session started without a model connects one: the specs' resolution, the agent's settings, the rules it asks by. */
export type AgentConnect = {readonly resolve: (spec: string) => ModelClient; readonly systemPrompt?: string; readonly maxSteps?: number; readonly askRules: readonly AskRule[]};

export type InteractiveSession = {
	readonly session: OpenedSession;
	readonly controller: SessionController;
	/** What is on disk; meaningful once the controller is closed. */
	logOutcome(): LogOutcome;
	/**
	Once the controller is closed: removes the session's log (and its folder, when nothing else is in
	it) if it holds no event beyond the header — nothing was done, so no session is kept. Returns
	whether it did.
	*/
	discardIfEmpty(): Promise<boolean>;
};

export async function openInteractiveSession(options: InteractiveSessionOptions): Promise<InteractiveSession> {
	const folder = options.resumed === undefined ? join(options.root, options.id) : dirname(options.resumed.path);
	// Why the log is not being written right now; cleared when a write succeeds again.
	let problem: string | undefined;
	let controller: SessionController | undefined;
	const logProblem = (message: string | undefined): void => {
		problem = message === undefined ? undefined : `session log not saved: ${message} — the session goes on in memory`;
		controller?.reportProblem(problem);
	};

	let reason: string | undefined;
	const folderMade = await makeDirectory(folder).then(() => true, (error: unknown) => {
		reason = `cannot create ${folder}: ${(error as Error).message}`;
		logProblem(reason);
		return false;
	});

	let prompt: ApprovalPrompt = async () => 'unavailable';
	// A model connected later (`/model`) adds its rules here: the policy reads them at every call.
	const rules = [...(options.rules ?? [])];
	const connect = options.agent !== undefined && 'none' in options.agent ? options.agent.connect : undefined;
	const session = await openSession({
		cwd: options.cwd,
		id: options.id,
		...(folderMade ? {logPath: options.resumed?.path ?? join(folder, 'session.jsonl')} : {}),
		...(options.resumed === undefined ? {} : {history: options.resumed.events}),
		...(options.extraTools === undefined ? {} : {extraTools: options.extraTools}),
		...(options.plugins === undefined ? {} : {plugins: options.plugins}),
		...(options.openLogFile === undefined ? {} : {openLogFile: options.openLogFile}),
		approve: async request => prompt(request),
		...(rules.length === 0 && connect === undefined ? {} : {policy: approvalPolicy(rules, options.cwd, () => controller?.sessionAllowed ?? new Set())}),
		onLogError(error) {
			reason = error.message;
			logProblem(reason);
		},
		onLogRecovered() {
			logProblem(undefined);
		},
	});
	const history = await PromptHistory.load(historyPath(options.root, options.cwd));
	const agentOption = options.agent;
	const created = agentOption === undefined || 'none' in agentOption ? undefined : await sessionAgent(session, {cwd: options.cwd, model: agentOption.model, ...(agentOption.systemPrompt === undefined ? {} : {systemPrompt: agentOption.systemPrompt}), ...(agentOption.maxSteps === undefined ? {} : {maxSteps: agentOption.maxSteps}), ...(options.resumed === undefined ? {} : {history: options.resumed.events})});
	if (options.resumed !== undefined) {
		continueLog(session, options.resumed.events);
	}

	let agent: AgentTurns | undefined;
	let connected: Promise<CreatedAgent> | undefined;
	if (connect !== undefined && agentOption !== undefined && 'none' in agentOption) {
		agent = connectableTurns(agentOption.none, {
			resolve: connect.resolve,
			async start(model) {
				pushAll(rules, connect.askRules);
				// The model sees the conversation of a continued log; commands run here before were the person's.
				connected = sessionAgent(session, {cwd: options.cwd, model, ...(connect.systemPrompt === undefined ? {} : {systemPrompt: connect.systemPrompt}), ...(connect.maxSteps === undefined ? {} : {maxSteps: connect.maxSteps}), ...(options.resumed === undefined ? {} : {history: options.resumed.events})});
				return (await connected).loop;
			},
		}, agentOption.status);
	} else if (created !== undefined && agentOption !== undefined && !('none' in agentOption)) {
		agent = modelTurns(created.loop, agentOption.from, agentOption.resolve ?? (() => {
			throw new Error('switching models is not available in this session');
		}));
	} else if (agentOption !== undefined && 'none' in agentOption) {
		agent = noModelTurns(agentOption.none, agentOption.status);
	}

	controller = new SessionController({
		cwd: options.cwd,
		sessionId: session.id,
		fold: session.fold,
		onFoldChange: listener => session.onFoldChange(listener),
		runtime: session.runtime,
		toolNames: () => session.toolNames(),
		toolSchema: name => session.registry.get(name),
		jobs: {
			running: () => session.jobs.list().filter(job => job.status === 'running' || job.status === 'stopping').length,
			onChange: listener => session.jobs.onJobsChanged(listener),
		},
		history,
		// A final write that fails was reported already; the closing line says what is missing.
		shutdown: async () => {
			created?.dispose();
			(await connected?.catch(() => undefined))?.dispose();
			await session.close().catch(() => undefined);
		},
		...(agent === undefined ? {} : {agent}),
		// Subagent cards' child sessions, beside this log as beside a replayed one; children start while it runs.
		...(session.logPath === undefined ? {} : {childSessions: childSessionLinks(session.logPath, session.header, () => name => session.registry.get(name), {live: true})}),
		// With a healthy log, settled cards leave memory once written to the scrollback, and the pager
		// reads the session back from its log (the session's memory stays flat however long it runs).
		releaseSettled: () => session.logPath !== undefined && problem === undefined,
		...(session.logPath === undefined ? {} : {
			async pagerSource() {
				if (problem !== undefined) {
					throw new Error(problem);
				}

				await session.flush();
				return openIndexedEntrySource(session.logPath!, {presenters: () => name => session.registry.get(name), tail: false});
			},
		}),
	});
	prompt = controller.prompt;
	controller.reportProblem(problem);
	return {
		session,
		controller,
		logOutcome() {
			const state = session.logState();
			if (state === undefined) {
				return {kind: 'not-saved', reason: reason ?? 'no log was opened'};
			}

			return state.unwritten > 0 ? {kind: 'incomplete', path: state.path, unwritten: state.unwritten} : {kind: 'saved', path: state.path, events: state.written};
		},
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
