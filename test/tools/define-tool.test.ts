import {describe, expect, it} from 'vitest';
import {JsonSchemaError} from '../../src/schema/index.js';
import {defineTool, type DefineToolOptions} from '../../src/tools/define-tool.js';
import {ToolArgsError} from '../../src/tools/errors.js';
import {ToolRegistry} from '../../src/tools/registry.js';
import type {ToolRunContext} from '../../src/tools/types.js';
import type {ToolCallView, ToolResult, ToolResultView} from '../../src/tools/views.js';

/** A body context for direct `execute` calls; these tests never touch its members. */
const exec = {name: 'read'} as unknown as ToolRunContext;

const readParameters = {path: {type: 'string', required: true}, limit: {type: 'integer'}} as const;
const readOutput = {type: 'object', additionalProperties: false, properties: {text: {type: 'string', required: true}}} as const;

/** A `read` tool whose callbacks record what they receive. */
function readTool(overrides: Partial<DefineToolOptions<typeof readParameters, typeof readOutput>> = {}) {
	const calls = {execute: [] as unknown[], presentCall: [] as unknown[], presentResult: [] as unknown[], isConcurrencySafe: [] as unknown[]};
	const callView: ToolCallView = {card: 'generic', title: 'Read'};
	const resultView: ToolResultView = {card: 'generic', title: 'Read done'};
	const options: DefineToolOptions<typeof readParameters, typeof readOutput> = {
		name: 'read',
		description: 'Read a file.',
		parameters: readParameters,
		output: {schema: readOutput, render: (_args, value) => [{type: 'text', text: value.text}]},
		async execute(args) {
			calls.execute.push(args);
			return {text: `contents of ${args.path}`};
		},
		presentCall(args) {
			calls.presentCall.push(args);
			return callView;
		},
		presentResult(args) {
			calls.presentResult.push(args);
			return resultView;
		},
		isConcurrencySafe(args) {
			calls.isConcurrencySafe.push(args);
			return args.limit === undefined;
		},
		...overrides,
	};
	return {tool: defineTool(options), options, calls, callView, resultView};
}

const someResult: ToolResult = {content: [{type: 'text', text: 'x'}], isError: false};

describe('defineTool: definition-time checks (§T2.2)', () => {
	const minimal = {
		name: 'probe',
		description: 'Probe.',
		parameters: {},
		output: {schema: {type: 'string'}, render: () => []},
		execute: async () => 'ok',
	} as const;

	it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('rejects timeoutMs %s before compiling anything', timeoutMs => {
		const bad = {...minimal, timeoutMs, parameters: {x: {type: 'weird'}}} as unknown as DefineToolOptions<{}, {type: 'string'}>;
		expect(() => defineTool(bad)).toThrowError(new Error('defineTool(probe): timeoutMs must be a positive finite number'));
	});

	it('compiles parameters before the output schema', () => {
		const bad = {...minimal, parameters: {x: {type: 'weird'}}, output: {schema: {type: 'object'}, render: () => []}} as unknown as DefineToolOptions<
			{},
			{type: 'string'}
		>;
		expect(() => defineTool(bad)).toThrowError(
			new JsonSchemaError(['parameters.x.type must be string/number/integer/boolean/null/array/object/json, or use oneOf']),
		);
	});

	it('rejects a bad output schema with a JsonSchemaError', () => {
		const bad = {...minimal, output: {schema: {type: 'object'}, render: () => []}} as unknown as DefineToolOptions<{}, {type: 'string'}>;
		let caught: unknown;
		try {
			defineTool(bad);
		} catch (error) {
			caught = error;
		}

		expect(caught).toBeInstanceOf(JsonSchemaError);
		expect((caught as JsonSchemaError).violations).toEqual(['schema.additionalProperties must be explicitly true or false']);
	});
});

