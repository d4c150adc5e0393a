/**
@module The `ctx` a plugin in the seed's shape receives (`export function apply(ctx)`, tool authoring
reference, "最小構成"): `ctx.tools` (register, guard), `ctx.on` (the registry's hooks), `ctx.jobs`
(background jobs, contract.md §T5), `ctx.effect`, and `ctx.workspace`: the session's workspace and
the containment the file tools apply, so a plugin's tools reach only what the reference tools may. Everything registered through it is owned
by the plugin: disposing the plugin ends it, last registered first. Jobs are not: they belong to
their owner agent, so disposing the plugin that started them does not stop them (§T5.4). A tool is
registered as it is when registered (`pinnedTool`): a plugin that changes its definition later
cannot change what the model is offered.
*/
import {WorkspaceGuard} from '../builtin/workspace/workspace-guard.js';
import {snapshotJsonValue} from '../json/snapshot-json.js';
import type {JobRuntime} from '../jobs/job-runtime.js';
import type {JobId, JobStart} from '../jobs/job-types.js';
import {thrownMessage} from '../tools/errors.js';
import type {HookListenerOptions, ToolRegistry} from '../tools/registry.js';
import type {ToolGuard, ToolHookListeners, ToolHookName} from '../tools/registry-hooks.js';
import type {ToolDefinition, ToolSchema} from '../tools/types.js';

/** What a session lends its plugins. */
export type PluginHost = {
	readonly registry: ToolRegistry;
	readonly jobs: JobRuntime;
	/** The session's workspace (`--cwd`). */
	readonly workspace: string;
	/** Where a failing cleanup is reported (disposal goes on). */
	readonly report: (message: string) => void;
};

/** A cleanup an effect returns; may be async. */
type EffectCleanup = () => void | Promise<void>;

/** The jobs service as a plugin sees it: producers start jobs, controllers read and stop them. */
type PluginJobs = Pick<JobRuntime, 'get' | 'list' | 'read' | 'kill' | 'wait'> & {
	start(spec: JobStart): JobId;
	/** Effect-scoped: detached when the plugin is disposed. */
	attachController: JobRuntime['attachController'];
	/** Effect-scoped: unsubscribed when the plugin is disposed. */
	onJobDone: JobRuntime['onJobDone'];
	/** Effect-scoped: unsubscribed when the plugin is disposed. */
	onJobsChanged: JobRuntime['onJobsChanged'];
};

/** What `apply(ctx)` receives. Every method that registers returns that registration's own disposer. */
export type PluginContext = {
	readonly tools: {
		/** Register a tool; unregistered when the plugin is disposed. */
		register(definition: ToolDefinition): () => void;
		/** Add a monotonic guard (a string denies the call); removed when the plugin is disposed. */
		guard(fn: ToolGuard): () => void;
		get(name: string): ToolDefinition | undefined;
		schemas(): ToolSchema[];
	};
	/** Listen to a tool hook (`tools/pre-execute`, `tools/execute`, `tools/post-execute`, `tools/result`, …); removed on disposal. */
	on<H extends ToolHookName>(hook: H, listener: ToolHookListeners[H], options?: HookListenerOptions): () => void;
	readonly jobs: PluginJobs;
	/** Run `setup` now; the cleanup it returns runs when the plugin is disposed (or when the returned function is called). */
	effect(setup: () => EffectCleanup | void, label?: string): () => void;
	readonly workspace: {
		/** The session's workspace, absolute: where tools run, and what a relative path means. */
		readonly root: string;
		/**
		`path` (relative to the root, or absolute) with every link resolved, when it lies inside the
		workspace; else rejects as the file tools do (`FS_OUTSIDE_WORKSPACE`, `FS_INVALID_PATH`). Open
		what it returns, not `path`: a link swapped in later no longer matters.
		*/
		resolve(path: string): Promise<string>;
	};
};

/** A plugin's context and the disposal that ends everything registered through it. */
export type PluginScope = {
	readonly ctx: PluginContext;
	/** End every registration, last first; a failing cleanup is reported and the others still run. Never rejects. */
	dispose(): Promise<void>;
};

