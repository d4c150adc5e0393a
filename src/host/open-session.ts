/**
@module One session, assembled: the registry with the reference tools (and plugins), the runtime
that records calls as events, the log writer, the fold that turns the events into cards, and the
approval questions the session asks (a screen subscribes to them). Used by every command that runs
tools or an agent: the interactive session, `-p`, `cardterm call` and `run`, and an ACP agent's session.
*/
import {AttachmentStore, attachmentsDir} from '../session/store/image-attachments.js';
import {randomBytes} from 'node:crypto';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {attachCodeMode, builtinTools} from '../builtin/index.js';
import {realpathDeep} from '../builtin/workspace/workspace-guard.js';
import {approvalPolicy, type AskRule} from '../config/approval-rules.js';
import {withUndoPresenter} from '../builtin/fs/undo-card.js';
import {withProviderToolPresenter} from '../builtin/web/provider-tools.js';
import {withMcpPresenter} from '../builtin/mcp/mcp-card.js';
import {JobRuntime} from '../jobs/job-runtime.js';
import type {PresenterLookup} from '../presentation/presenters.js';
import {writeText} from '../layout/terminal/terminal-sink.js';
import {EventLog} from '../session/events/event-log.js';
import type {SessionEvent, SessionHeader} from '../session/events/events.js';
import {SessionFold, type FoldChange} from '../session/fold/fold.js';
import {SessionLogWriteError} from '../session/reader/log-errors.js';
import {SessionLogWriter, type SessionLogWriterOptions} from '../session/recorder/log-writer.js';
import {newSessionId} from '../session/store/session-store.js';
import {SecretRedactor} from '../session/events/secret-redactor.js';
import {SessionRuntime} from '../session/recorder/session-runtime.js';
import {ToolRegistry} from '../tools/registry.js';
import type {PreExecuteListener} from '../tools/registry-hooks.js';
import type {ToolDefinition} from '../tools/types.js';
import {Approvals, callApprovals, refusalWords} from './approvals.js';
import {modeLabel, planRefusal, SessionMode} from './session-mode.js';
import {sessionHooks} from './session-hooks.js';
import {warmSpawner} from '../builtin/bash/spawner.js';
import {sessionConfinement, type SessionConfinement} from './command-confinement.js';
import type {HookEntry} from '../config/hooks-config.js';
import type {McpHost, McpHostOptions} from './mcp-host.js';
import {ChangeHistory} from './change-history.js';
import {sessionSecrets, type SessionSecrets} from './session-secrets.js';
import {PluginApplyTimeout, type PluginApplyOptions, type SessionPlugin} from './session-plugin.js';

