/**
@module `ToolRegistry`: registration, schema projection, hooks, guards and the execution pipeline
(contract.md §T3). One global layer; scopes (§T3.4) are not implemented.
*/
import {snapshotJsonValue} from '../json/snapshot-json.js';
import {assertSupportedJsonSchema} from '../schema/index.js';
import type {ContentBlock} from './content.js';
import {runCodeToolName, runToolExecution, type PipelineHost, type ToolMode} from './execute-pipeline.js';
import {HookList, runWaterfall, type HookListenerOptions} from './hook-list.js';
import {mutableJsonCopy} from './mutable-json-copy.js';
import type {
	ChangeListener,
	CodeDispatchLog,
	CodeDispatchLogListener,
	ExecuteListener,
	PostExecuteListener,
	PreExecuteListener,
	ResultListener,
	ToolGuard,
	ToolHookListeners,
	ToolHookName,
} from './registry-hooks.js';
import type {ApprovalHandler, ToolDefinition, ToolExecutionInput, ToolExecutionResult, ToolSchema} from './types.js';

export {runCodeToolName, type ToolMode} from './execute-pipeline.js';
export type {HookListenerOptions} from './hook-list.js';
export type {
	ChangeListener,
	CodeDispatchLog,
	CodeDispatchLogListener,
	ExecuteListener,
	PostExecuteListener,
	PreExecuteListener,
	ResultListener,
	ToolGuard,
	ToolHookListeners,
	ToolHookName,
} from './registry-hooks.js';

/** How `ToolRegistry` is configured. */
export type ToolRegistryOptions = {
	/** What the model may call directly (default `native`); `run_code` is visible in `code` and `both`. */
	readonly mode?: ToolMode;
	/** How many Code Mode sub-call bodies may overlap (default 10). Read by the `run_code` transport. */
	readonly maxParallelSubCalls?: number;
	/** The approval service `ask` decisions are routed to; absent means `ask` denies. */
	readonly approval?: ApprovalHandler;
	/** Where contained observer failures are reported (default `console.error`). */
	readonly logError?: (message: string) => void;
};

/** `executionMode` verdict: may this call's body overlap with others? */
export type ToolConcurrency = {readonly kind: 'parallel'} | {readonly kind: 'exclusive'};

/** The input `executionMode` reads: the call's name, arguments and (for the code-mode collapse) parent. */
export type ToolConcurrencyInput = Pick<ToolExecutionInput, 'name' | 'arguments' | 'parent'>;

const parallel: ToolConcurrency = Object.freeze({kind: 'parallel'});
const exclusive: ToolConcurrency = Object.freeze({kind: 'exclusive'});
const modes: readonly ToolMode[] = ['native', 'code', 'both'];
const defaultMaxParallelSubCalls = 10;

/** One registration; the disposer removes the map entry only while it is still this record. */
type Registration = {readonly name: string; readonly definition: ToolDefinition};