describe('defineTool: the produced definition (§T2.3)', () => {
	it('carries compiled schemas and only the optional keys that were supplied', () => {
		const tool = defineTool({
			name: 'probe',
			description: 'Probe.',
			parameters: {q: {type: 'string', required: true}},
			output: {schema: {type: 'array', items: {type: 'string'}}, render: () => []},
			execute: async () => [],
		});
		expect(Object.keys(tool)).toEqual(['name', 'description', 'parameters', 'output', 'execute']);
		expect(Object.keys(tool.output)).toEqual(['schema', 'render']);
		expect({name: tool.name, description: tool.description, parameters: tool.parameters, schema: tool.output.schema}).toEqual({
			name: 'probe',
			description: 'Probe.',
			parameters: {type: 'object', properties: {q: {type: 'string'}}, required: ['q']},
			schema: {type: 'array', items: {type: 'string'}},
		});
		expect(Object.isFrozen(tool)).toBe(true);
	});

	it('adds timeoutMs, finalizeContent, presenters, the classifier and presentationMeta when supplied', () => {
		const finalized = [{type: 'text', text: 'final'}] as const;
		const {tool} = readTool({
			timeoutMs: 5000,
			finalizeContent: () => [...finalized],
			output: {schema: readOutput, render: () => [], presentationMeta: (args, value) => ({path: args.path, length: value.text.length})},
		});
		expect(Object.keys(tool)).toEqual(['name', 'description', 'parameters', 'output', 'timeoutMs', 'execute', 'finalizeContent', 'isConcurrencySafe', 'presentCall', 'presentResult']);
		expect(tool.timeoutMs).toBe(5000);
		expect(tool.output.presentationMeta?.({path: 'a.txt'}, {text: 'abc'})).toEqual({path: 'a.txt', length: 3});
		expect(tool.finalizeContent?.({} as never, {} as never)).toEqual(finalized);
	});

	it('render delegates to the author renderer with the arguments as given', () => {
		const {tool} = readTool();
		expect(tool.output.render({path: 'a'}, {text: 'hello'})).toEqual([{type: 'text', text: 'hello'}]);
	});

	it('execute runs the body with valid arguments and resolves to its value', async () => {
		const {tool, calls} = readTool();
		const args = {path: '/tmp/a', limit: 3};
		expect(await tool.execute(args, exec)).toEqual({text: 'contents of /tmp/a'});
		expect(calls.execute).toEqual([args]);
		expect(calls.execute[0]).toBe(args);
	});

	it('execute rejects invalid arguments with ToolArgsError and never calls the body', async () => {
		const {tool, calls} = readTool();
		const rejection = tool.execute({limit: 1.5, extra: true}, exec);
		await expect(rejection).rejects.toBeInstanceOf(ToolArgsError);
		const error = (await rejection.catch((thrown: unknown) => thrown)) as ToolArgsError;
		expect({name: error.name, code: error.code, message: error.message, violations: error.violations}).toEqual({
			name: 'ToolArgsError',
			code: 'INVALID_ARGS',
			message: 'invalid arguments: missing required property "path"; "limit" must be an integer',
			violations: ['missing required property "path"', '"limit" must be an integer'],
		});
		expect(calls.execute).toEqual([]);
	});

	it('presenters return undefined for invalid arguments without calling the author, and delegate for valid ones', () => {
		const {tool, calls, callView, resultView} = readTool();
		for (const bad of [undefined, null, 'x', {path: 1}, {path: 'a', limit: Number.NaN}]) {
			expect(tool.presentCall?.(bad)).toBeUndefined();
			expect(tool.presentResult?.(bad, someResult)).toBeUndefined();
		}

		expect(calls.presentCall).toEqual([]);
		expect(calls.presentResult).toEqual([]);
		expect(tool.presentCall?.({path: 'a'})).toEqual(callView);
		expect(tool.presentResult?.({path: 'a'}, someResult)).toEqual(resultView);
		expect({presentCall: calls.presentCall, presentResult: calls.presentResult}).toEqual({presentCall: [{path: 'a'}], presentResult: [{path: 'a'}]});
	});

	it('checks one arguments object once for its call and its result (a card\'s presenters share it), another object again', () => {
		const {tool, calls} = readTool();
		let reads = 0;
		const args = {
			get path() {
				reads++;
				return 'a';
			},
		};
		expect(tool.presentCall?.(args)).toBeDefined();
		const afterCall = reads;
		expect(afterCall).toBeGreaterThan(0);
		expect(tool.presentResult?.(args, someResult)).toBeDefined();
		expect(reads).toBe(afterCall);
		expect(calls.presentResult).toEqual([args]);
		const bad = {path: 'a', limit: 1.5};
		expect(tool.presentCall?.(bad)).toBeUndefined();
		expect(tool.presentResult?.(bad, someResult)).toBeUndefined();
		expect(tool.presentResult?.({path: 'b'}, someResult)).toBeDefined();
	});

	it('the classifier answers false for invalid arguments and delegates for valid ones', () => {
		const {tool, calls} = readTool();
		expect(tool.isConcurrencySafe?.({})).toBe(false);
		expect(tool.isConcurrencySafe?.({path: 'a'})).toBe(true);
		expect(tool.isConcurrencySafe?.({path: 'a', limit: 2})).toBe(false);
		expect(calls.isConcurrencySafe).toEqual([{path: 'a'}, {path: 'a', limit: 2}]);
	});

	it('captures callbacks once: later changes to the options have no effect', async () => {
		const {tool, options} = readTool();
		const mutable = options as {-readonly [K in keyof typeof options]: unknown} & {output: Record<string, unknown>};
		mutable.execute = async () => ({text: 'swapped'});
		mutable.presentCall = () => ({card: 'generic', title: 'swapped'});
		mutable.output.render = () => [{type: 'text', text: 'swapped'}];
		mutable.parameters = {};
		expect(await tool.execute({path: 'p'}, exec)).toEqual({text: 'contents of p'});
		expect(tool.presentCall?.({path: 'p'})).toEqual({card: 'generic', title: 'Read'});
		expect(tool.output.render({path: 'p'}, {text: 't'})).toEqual([{type: 'text', text: 't'}]);
		await expect(tool.execute({}, exec)).rejects.toBeInstanceOf(ToolArgsError);
	});
});