export type OpenSessionOptions = {
	/** The workspace: where tools run and what they may touch. */
	readonly cwd: string;
	/** Append the session's events to this log (created with a header when new). Absent: in memory only. */
	readonly logPath?: string;
	/** The session's approval questions and grants (default: new ones). */
	readonly approvals?: Approvals;
	/** Tools beyond the reference set. */
	readonly extraTools?: readonly ToolDefinition[];
	/** Plugins (`--plugin`), applied in order after the reference tools and the policy; disposed by `close()`. */
	readonly plugins?: readonly SessionPlugin[];
	/** How plugins are applied: when to give up on one (`session-plugin.ts`); a signal that aborts stops the opening. */
	readonly pluginApply?: PluginApplyOptions;
	/** Told when a plugin is skipped (its apply took too long), naming it; default: stderr. */
	readonly onPluginSkipped?: (message: string) => void;
	/**
	The approval rules (the config's, the agent's): calls they match ask, judged by the paths the tools
	resolve. Read at every call, so rules pushed later (a model connected by `/model`) count; a
	function gives the rules of the moment (the session's mode decides which of the agent's apply).
	*/
	readonly rules?: readonly AskRule[] | (() => readonly AskRule[]);
	/** The session's permission mode (default: a new one in `ask`); plan mode refuses before any rule asks. */
	readonly mode?: SessionMode;
	/** The config's hooks the session runs (a project's only once allowed: the caller chooses), in the workspace, with the commands' environment. */
	readonly hooks?: readonly HookEntry[];
	/** A `tools/pre-execute` listener of the caller's own, after the rules'. */
	readonly policy?: PreExecuteListener;
	/**
	Called when the log cannot be written, also when it cannot be created at all (read-only
	directory): the session then keeps running in memory. Without it, a log that cannot be created
	makes `openSession` throw.
	*/
	readonly onLogError?: (error: SessionLogWriteError) => void;
	/** Called when the log is written again after `onLogError` (a disk that had filled up has room again). */
	readonly onLogRecovered?: () => void;
	/** How the writer opens the log file (fault-injection tests); default `fs.promises.open(path, 'a+')`. */
	readonly openLogFile?: SessionLogWriterOptions['openFile'];
	readonly now?: () => number;
	/** The id for a new log's header (default: a fresh time-sorted id). */
	readonly id?: string;
	/** The events already in the log a session continues: the fold starts from them. */
	readonly history?: readonly SessionEvent[];
	/** Whether entries a screen has written may leave the fold's memory now (`SessionFold`'s `releaseWritten`: the log gives them back). */
	readonly releaseWritten?: () => boolean;
	/**
	Where bash keeps the whole output of a command whose output it truncated (the card and the model
	are told the file). Default: `spill/` beside the log (the session's folder), or without a log a
	folder of the session's own in the temp directory.
	*/
	readonly spillDir?: string;
	/** Presenters beyond the registry's (an ACP agent's calls); given the registry's lookup, returns the fold's. */
	readonly presenters?: (registry: PresenterLookup) => PresenterLookup;
	/** The secrets kept from commands and redacted from events (default: the keys cardterm knows, from this process's environment). */
	readonly secrets?: SessionSecrets;
	/** MCP servers: started with the session (without waiting for them), their tools registered as they connect, ended by `close()`. */
	readonly mcp?: Pick<McpHostOptions, 'servers' | 'unconsented' | 'env' | 'ask' | 'clientVersion' | 'promptsOnly'>;
	/** Start the command spawner now, in the sandbox of the starting mode (a live session, whose first command should not wait for it). */
	readonly warmCommands?: boolean;
};

export type OpenedSession = {
	readonly id: string;
	readonly header: SessionHeader;
	readonly registry: ToolRegistry;
	readonly runtime: SessionRuntime;
	readonly log: EventLog;
	readonly fold: SessionFold;
	/** The file changes `/undo` and `/redo` may take back, kept from the log's events. */
	readonly changes: ChangeHistory;
	readonly jobs: JobRuntime;
	/** The questions the session asks the person (a screen subscribes; without one they are answered unattended). */
	readonly approvals: Approvals;
	/** The permission mode (Shift+Tab): its changes are recorded as `permission/preset` events. */
	readonly mode: SessionMode;
	/** Whether the commands of a mode that does not ask before each are confined (bwrap), for the status line and `/help`. */
	readonly confinement: SessionConfinement;
	readonly logPath?: string;
	/** The secrets of the session: the commands' environment, the values redacted. */
	readonly secrets: SessionSecrets;
	/** The session's MCP servers, when it has any configured. */
	readonly mcp?: McpHost;
	/** The images attached to the person's messages: side files beside the log (`attachments/`), or with the spill files without a log. */
	readonly attachments: AttachmentStore;
	/** What is in the log file: events written to it, and events appended but not written (yet); absent without a log. */
	logState(): {readonly path: string; readonly written: number; readonly unwritten: number} | undefined;
	/** Names of the tools a prompt may call. */
	toolNames(): ReadonlySet<string>;
	/** Hear what each event changed in the fold (which is fed by the log). */
	onFoldChange(listener: (change: FoldChange) => void): () => void;
	/** Resolves when every event so far is durable in the log (at once without a log). */
	flush(): Promise<void>;
	/** Kill background jobs, flush and close the log. */
	close(): Promise<void>;
};

export {newSessionId} from '../session/store/session-store.js';

