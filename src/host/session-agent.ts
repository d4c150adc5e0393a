/**
@module The agent loop on an opened session: the model drives the session's runtime, registry,
log and jobs (a continued session's events are its conversation so far), with the instruction
files of its workspace (none when `--system-prompt` replaces the prompt).
*/
import {createAgent, type CreatedAgent} from '../agent/create-agent.js';
import type {ContextOptions} from '../agent/agent-loop.js';
import type {ContextWindow} from '../agent/context-ledger.js';
import {contextOptions, contextWindowOf, toolSearchSettings, type ContextConfig} from '../agent/context-settings.js';
import {servedWindow} from '../agent/served-window.js';
import type {ModelClient} from '../agent/model-types.js';
import type {ContextFileSettings} from '../config/config-schema.js';
import type {SessionEvent} from '../session/events/events.js';
import {InstructionReader, type Instructions} from './instruction-files.js';
import {rememberNested, watchNestedInstructions} from './nested-instructions.js';
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

/**
The agent, and the instruction files it has read (`undefined`: `--system-prompt` replaced them): its
system prompt's, then those of folders it first worked in, read again at each call.
*/
export type SessionAgent = CreatedAgent & {instructions(): Instructions | undefined};

/**
The agent's context options for `model` from the config's section: its window (the config's per
model, else what a self-hosted server says it serves, else the catalog's), compaction, the budget.
*/
export async function agentContext(model: ModelClient, settings: ContextFileSettings = {}): Promise<ContextOptions> {
	const window = modelWindow(model, settings);
	return contextOptions(await (window.served ?? window.now), configOf(model, settings));
}

/**
The window of `model`: what is known `now` (the config's figure for it, else the catalog's) and, for
a self-hosted server the config gives no figure for, what the server says it `served` (its answer, or
`now` when it says nothing).
*/
export function modelWindow(model: ModelClient, settings: ContextFileSettings = {}): {readonly now: ContextWindow | undefined; readonly served?: Promise<ContextWindow | undefined>} {
	const config = configOf(model, settings);
	const now = contextWindowOf(model.model, config);
	if (config.window !== undefined || model.endpoint === undefined) {
		return {now};
	}

	return {now, served: servedWindow(model.endpoint, model.model).then(served => served ?? now)};
}

/** The context options of `model` with `window` (its tool results' budget scaled to it), as `/model` applies them. */
export function modelContext(model: ModelClient, window: ContextWindow | undefined, settings: ContextFileSettings = {}): ContextOptions {
	return contextOptions(window, configOf(model, settings));
}

function configOf(model: ModelClient, settings: ContextFileSettings): ContextConfig {
	const {windows, ...rest} = settings;
	return {...rest, ...(windows?.[model.model] === undefined ? {} : {window: windows[model.model]})};
}

export async function sessionAgent(session: OpenedSession, options: SessionAgentOptions): Promise<SessionAgent> {
	const toolSearch = toolSearchSettings(options.context?.toolSearch);
	const reader = options.systemPrompt === undefined ? await InstructionReader.open(options.cwd, options.env ?? process.env) : undefined;
	// The system prompt's files; a continued session's nested ones are in its conversation already.
	const instructions = reader?.instructions();
	if (reader !== undefined && options.history !== undefined) {
		await rememberNested(reader, options.history);
	}

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
		// Only a session with MCP servers has tools to defer.
		...(session.mcp === undefined || toolSearch === undefined ? {} : {toolSearch}),
		images: attachment => session.attachments.bytes(attachment),
	});
	const stopNested = reader === undefined ? undefined : watchNestedInstructions(session, reader, options.cwd);
	return {
		...created,
		dispose() {
			stopNested?.();
			created.dispose();
		},
		instructions: () => reader?.instructions(),
	};
}
