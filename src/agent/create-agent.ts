/**
@module An agent loop for one session: the system prompt (or the person's replacement), the
registry's schemas and concurrency verdicts, and background-job completion notices delivered into
the next step as plugin messages.
*/
import {formatJobCompletionNotice} from '../jobs/status-line.js';
import type {JobRuntime} from '../jobs/job-runtime.js';
import type {EventLog} from '../session/events/event-log.js';
import type {SessionEvent} from '../session/events/events.js';
import type {SessionRuntime} from '../session/recorder/session-runtime.js';
import type {ToolRegistry} from '../tools/registry.js';
import type {ToolSchema} from '../tools/types.js';
import {AgentLoop, type AgentLoopOptions, type ContextOptions} from './agent-loop.js';
import type {ModelClient} from './model-types.js';
import type {RetryPolicy} from './retry-policy.js';
import {systemPrompt, type PromptInstructions} from './system-prompt.js';
import {TOOL_SEARCH_NAME, ToolSearch, type ToolSearchSettings} from './tool-search.js';

export type CreateAgentOptions = {
	readonly cwd: string;
	readonly runtime: SessionRuntime;
	readonly log: EventLog;
	readonly registry: ToolRegistry;
	readonly model: ModelClient;
	/** Replaces the whole system prompt (`--system-prompt FILE`'s text). */
	readonly systemPrompt?: string;
	/** The instruction files for the system prompt (the host loads them: `src/host/instruction-files.ts`). */
	readonly instructions?: PromptInstructions;
	/** The session's jobs: an owned job that settles unreported tells the model in a later step. */
	readonly jobs?: JobRuntime;
	readonly retry?: RetryPolicy;
	/** Steps per turn (default `DEFAULT_MAX_STEPS`). */
	readonly maxSteps?: number;
	/** A model stream silent this long is cancelled and retried (default `DEFAULT_STALL_TIMEOUT_MS`). */
	readonly stallTimeoutMs?: number;
	/** A provider's wait longer than the retry bound: taken until the person cancels (`'wait'`, default) or the turn ends (`'stop'`, no person). */
	readonly longWaits?: 'wait' | 'stop';
	/** The conversation outgrew the model's window: shrink it and resolve `true` to send the request again. */
	readonly onContextOverflow?: AgentLoopOptions['onContextOverflow'];
	/** The model's window, compaction and the tool results' budget (`context-settings.ts` makes them from the config). */
	readonly context?: ContextOptions;
	readonly now?: () => number;
	readonly platform?: string;
	/** The log so far (a resumed session). */
	readonly history?: Iterable<SessionEvent>;
	/** Defer the MCP tools' schemas past this share of the window, offering `tool_search` instead (a session with MCP servers). */
	readonly toolSearch?: ToolSearchSettings;
	/** The bytes of an image the person attached (the session's attachments). */
	readonly images?: AgentLoopOptions['images'];
};

export type CreatedAgent = {readonly loop: AgentLoop; readonly system: string; dispose(): void};

export async function createAgent(options: CreateAgentOptions): Promise<CreatedAgent> {
	const now = options.now ?? Date.now;
	// A tool that cannot work here (`web_search` without a backend) is not offered: a call of it could only fail.
	// `tool_search` is in the registry (so its calls run) and offered only while it defers the MCP tools (the loop adds it then).
	const toolSearch = options.toolSearch === undefined ? undefined : new ToolSearch(options.toolSearch);
	const stopSearch = toolSearch === undefined ? undefined : options.registry.register(toolSearch.tool);
	const offered = (): ToolSchema[] => options.registry.schemas().filter(schema => options.registry.get(schema.name)?.unavailable === undefined && schema.name !== TOOL_SEARCH_NAME);
	const system = options.systemPrompt ?? systemPrompt({
		cwd: options.cwd,
		tools: offered(),
		now: new Date(now()),
		platform: options.platform ?? `${process.platform} ${process.arch}`,
		...(options.instructions === undefined ? {} : {instructions: options.instructions}),
	});
	// `schemas()` deep-copies every tool's parameters: the model is sent the same copy until the tools change.
	let schemas: readonly ToolSchema[] | undefined;
	const stopSchemas = options.registry.on('tools/change', () => {
		schemas = undefined;
	});
	const loop = new AgentLoop({
		runtime: options.runtime,
		log: options.log,
		model: options.model,
		tools: () => {
			schemas ??= offered();
			return schemas;
		},
		isParallel: (name, args) => options.registry.executionMode({name, arguments: args}).kind === 'parallel',
		system,
		now,
		...(options.retry === undefined ? {} : {retry: options.retry}),
		...(options.maxSteps === undefined ? {} : {maxSteps: options.maxSteps}),
		...(options.stallTimeoutMs === undefined ? {} : {stallTimeoutMs: options.stallTimeoutMs}),
		...(options.longWaits === undefined ? {} : {longWaits: options.longWaits}),
		...(options.onContextOverflow === undefined ? {} : {onContextOverflow: options.onContextOverflow}),
		...(options.context === undefined ? {} : {context: options.context}),
		...(options.history === undefined ? {} : {history: options.history}),
		...(toolSearch === undefined ? {} : {toolSearch}),
		...(options.images === undefined ? {} : {images: options.images}),
	});
	const agent = options.runtime.agent;
	const stopNotices = options.jobs?.onJobDone((job, owner) => {
		if (owner === agent && !job.reported) {
			try {
				agent.inject?.({content: [{type: 'text', text: formatJobCompletionNotice(job)}], source: {kind: 'plugin', plugin: 'jobs'}});
			} catch {
				// The session is closing: nobody will read the notice.
			}
		}
	});
	return {
		loop,
		system,
		dispose() {
			stopNotices?.();
			stopSchemas();
			stopSearch?.();
			loop.dispose();
		},
	};
}