export async function openSession(options: OpenSessionOptions): Promise<OpenedSession> {
	const now = options.now ?? Date.now;
	const created = now();
	const fresh: SessionHeader = {type: 'session', version: 0, id: options.id ?? newSessionId(created), createdAt: created, cwd: options.cwd, delegationDepth: 0};
	let writer: SessionLogWriter | undefined;
	if (options.logPath !== undefined) {
		try {
			writer = await SessionLogWriter.open(options.logPath, fresh, {onError: options.onLogError, onRecover: options.onLogRecovered, now, ...(options.openLogFile === undefined ? {} : {openFile: options.openLogFile})});
		} catch (error) {
			// An unwritable location must not stop the session: report it and keep the events in memory.
			if (!(error instanceof SessionLogWriteError) || options.onLogError === undefined) {
				throw error;
			}

			options.onLogError(error);
		}
	}

	const header = writer?.header ?? fresh;
	const secrets = options.secrets ?? sessionSecrets(process.env);
	const redactor = new SecretRedactor(secrets.secrets);
	const log = new EventLog({
		now,
		firstSeq: writer?.nextSeq ?? 0,
		...(writer === undefined ? {} : {record: draft => writer.append(draft) as SessionEvent}),
		...(redactor.active ? {redact: draft => redactor.redactEvent(draft)} : {}),
	});
	const approvals = options.approvals ?? new Approvals();
	const runtime = new SessionRuntime({log, agent: {id: 'cardterm', sessionId: header.id}, approve: callApprovals(approvals)});
	// Contained failures (a throwing observer or job listener) go to stderr through the sink.
	const report = (message: string): void => {
		void writeText(process.stderr, `cardterm: ${message}\n`);
	};

	const registry = new ToolRegistry({mode: 'both', approval: runtime.approvalHandler, logError: report});
	runtime.attach(registry);
	// Without a log: a name nobody can guess ahead (the temp directory is shared), made only when a command spills.
	const spillDir = options.spillDir ?? (writer === undefined ? join(tmpdir(), `cardterm-spill-${header.id.replaceAll(/[^\w.-]/g, '_')}-${randomBytes(4).toString('hex')}`) : join(dirname(writer.path), 'spill'));
	const attachments = new AttachmentStore(attachmentsDir(writer === undefined ? spillDir : dirname(writer.path)));
	const mode = options.mode ?? new SessionMode();
	const confinement = sessionConfinement(options.cwd, () => mode.current, undefined, {network: mode.commandNetwork});
	if (options.warmCommands === true) {
		void confinement.confine().then(sandbox => {
			warmSpawner(options.cwd, sandbox);
		});
	}

	const {tools, jobs} = builtinTools({workspace: options.cwd, spillDir, commandEnv: secrets.commandEnv, confine: async () => confinement.confine(), onTodos: runtime.recordTodos, jobs: new JobRuntime({log: (message, error) => {
		report(error === undefined ? message : `${message}: ${error instanceof Error ? error.message : String(error)}`);
	}})});
	attachCodeMode(registry, {onDispatch: runtime.recordCodeDispatch, env: secrets.commandEnv});
	for (const tool of [...tools, ...(options.extraTools ?? [])]) {
		registry.register(tool);
	}

	// Outermost: plan mode refuses before a rule would ask about the call.
	registry.on('tools/pre-execute', planRefusal(mode));
	// Then the PreToolUse hooks, before a rule would ask about a call a hook refuses.
	const hooks = options.hooks === undefined || options.hooks.length === 0 ? undefined : sessionHooks(log, header.id, {hooks: options.hooks, cwd: options.cwd, env: secrets.commandEnv});
	if (hooks !== undefined) {
		registry.on('tools/pre-execute', hooks.preExecute);
		registry.on('tools/result', hooks.onResult);
	}

	mode.onChange((now, by) => {
		log.emit({type: 'permission/preset', data: {mode: now, label: modeLabel(now), by}, ignorable: true});
	});
	if (options.rules !== undefined) {
		registry.on('tools/pre-execute', approvalPolicy(options.rules, {cwd: options.cwd, realPath: realpathDeep, asking: approvals.asking}));
	}

	if (options.policy !== undefined) {
		registry.on('tools/pre-execute', options.policy);
	}

	let mcp: McpHost | undefined;
	if (options.mcp !== undefined && (options.mcp.servers.length > 0 || (options.mcp.unconsented?.length ?? 0) > 0)) {
		// The MCP SDK loads only for a session that has servers (a launch without them never pays for it).
		const {McpHost: Host} = await import('./mcp-host.js');
		mcp = new Host({...options.mcp, registry, cwd: options.cwd, commandEnv: secrets.commandEnv, saveDir: join(spillDir, 'mcp'), attachments});
		// MCP tools the person did not allow ask, by the rules' policy (so "for this session" grants work as for every rule).
		registry.on('tools/pre-execute', approvalPolicy(mcp.rules, {cwd: options.cwd, realPath: realpathDeep, asking: approvals.asking}));
	}

	registry.on('tools/post-execute', refusalWords(approvals));

	const disposePlugins: Array<() => Promise<void>> = [];
	const endPlugins = async (): Promise<void> => {
		// Last applied first, as their registrations within each plugin.
		for (const dispose of disposePlugins.reverse()) {
			// eslint-disable-next-line no-await-in-loop -- ordered teardown
			await dispose();
		}

		disposePlugins.length = 0;
	};

	for (const plugin of options.plugins ?? []) {
		try {
			// eslint-disable-next-line no-await-in-loop -- plugins apply in the order given
			disposePlugins.push(await plugin.apply({registry, jobs, workspace: options.cwd, report, ...options.pluginApply}));
		} catch (error) {
			if (error instanceof PluginApplyTimeout) {
				(options.onPluginSkipped ?? report)(error.message);
				continue;
			}

			// eslint-disable-next-line no-await-in-loop -- ordered teardown
			await endPlugins();
			// eslint-disable-next-line no-await-in-loop -- ordered teardown
			await jobs.dispose();
			// eslint-disable-next-line no-await-in-loop -- ordered teardown
			await writer?.close();
			throw error;
		}
	}

	// The model's provider may run tools of its own (a web search), MCP servers' tools and /undo have cards of their own: each has its presenter.
	const registryPresenters: PresenterLookup = withMcpPresenter(withUndoPresenter(withProviderToolPresenter(name => registry.get(name))));
	// The live session keeps the context timeline: its pager (Ctrl+O) shows what the model knew.
	const fold = new SessionFold(options.presenters?.(registryPresenters) ?? registryPresenters, {context: true, ...(options.releaseWritten === undefined ? {} : {releaseWritten: options.releaseWritten})});
	const changes = new ChangeHistory();
	for (const event of options.history ?? []) {
		fold.apply(event);
		changes.apply(event);
	}

	const changeListeners = new Set<(change: FoldChange) => void>();
	log.listen(event => {
		changes.apply(event);
		const change = fold.apply(event);
		for (const listener of changeListeners) {
			listener(change);
		}
	});
	mcp?.start();
	let closed = false;
	return {
		id: header.id,
		header,
		registry,
		runtime,
		log,
		fold,
		changes,
		jobs,
		approvals,
		mode,
		confinement,
		secrets,
		attachments,
		...(mcp === undefined ? {} : {mcp}),
		...(writer === undefined ? {} : {logPath: writer.path}),
		// Seqs are contiguous from 0 in a log, so the durable seq bound is the count of events in the file.
		logState: () => writer === undefined ? undefined : {path: writer.path, written: writer.writtenUpTo, unwritten: writer.unwrittenEvents},
		toolNames: () => new Set(registry.schemas().map(schema => schema.name)),
		onFoldChange(listener) {
			changeListeners.add(listener);
			return () => changeListeners.delete(listener);
		},
		async flush() {
			await writer?.flush();
		},
		async close() {
			if (closed) {
				return;
			}

			closed = true;
			approvals.close();
			hooks?.dispose();
			// The agent refuses injections from here on (the contract: refused after disposal).
			runtime.dispose();
			await mcp?.close();
			await endPlugins();
			await jobs.dispose();
			await writer?.close();
		},
	};
}