/**
A plugin's tool with its parameters and description read once, now: the parameters checked to be
JSON and kept as a frozen copy. The registry reads a tool's parameters at every request and throws
for all tools when one is not JSON, so a plugin that broke its own definition after registering it
would break every later turn; everything else (execute, presenters, …) is the plugin's object,
reached through the prototype.
*/
export function pinnedTool(definition: ToolDefinition, plugin: string): ToolDefinition {
	if (typeof definition !== 'object' || definition === null) {
		// The registry refuses it with its own message.
		return definition;
	}

	const tool = `plugin "${plugin}": tool "${String(definition.name)}"`;
	let parameters;
	try {
		parameters = snapshotJsonValue(definition.parameters);
	} catch (error) {
		throw new Error(`${tool}: reading its parameters failed: ${thrownMessage(error)}`);
	}

	if (!parameters.ok) {
		throw new Error(`${tool}: its parameters are not JSON (a function, a cycle, a non-finite number or another non-JSON value)`);
	}

	const {description} = definition;
	return Object.create(definition, {
		parameters: {value: parameters.value, enumerable: true},
		description: {value: description, enumerable: true},
	}) as ToolDefinition;
}

export function openPluginScope(name: string, host: PluginHost): PluginScope {
	const {registry, jobs, report} = host;
	const guard = new WorkspaceGuard({workspace: host.workspace});
	const cleanups: Array<{readonly label: string; readonly run: EffectCleanup}> = [];
	let disposed = false;

	// The registration's own disposer is returned (the contract wants it, not a wrapper), and also kept
	// for the plugin's disposal; every disposer here is a no-op the second time.
	const own = <D extends EffectCleanup>(label: string, register: () => D): D => {
		if (disposed) {
			throw new Error(`plugin "${name}" is disposed: ${label} refused`);
		}

		const disposer = register();
		cleanups.push({label, run: disposer});
		return disposer;
	};

	const ctx: PluginContext = {
		tools: Object.freeze({
			register: (definition: ToolDefinition) => own(`tool "${String(definition?.name)}"`, () => registry.register(pinnedTool(definition, name))),
			guard: (fn: ToolGuard) => own('a guard', () => registry.guard(fn)),
			get: (toolName: string) => registry.get(toolName),
			schemas: () => registry.schemas(),
		}),
		on: (hook, listener, options) => own(`a ${String(hook)} listener`, () => registry.on(hook, listener, options)),
		jobs: Object.freeze({
			start: (spec: JobStart) => jobs.start(spec),
			get: jobs.get.bind(jobs),
			list: jobs.list.bind(jobs),
			read: jobs.read.bind(jobs),
			kill: jobs.kill.bind(jobs),
			wait: jobs.wait.bind(jobs),
			attachController: (controller: string) => own(`job controller "${controller}"`, () => jobs.attachController(controller)),
			onJobDone: listener => own('a job-done listener', () => jobs.onJobDone(listener)),
			onJobsChanged: listener => own('a jobs-changed listener', () => jobs.onJobsChanged(listener)),
		}),
		workspace: Object.freeze({
			root: guard.workspace,
			resolve: async (path: string) => (await guard.resolve(path)).real,
		}),
		effect(setup, label = 'an effect') {
			const stop = own(label, () => {
				const returned = setup();
				let ran = false;
				return async () => {
					if (!ran && typeof returned === 'function') {
						ran = true;
						await returned();
					}
				};
			});
			return () => {
				stop().catch((error: unknown) => {
					report(`plugin "${name}": cleanup of ${label} failed: ${thrownMessage(error)}`);
				});
			};
		},
	};

	return {
		ctx: Object.freeze(ctx),
		async dispose() {
			if (disposed) {
				return;
			}

			disposed = true;
			for (const {label, run} of cleanups.reverse()) {
				try {
					// eslint-disable-next-line no-await-in-loop -- teardown is ordered, last registered first
					await run();
				} catch (error) {
					report(`plugin "${name}": removing ${label} failed: ${thrownMessage(error)}`);
				}
			}

			cleanups.length = 0;
		},
	};
}
