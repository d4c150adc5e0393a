/**
@module `codeModeTransport`: the `run_code` tool definition that `ToolRegistry.attachCodeTransport`
installs (contract.md §T6.2). A raw definition: it validates its own arguments, and its
presenter is lenient (replayed logs may carry anything).
*/
import {isPlainRecord} from '../json/is-plain-record.js';
import {ToolArgsError} from '../tools/errors.js';
import type {ToolDefinition} from '../tools/types.js';
import type {GenericCallView} from '../tools/views.js';
import type {CodeDispatchEvent, CodeModeExecutor} from './code-mode-types.js';
import {renderRunCode, type RunCodeValue} from './render-run-code.js';

/** Configuration of the transport. Every limit has a default. */
export type CodeModeTransportOptions = {
	/** The registry (or anything shaped like it) that sub-calls run through. */
	readonly executor: CodeModeExecutor;
	/** Wall-clock limit of one program (default 120 000 ms). */
	readonly timeoutMs?: number;
	/** Sub-call bodies that may overlap (default: the executor's `maxParallelSubCalls`, else 10). */
	readonly maxParallelSubCalls?: number;
	/** Characters of captured log text per run (default 1 000 000); more fails the run (`output-limit`). */
	readonly maxLogChars?: number;
	/** Characters of the returned value's JSON (default 1 000 000); more fails the run (`output-limit`). */
	readonly maxResultChars?: number;
	/** Heap limit of the program's worker in MiB (default 512). */
	readonly memoryLimitMb?: number;
	/** Receives `tool/code-dispatch-start` / `tool/code-dispatch` for every started sub-call; a throw is ignored. */
	readonly onDispatch?: (event: CodeDispatchEvent) => void;
	/** The program's `process.env` (default: a copy of this process's). */
	readonly env?: NodeJS.ProcessEnv;
};

/** Name of the transport tool. */
export const runCodeToolName = 'run_code';

// What `description` is, the system prompt says once for every tool (TOOL_CONVENTIONS).
const description = [
	'Run JavaScript that calls tools: `code` is an async function body (top-level await, return).',
	'`await tools.name(args)` (tools[\'a-b\'](args) for other names) gives the tool\'s value or throws a ToolCallError (toolName, message).',
	'Read-only calls may overlap (Promise.all); mutating ones run alone, in order. Only console.log output and the return value come back.',
	'No static import; use await import(\'node:fs\').',
].join(' ');

function positiveInteger(name: string, value: number): number {
	if (!Number.isSafeInteger(value) || value <= 0) {
		throw new Error(`${name} must be a positive integer`);
	}

	return value;
}

/** Check `run_code` arguments: `{code: string, description: non-blank string}`. */
function readRunCodeArgs(args: unknown): {code: string; description: string} {
	if (!isPlainRecord(args)) {
		throw new ToolArgsError(['"arguments" must be an object']);
	}

	const violations: string[] = [];
	for (const key of ['code', 'description'] as const) {
		if (args[key] === undefined) {
			violations.push(`missing required property "${key}"`);
		}
	}

	for (const key of ['code', 'description'] as const) {
		if (args[key] !== undefined && typeof args[key] !== 'string') {
			violations.push(`"${key}" must be a string`);
		}
	}

	if (violations.length > 0) {
		throw new ToolArgsError(violations);
	}

	const {code, description: label} = args as {code: string; description: string};
	if (label.trim() === '') {
		throw new Error('invalid description: expected a non-empty string');
	}

	return {code, description: label};
}

/** `presentCall` of `run_code`: the model's label as title, the program as input. */
export function presentRunCodeCall(args: unknown): GenericCallView | undefined {
	if (!isPlainRecord(args) || typeof args.code !== 'string' || typeof args.description !== 'string') {
		return undefined;
	}

	return {card: 'generic', title: args.description, kind: 'execute', rawInput: args.code};
}

/** The `run_code` definition, for `registry.attachCodeTransport(codeModeTransport({executor: registry}))`. */
export function codeModeTransport(options: CodeModeTransportOptions): ToolDefinition {
	const {executor, onDispatch, env} = options;
	const limits = {
		executor,
		timeoutMs: positiveInteger('timeoutMs', options.timeoutMs ?? 120_000),
		maxParallelSubCalls: positiveInteger('maxParallelSubCalls', options.maxParallelSubCalls ?? executor.maxParallelSubCalls ?? 10),
		maxLogChars: positiveInteger('maxLogChars', options.maxLogChars ?? 1_000_000),
		maxResultChars: positiveInteger('maxResultChars', options.maxResultChars ?? 1_000_000),
		memoryLimitMb: positiveInteger('memoryLimitMb', options.memoryLimitMb ?? 512),
		...(onDispatch === undefined ? {} : {onDispatch}),
		...(env === undefined ? {} : {env}),
	};
	return {
		name: runCodeToolName,
		description,
		parameters: {
			type: 'object',
			properties: {
				code: {type: 'string'},
				description: {type: 'string'},
			},
			required: ['code', 'description'],
		},
		output: {
			schema: {
				type: 'object',
				additionalProperties: false,
				properties: {logs: {type: 'array', items: {type: 'string'}}, result: {}},
				required: ['logs'],
			},
			render: (_args, value) => renderRunCode(value as unknown as RunCodeValue),
		},
		async execute(args, exec) {
			const {code} = readRunCodeArgs(args);
			// The worker's modules load on the first program: building the tool (replay's presenter) does not load them.
			const {runProgram} = await import('./run-program.js');
			return runProgram(code, exec, limits);
		},
		presentCall: presentRunCodeCall,
	};
}