/**
The tool registry. Definitions are borrowed, not copied: do not mutate one after registering it;
dispose and re-register to swap it.
*/
export class ToolRegistry {
	/** The presentation mode this registry was built with. */
	readonly mode: ToolMode;
	/** The Code Mode sub-call parallelism bound. */
	readonly maxParallelSubCalls: number;
	readonly #logError: (message: string) => void;
	readonly #tools = new Map<string, Registration>();
	#transport: Registration | undefined;
	readonly #hooks: {readonly [H in ToolHookName]: HookList<ToolHookListeners[H]>} = {
		'tools/pre-execute': new HookList<PreExecuteListener>(),
		'tools/execute': new HookList<ExecuteListener>(),
		'tools/post-execute': new HookList<PostExecuteListener>(),
		'tools/result': new HookList<ResultListener>(),
		'tools/change': new HookList<ChangeListener>(),
		'tools/code-dispatch-log': new HookList<CodeDispatchLogListener>(),
	};

	readonly #guards = new HookList<ToolGuard>();
	readonly #host: PipelineHost;

	constructor(options: ToolRegistryOptions = {}) {
		const {mode = 'native', maxParallelSubCalls = defaultMaxParallelSubCalls, approval, logError} = options;
		if (!modes.includes(mode)) {
			throw new Error(`tool registry mode must be "native", "code" or "both", got ${JSON.stringify(mode) ?? String(mode)}`);
		}

		if (!Number.isSafeInteger(maxParallelSubCalls) || maxParallelSubCalls <= 0) {
			throw new Error('maxParallelSubCalls must be a positive integer');
		}

		if (approval !== undefined && typeof approval !== 'function') {
			throw new TypeError('tool registry approval must be a function');
		}

		this.mode = mode;
		this.maxParallelSubCalls = maxParallelSubCalls;
		this.#logError =
			logError ??
			((message: string) => {
				// eslint-disable-next-line no-console -- the default log of an embedder that passes none; cardterm's sessions pass the sink
				console.error(message);
			});
		const hooks = this.#hooks;
		this.#host = {
			mode,
			approval,
			resolve: name => this.#resolve(name),
			preExecute: hooks['tools/pre-execute'],
			execute: hooks['tools/execute'],
			postExecute: hooks['tools/post-execute'],
			result: hooks['tools/result'],
			guards: this.#guards,
			logError: message => {
				this.#logError(message);
			},
		};
	}

	/**
	Register a tool (§T3.2 checks, in order) and emit `tools/change`. A throwing change listener rolls
	the insertion back and its error propagates. The returned disposer unregisters exactly this
	registration (a no-op once it is gone or replaced) and emits `tools/change` again.
	*/
	register(definition: ToolDefinition): () => void {
		const name = checkDefinition(definition);
		if (name === runCodeToolName) {
			throw new Error(`tool name "${runCodeToolName}" is reserved for the Code Mode presentation transport and cannot be registered or shadowed`);
		}

		if (this.#tools.has(name)) {
			throw new Error(`tool "${name}" is already registered (for a per-agent variant, register through that agent's \`agent.ctx\` instead)`);
		}

		const registration: Registration = {name, definition};
		this.#tools.set(name, registration);
		try {
			this.#emitChange();
		} catch (error) {
			if (this.#tools.get(name) === registration) {
				this.#tools.delete(name);
			}

			throw error;
		}

		return () => {
			if (this.#tools.get(name) === registration) {
				this.#tools.delete(name);
				this.#emitChange();
			}
		};
	}

	/**
	Install the Code Mode transport (`run_code`), the one tool `register` refuses. It is visible and
	executable only when the mode is `code` or `both`. Same output checks as `register`; emits
	`tools/change` with the same rollback. The disposer detaches exactly this transport.
	*/
	attachCodeTransport(definition: ToolDefinition): () => void {
		const name = checkDefinition(definition);
		if (name !== runCodeToolName) {
			throw new Error(`code transport must be named "${runCodeToolName}", got "${name}"`);
		}

		if (this.#transport !== undefined) {
			throw new Error(`a "${runCodeToolName}" code transport is already attached to this registry`);
		}

		const registration: Registration = {name, definition};
		this.#transport = registration;
		try {
			this.#emitChange();
		} catch (error) {
			if (this.#transport === registration) {
				this.#transport = undefined;
			}

			throw error;
		}

		return () => {
			if (this.#transport === registration) {
				this.#transport = undefined;
				this.#emitChange();
			}
		};
	}

	/** The definition visible under `name`, or `undefined`. */
	get(name: string): ToolDefinition | undefined {
		return this.#resolve(name);
	}

	/**
	One fresh `{name, description, parameters}` per visible tool, in registration order, `run_code`
	last in code modes. `parameters` is a lossless deep copy the caller may mutate; a lossy one
	throws `tool "<name>" parameters must be lossless JSON before schema projection`.
	*/
	schemas(): ToolSchema[] {
		const visible = [...this.#tools.values()];
		if (this.#transportVisible()) {
			visible.push(this.#transport!);
		}

		return visible.map(({name, definition}) => {
			const lossy = new Error(`tool "${name}" parameters must be lossless JSON before schema projection`);
			let snapshot;
			try {
				snapshot = snapshotJsonValue(definition.parameters);
			} catch {
				throw lossy;
			}

			if (!snapshot.ok) {
				throw lossy;
			}

			const parameters = mutableJsonCopy(snapshot.value) as Record<string, unknown>;
			return {name, description: definition.description, parameters};
		});
	}

	/**
	`{kind:'parallel'}` only when the call resolves for execution (visible and not collapsed by
	`code` mode) and `isConcurrencySafe(arguments)` returns exactly `true`; everything else,
	including a throwing classifier or input getter, is `{kind:'exclusive'}`. Raw definitions get
	the arguments as given.
	*/
	executionMode(input: ToolConcurrencyInput): ToolConcurrency {
		try {
			const {name, parent} = input;
			if (typeof name !== 'string') {
				return exclusive;
			}

			const tool = this.#resolve(name);
			if (tool === undefined || (this.mode === 'code' && parent === undefined && name !== runCodeToolName)) {
				return exclusive;
			}

			const classifier = tool.isConcurrencySafe;
			if (typeof classifier !== 'function') {
				return exclusive;
			}

			return classifier.call(tool, input.arguments) === true ? parallel : exclusive;
		} catch {
			return exclusive;
		}
	}

	/**
	Add a monotonic guard: after the pre-execute waterfall allows a call, the first guard returning a
	string denies it with that reason. Does not emit `tools/change`. Returns the disposer.
	*/
	guard(fn: ToolGuard): () => void {
		if (typeof fn !== 'function') {
			throw new TypeError('tool guard must be a function');
		}

		return this.#guards.add(fn);
	}

	/**
	Listen to a hook. Waterfall listeners run outermost-first in registration order; `prepend`
	makes a listener the outermost (or the first observer). Returns the disposer.
	*/
	on<H extends ToolHookName>(hook: H, listener: ToolHookListeners[H], options?: HookListenerOptions): () => void {
		const list = Object.hasOwn(this.#hooks, hook) ? this.#hooks[hook] : undefined;
		if (list === undefined) {
			throw new Error(`unknown tool hook "${String(hook)}"`);
		}

		if (typeof listener !== 'function') {
			throw new TypeError(`listener for ${hook} must be a function`);
		}

		return list.add(listener, options);
	}

	/** Run the full pipeline (§T3.5). Never rejects; resolves with a deep-frozen result. */
	async execute(input: ToolExecutionInput): Promise<ToolExecutionResult> {
		return runToolExecution(this.#host, input);
	}

	/**
	The content to put in a Code Mode sub-call's durable log entry: the `tools/code-dispatch-log`
	waterfall over `log` (default `log.content`). A throwing listener or a non-array answer logs the
	original content.
	*/
	async codeDispatchLogContent(log: CodeDispatchLog): Promise<readonly ContentBlock[]> {
		const original = log.content;
		try {
			const content = await runWaterfall<CodeDispatchLogListener, readonly ContentBlock[]>(
				'tools/code-dispatch-log',
				this.#hooks['tools/code-dispatch-log'].snapshot(),
				async (listener, next) => listener(log, next),
				async () => original,
			);
			return Array.isArray(content) ? content : original;
		} catch {
			return original;
		}
	}

	#resolve(name: string): ToolDefinition | undefined {
		if (name === runCodeToolName) {
			return this.#transportVisible() ? this.#transport!.definition : undefined;
		}

		return this.#tools.get(name)?.definition;
	}

	#transportVisible(): boolean {
		return this.#transport !== undefined && this.mode !== 'native';
	}

	#emitChange(): void {
		for (const listener of this.#hooks['tools/change'].snapshot()) {
			listener();
		}
	}
}

/**
The §T3.2 checks before the name checks: an `output` declaration with a function `render` and an
optional function `presentationMeta`, a supported `output.schema` (throws `JsonSchemaError`), and a
positive finite `timeoutMs` when present. Returns the name. `parameters` is deliberately not checked.
*/
function checkDefinition(definition: ToolDefinition): string {
	if (typeof definition !== 'object' || definition === null) {
		throw new TypeError('tool definition must be an object');
	}

	const {name} = definition;
	if (typeof name !== 'string' || name === '') {
		throw new TypeError('tool definition name must be a non-empty string');
	}

	const {output} = definition;
	const render: unknown = typeof output === 'object' && output !== null ? output.render : undefined;
	const presentationMeta: unknown = typeof output === 'object' && output !== null ? output.presentationMeta : undefined;
	if (typeof render !== 'function' || (presentationMeta !== undefined && typeof presentationMeta !== 'function')) {
		throw new TypeError(`tool "${name}" must declare output { schema, render, presentationMeta? }`);
	}

	assertSupportedJsonSchema(output.schema);
	const {timeoutMs} = definition;
	if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0)) {
		throw new TypeError(`tool "${name}" timeoutMs must be a positive finite number`);
	}

	return name;
}
