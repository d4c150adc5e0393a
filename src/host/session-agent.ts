/**
@module The agent loop on an opened session: the model drives the session's runtime, registry,
log and jobs (a continued session's events are its conversation so far), with the instruction
files of its workspace (none when `--system-prompt` replaces the prompt).
*/
import {createAgent, type CreatedAgent} from '../agent/create-agent.js';
import type {ContextOptions} from '../agent/agent-loop.js';
import {contextOptions, contextWindowOf, type ContextConfig} from '../agent/context-settings.js';
import {servedWindow} from '../agent/served-window.js';
import type {ModelClient} from '../agent/model-types.js';
import type {ContextFileSettings} from '../config/config-schema.js';
import type {SessionEvent} from '../session/events/events.js';
import {loadInstructions, type Instructions} from './instruction-files.js';
import type {OpenedSession} from './open-session.js';

/**
`longWaits: 'stop'` where no person can cancel a long wait the provider asks for (`-p`);
`maxSteps` and `stallTimeoutMs` from the flags or the config.
*/
export type SessionAgentOptions = {
	readonly cwd: string;
	readonly model: ModelClient;
	readonly systemPrompt?: string;
	readonly maxSteps?: number;
	readonly stallTimeoutMs?: number;
	readonly longWaits?: 'wait' | 'stop';
	readonly history?: Iterable<SessionEvent>;
	/** The config's `context` section. */
	readonly context?: ContextFileSettings;
	/** Where the user's instruction file is found (`XDG_CONFIG_HOME`); default the process's. */
	readonly env?: NodeJS.ProcessEnv;
};

/** The agent, and the instruction files its system prompt holds (`undefined`: `--system-prompt` replaced them). */
export type SessionAgent = CreatedAgent & {readonly instructions: Instructions | undefined};

/**
The agent's context options for `model` from the config's section: its window (the config's per
model, else what a self-hosted server says it serves, else the catalog's), compaction, the budget.
*/
export async function agentContext(model: ModelClient, settings: ContextFileSettings = {}): Promise<ContextOptions> {
	const {windows, ...rest} = settings;
	const config: ContextConfig = {...rest, ...(windows?.[model.model] === undefined ? {} : {window: windows[model.model]})};
	const served = config.window === undefined && model.endpoint !== undefined ? await servedWindow(model.endpoint, model.model) : undefined;
	return contextOptions(contextWindowOf(model.model, config, served), config);
}

export async function sessionAgent(session: OpenedSession, options: SessionAgentOptions): Promise<SessionAgent> {
	const instructions = options.systemPrompt === undefined ? await loadInstructions(options.cwd, options.env ?? process.env) : undefined;
	const created = await createAgent({
		cwd: options.cwd,
		runtime: session.runtime,
		log: session.log,
		registry: session.registry,
		model: options.model,
		jobs: session.jobs,
		context: await agentContext(options.model, options.context),
		...(options.systemPrompt === undefined ? {} : {systemPrompt: options.systemPrompt}),
		...(options.maxSteps === undefined ? {} : {maxSteps: options.maxSteps}),
		...(options.stallTimeoutMs === undefined ? {} : {stallTimeoutMs: options.stallTimeoutMs}),
		...(options.longWaits === undefined ? {} : {longWaits: options.longWaits}),
		...(options.history === undefined ? {} : {history: options.history}),
		...(instructions === undefined ? {} : {instructions}),
		images: attachment => session.attachments.bytes(attachment),
	});
	return Object.assign(created, {instructions});
}
