/**
Shared fixtures for the registry and pipeline tests: a raw `echo` definition (the registry accepts
raw definitions that validate their own input), an execution input, and a recorder that logs the
order of every hook phase.
*/
import type {ToolRegistry} from '../../src/tools/registry.js';
import type {PostToolDecision, PreToolDecision, ToolDefinition, ToolExecutionInput, ToolExecutionResult, ToolRunContext} from '../../src/tools/types.js';

/** A raw definition of `echo`: `{value: string}` in, the string out, rendered as one text block. */
export function echoTool(overrides: Partial<ToolDefinition> = {}): ToolDefinition & {calls: unknown[]} {
	const calls: unknown[] = [];
	return {
		name: 'echo',
		description: 'Echo a value.',
		parameters: {type: 'object', properties: {value: {type: 'string'}}, required: ['value']},
		output: {
			schema: {type: 'string'},
			render: (_args, value) => [{type: 'text', text: `echo: ${String(value)}`}],
		},
		async execute(args: unknown, _exec: ToolRunContext) {
			calls.push(args);
			return (args as {value: unknown}).value;
		},
		...overrides,
		calls,
	};
}

/** An execution input for `echo` with a fresh, live signal. */
export function callInput(overrides: Partial<ToolExecutionInput> = {}): ToolExecutionInput {
	return {callId: 'call-1', name: 'echo', arguments: {value: 'hi'}, signal: new AbortController().signal, ...overrides};
}

/** The success `echo` produces for `value`. */
export function echoSuccess(value: string): ToolExecutionResult {
	return {isError: false, value, content: [{type: 'text', text: `echo: ${value}`}]};
}

/** A generic failure as the pipeline builds it. */
export function failure(message: string, info?: {name: string; code: string}): ToolExecutionResult {
	return {isError: true, error: info === undefined ? {message} : {message, info}, content: [{type: 'text', text: `Error: ${message}`}]};
}

/** Listeners on every execution hook that append a phase name to `order` and pass through. */
export function recordPhases(
	registry: ToolRegistry,
	options: {pre?: () => PreToolDecision | Promise<PreToolDecision>; post?: () => PostToolDecision} = {},
): {order: string[]; results: Array<{exec: unknown; result: ToolExecutionResult}>} {
	const order: string[] = [];
	const results: Array<{exec: unknown; result: ToolExecutionResult}> = [];
	registry.on('tools/pre-execute', async (_exec, next) => {
		order.push('pre');
		return options.pre === undefined ? next() : options.pre();
	});
	registry.guard(() => {
		order.push('guard');
		return undefined;
	});
	registry.on('tools/execute', async (_exec, next) => {
		order.push('execute');
		return next();
	});
	registry.on('tools/post-execute', async (_exec, _result, next) => {
		order.push('post');
		return options.post === undefined ? next() : options.post();
	});
	registry.on('tools/result', (exec, result) => {
		order.push('result');
		results.push({exec, result});
	});
	return {order, results};
}
