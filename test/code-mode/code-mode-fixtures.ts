/** Fixtures for the Code Mode tests: a registry in `both` mode with small raw tools and the transport attached. */
import {codeModeTransport, type CodeModeTransportOptions} from '../../src/code-mode/run-code-tool.js';
import type {CodeDispatchEvent} from '../../src/code-mode/code-mode-types.js';
import {ToolRegistry} from '../../src/tools/registry.js';
import type {ToolDefinition, ToolExecution, ToolExecutionResult, ToolRunContext} from '../../src/tools/types.js';

/** A raw tool: `render` prints `<name>: <JSON value>`; `presentationMeta` exists so its absence on sub-calls shows. */
export function rawTool(name: string, body: (args: unknown, exec: ToolRunContext) => Promise<unknown>, safe: (args: unknown) => boolean = () => false): ToolDefinition {
	return {
		name,
		description: `The ${name} fixture.`,
		parameters: {type: 'object', properties: {}},
		output: {
			schema: {},
			render: (_args, value) => [{type: 'text', text: `${name}: ${JSON.stringify(value)}`}],
			presentationMeta: () => ({meta: name}),
		},
		execute: body,
		isConcurrencySafe: safe,
	};
}

/** What a test harness observed. */
export type Harness = {
	readonly registry: ToolRegistry;
	readonly events: CodeDispatchEvent[];
	/** Every `tools/result` (exec, result) in order, run_code's own last. */
	readonly results: Array<{exec: Readonly<ToolExecution>; result: ToolExecutionResult}>;
	run(code: string, options?: {signal?: AbortSignal; callId?: string; description?: string}): Promise<ToolExecutionResult>;
};

/** A `both`-mode registry with `tools` registered and the transport attached with `options`. */
export function harness(tools: readonly ToolDefinition[], options: Omit<CodeModeTransportOptions, 'executor' | 'onDispatch'> = {}): Harness {
	const registry = new ToolRegistry({mode: 'both'});
	const events: CodeDispatchEvent[] = [];
	const results: Harness['results'] = [];
	for (const tool of tools) {
		registry.register(tool);
	}

	registry.attachCodeTransport(codeModeTransport({...options, executor: registry, onDispatch: event => events.push(event)}));
	registry.on('tools/result', (exec, result) => {
		results.push({exec, result});
	});
	return {
		registry,
		events,
		results,
		async run(code, {signal = new AbortController().signal, callId = 'call-1', description = 'Run a test program'} = {}) {
			return registry.execute({callId, name: 'run_code', arguments: {code, description}, agent: {id: 'agent-1'}, signal});
		},
	};
}

/** The echo tool: resolves to `args.value`; concurrency-safe. */
export const echo = rawTool('echo', async args => (args as {value?: unknown}).value ?? null, () => true);

/** The text of a one-text-block result. */
export function textOf(result: ToolExecutionResult): string {
	const [block] = result.content;
	return block?.type === 'text' ? block.text : `<${block?.type}>`;
}