describe('defineTool through the registry (§T7 items 5, 6, 8)', () => {
	it('item 5: invalid arguments never reach the body', async () => {
		const {tool, calls} = readTool();
		const registry = new ToolRegistry();
		registry.register(tool);
		const result = await registry.execute({callId: 'c1', name: 'read', arguments: {}, signal: new AbortController().signal});
		const message = 'invalid arguments: missing required property "path"';
		expect(result).toEqual({
			isError: true,
			error: {message, info: {name: 'ToolArgsError', code: 'INVALID_ARGS'}},
			content: [{type: 'text', text: `Error: ${message}`}],
		});
		expect(calls.execute).toEqual([]);
	});

	it('item 5: valid arguments resolve to the rendered value', async () => {
		const {tool} = readTool();
		const registry = new ToolRegistry();
		registry.register(tool);
		const result = await registry.execute({callId: 'c1', name: 'read', arguments: {path: 'a'}, signal: new AbortController().signal});
		expect(result).toEqual({isError: false, value: {text: 'contents of a'}, content: [{type: 'text', text: 'contents of a'}]});
	});

	it('item 6: malformed arguments make the call exclusive', () => {
		const {tool} = readTool();
		const registry = new ToolRegistry();
		registry.register(tool);
		expect(registry.executionMode({name: 'read', arguments: {path: 7}})).toEqual({kind: 'exclusive'});
		expect(registry.executionMode({name: 'read', arguments: {path: 'a'}})).toEqual({kind: 'parallel'});
		expect(registry.executionMode({name: 'read', arguments: {path: 'a', limit: 1}})).toEqual({kind: 'exclusive'});
	});

	it('item 8: a body value that breaks output.schema is INVALID_TOOL_OUTPUT', async () => {
		const tool = defineTool({
			name: 'label',
			description: 'Label.',
			parameters: {},
			output: {schema: {type: 'string'}, render: (_args, value) => [{type: 'text', text: value}]},
			execute: async () => 42 as unknown as string,
		});
		const registry = new ToolRegistry();
		registry.register(tool);
		const result = await registry.execute({callId: 'c1', name: 'label', arguments: {}, signal: new AbortController().signal});
		const message = 'tool "label" returned invalid output: "value" must be a string';
		expect(result).toEqual({
			isError: true,
			error: {message, info: {name: 'ToolOutputError', code: 'INVALID_TOOL_OUTPUT'}},
			content: [{type: 'text', text: `Error: ${message}`}],
		});
	});

	it('item 8: a throwing author renderer is INVALID_TOOL_OUTPUT without a value key', async () => {
		const tool = defineTool({
			name: 'label',
			description: 'Label.',
			parameters: {},
			output: {
				schema: {type: 'string'},
				render() {
					throw new Error('render boom');
				},
			},
			execute: async () => 'x',
		});
		const registry = new ToolRegistry();
		registry.register(tool);
		const result = await registry.execute({callId: 'c1', name: 'label', arguments: {}, signal: new AbortController().signal});
		expect(result.isError).toBe(true);
		expect('value' in result).toBe(false);
		expect(result.isError && result.error.info).toEqual({name: 'ToolOutputError', code: 'INVALID_TOOL_OUTPUT'});
	});

	it('inline annotations and literals type-check without as const', () => {
		const tool = defineTool({
			name: 'search',
			description: 'Search.',
			parameters: {
				mode: {type: 'string', enum: ['fast', 'deep'], default: 'fast'},
				filters: {type: 'json', default: {tags: ['a'], nested: {on: true}}, examples: [[1, 2]]},
			},
			output: {schema: {type: 'null'}, render: () => []},
			execute: async () => null,
		});
		expect(tool.parameters).toEqual({
			type: 'object',
			properties: {
				mode: {type: 'string', default: 'fast', enum: ['fast', 'deep']},
				filters: {default: {tags: ['a'], nested: {on: true}}, examples: [[1, 2]]},
			},
		});
	});
});
