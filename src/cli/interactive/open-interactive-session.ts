/**
@module The interactive session without its screen: the native session the host opens (folder, log,
tools, approvals, agent) under the config's and the agent's approval rules, the prompt history, and
the live session core over the native driver, which the screen draws.
*/
import type {ContextFileSettings} from '../../config/config-schema.js';
import type {ModelClient} from '../../agent/model-types.js';
import type {LogOutcome} from '../../host/log-outcome.js';
import {openNativeSession, type AgentConnect as HostAgentConnect, type NativeSessionOptions} from '../../host/open-native-session.js';
import type {OpenedSession} from '../../host/open-session.js';
import {sessionForks} from '../../host/session-forks.js';
import {nativeUndo} from '../../host/session-undo.js';
import type {UserCommandFile} from '../../host/user-commands.js';
import {BUILTIN_COMMANDS} from '../../live/commands/builtin-commands.js';
import {withUserCommands} from '../../live/commands/user-command.js';
import {LiveSession, sessionFeeds} from '../../live/live-session.js';
import {nativeDriver} from '../../live/native-driver.js';
import type {AskRule} from '../../config/approval-rules.js';
import {agentAskRules, SessionMode} from '../../host/session-mode.js';
import {historyPath, shadowPath} from '../environment/session-paths.js';
import {PromptHistory} from './prompt-history.js';

export type InteractiveSessionOptions = Omit<NativeSessionOptions, 'rules' | 'agent'> & {
	/** The commands the person wrote (`.cardterm/commands/`, the user's commands folder): they join the table after the built-in ones. */
	readonly userCommands?: readonly UserCommandFile[];
	/** Approval rules from the config. */
	readonly rules?: readonly AskRule[];
	/** The session's mode (default: ask): which of the agent's rules apply (`session-mode.ts`). */
	readonly mode?: SessionMode;
	/**
	The agent's model (and where it was configured), or why there is none — and then, with `connect`,
	how `/model PROVIDER:MODEL` connects one (its approval rules join the session's then). Absent: no agent at all.
	*/
	readonly agent?: {readonly model: ModelClient; readonly from: string; readonly systemPrompt?: string; readonly maxSteps?: number; readonly context?: ContextFileSettings; readonly resolve?: (spec: string) => ModelClient} | {readonly none: string; readonly status?: string; readonly connect?: AgentConnect};
};

/** How a session started without a model connects one (the host's); the model's calls then ask by the mode's rules. */
type AgentConnect = Omit<HostAgentConnect, 'connected'>;

export type InteractiveSession = {
	readonly session: OpenedSession;
	readonly controller: LiveSession;
	/** What is on disk; meaningful once the controller is closed. */
	logOutcome(): LogOutcome;
	/** Once the controller is closed: removes a log that holds nothing but its header (and its empty folder); whether it did. */
	discardIfEmpty(): Promise<boolean>;
};

export async function openInteractiveSession(options: InteractiveSessionOptions): Promise<InteractiveSession> {
	const {rules: configRules = [], agent, userCommands, mode = new SessionMode(), ...host} = options;
	// The agent's rules are the mode's of the moment, once a model is there (`/model` may connect one later).
	let modelThere = agent !== undefined && !('none' in agent);
	const rules = (): readonly AskRule[] => modelThere ? [...configRules, ...agentAskRules(mode.current)] : configRules;
	const connect = agent !== undefined && 'none' in agent ? agent.connect : undefined;
	const native = await openNativeSession({
		...host,
		mode,
		rules,
		...(agent === undefined ? {} : {agent: 'none' in agent ? {none: agent.none, ...(agent.status === undefined ? {} : {status: agent.status}), ...(connect === undefined ? {} : {connect: {...connect, connected() {
			modelThere = true;
		}}})} : agent}),
	});
	const {session} = native;
	const forks = sessionForks(session);
	const controller = new LiveSession({
		cwd: options.cwd,
		...(userCommands === undefined || userCommands.length === 0 ? {} : {commands: withUserCommands(BUILTIN_COMMANDS, userCommands)}),
		...sessionFeeds(session),
		driver: nativeDriver({session, cwd: options.cwd, ...(native.agent === undefined ? {} : {agent: native.agent}), problem: {now: native.problem, onChange: native.onProblem}, shutdown: native.shutdown}),
		history: await PromptHistory.load(historyPath(options.root, options.cwd)),
		...(native.childSessions === undefined ? {} : {childSessions: native.childSessions}),
		...(native.pagerSource === undefined ? {} : {pagerSource: native.pagerSource}),
		undo: nativeUndo(session, options.cwd, shadowPath(options.root, options.cwd)),
		...(forks === undefined ? {} : {forks}),
	});
	return {session, controller, logOutcome: native.logOutcome, discardIfEmpty: native.discardIfEmpty};
}
