import {describe, expect, it, vi} from 'vitest';
import {JsonSchemaError} from '../../src/schema/index.js';
import {ToolRegistry} from '../../src/tools/registry.js';
import type {PreToolDecision, ToolDefinition} from '../../src/tools/types.js';
import {callInput, echoTool, failure} from './pipeline-fixtures.js';

const reservedMessage = 'tool name "run_code" is reserved for the Code Mode presentation transport and cannot be registered or shadowed';

function runCodeTool(): ToolDefinition {
	return echoTool({name: 'run_code', description: 'Run a program.'});
}

describe('ToolRegistry construction', () => {
	it('rejects a maxParallelSubCalls that is not a positive integer', () => {
		for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
			expect(() => new ToolRegistry({maxParallelSubCalls: bad})).toThrow(new Error('maxParallelSubCalls must be a positive integer'));
		}
	});

	it('defaults to native mode and ten parallel sub-calls', () => {
		const registry = new ToolRegistry();
		expect({mode: registry.mode, max: registry.maxParallelSubCalls}).toEqual({mode: 'native', max: 10});
	});
});

describe('ToolRegistry.register', () => {
	it('refuses a definition without a render function in its output declaration', () => {
		const registry = new ToolRegistry();
		const bad = {...echoTool(), output: {schema: {type: 'string'}}} as unknown as ToolDefinition;
		expect(() => registry.register(bad)).toThrow(new TypeError('tool "echo" must declare output { schema, render, presentationMeta? }'));
		const badMeta = {...echoTool(), output: {schema: {type: 'string'}, render: () => [], presentationMeta: 1}} as unknown as ToolDefinition;
		expect(() => registry.register(badMeta)).toThrow(TypeError);
	});

	it('checks the output schema before timeoutMs, and timeoutMs before the reserved name', () => {
		const registry = new ToolRegistry();
		const badSchema = echoTool({name: 'run_code', timeoutMs: -1, output: {schema: {type: 'weird'}, render: () => []}});
		expect(() => registry.register(badSchema)).toThrow(JsonSchemaError);
		const badTimeout = echoTool({name: 'run_code', timeoutMs: 0});
		expect(() => registry.register(badTimeout)).toThrow(new TypeError('tool "run_code" timeoutMs must be a positive finite number'));
		expect(() => registry.register(echoTool({timeoutMs: Number.POSITIVE_INFINITY}))).toThrow(
			new TypeError('tool "echo" timeoutMs must be a positive finite number'),
		);
	});

	it('reserves run_code in every mode', () => {
		for (const mode of ['native', 'code', 'both'] as const) {
			expect(() => new ToolRegistry({mode}).register(runCodeTool())).toThrow(new Error(reservedMessage));
		}
	});

	it('refuses a second tool with the same name', () => {
		const registry = new ToolRegistry();
		registry.register(echoTool());
		expect(() => registry.register(echoTool())).toThrow(
			new Error('tool "echo" is already registered (for a per-agent variant, register through that agent\'s `agent.ctx` instead)'),
		);
	});

	it('does not validate parameters at registration, only when schemas() projects them', () => {
		const registry = new ToolRegistry();
		registry.register(echoTool({parameters: {type: 'object', default: Number.NaN}}));
		expect(() => registry.schemas()).toThrow(new Error('tool "echo" parameters must be lossless JSON before schema projection'));
	});

	it('emits tools/change on register and on dispose, and the disposer removes only its own registration', () => {
		const registry = new ToolRegistry();
		const changes: string[] = [];
		registry.on('tools/change', () => {
			changes.push(registry.get('echo')?.description ?? 'none');
		});
		const first = echoTool({description: 'first'});
		const disposeFirst = registry.register(first);
		disposeFirst();
		const disposeSecond = registry.register(echoTool({description: 'second'}));
		disposeFirst();
		expect(registry.get('echo')?.description).toBe('second');
		disposeSecond();
		disposeSecond();
		expect(changes).toEqual(['first', 'none', 'second', 'none']);
	});

	it('rolls the insertion back when a tools/change listener throws, so a later register succeeds once', () => {
		const registry = new ToolRegistry();
		let fail = true;
		registry.on('tools/change', () => {
			if (fail) {
				throw new Error('listener broke');
			}
		});
		expect(() => registry.register(echoTool())).toThrow(new Error('listener broke'));
		expect(registry.get('echo')).toBeUndefined();
		fail = false;
		expect(typeof registry.register(echoTool())).toBe('function');
		expect(() => registry.register(echoTool())).toThrow(/already registered/);
	});

	it('does not emit tools/change for guards', () => {
		const registry = new ToolRegistry();
		const onChange = vi.fn();
		registry.on('tools/change', onChange);
		const dispose = registry.guard(() => undefined);
		dispose();
		expect(onChange).not.toHaveBeenCalled();
	});
});

describe('ToolRegistry.schemas', () => {
	it('projects exactly name, description and parameters as fresh copies', () => {
		const registry = new ToolRegistry();
		const tool = echoTool({
			timeoutMs: 5,
			isConcurrencySafe: () => true,
			finalizeContent: () => undefined,
			presentCall: () => undefined,
		});
		registry.register(tool);
		const [schema] = registry.schemas();
		expect(schema).toEqual({
			name: 'echo',
			description: 'Echo a value.',
			parameters: {type: 'object', properties: {value: {type: 'string'}}, required: ['value']},
		});
		expect(Object.keys(schema!)).toEqual(['name', 'description', 'parameters']);
		(schema!.parameters as {type: string}).type = 'mutated';
		expect(registry.schemas()[0]!.parameters.type).toBe('object');
		expect(tool.parameters.type).toBe('object');
	});

	it('projects a 6 000-deep parameter schema without overflowing the stack, as a mutable copy', () => {
		let parameters: Record<string, unknown> = {type: 'string'};
		for (let depth = 0; depth < 6000; depth++) {
			parameters = {oneOf: [parameters, {type: 'null'}]};
		}

		const registry = new ToolRegistry();
		registry.register(echoTool({parameters}));
		let node = registry.schemas()[0]!.parameters;
		let depth = 0;
		let frozen = 0;
		while (Array.isArray(node.oneOf)) {
			frozen += Object.isFrozen(node) ? 1 : 0;
			node = node.oneOf[0] as Record<string, unknown>;
			depth++;
		}

		expect({depth, frozen, node}).toEqual({depth: 6000, frozen: 0, node: {type: 'string'}});
	});

	it('keeps a property named __proto__ as an own key of the projected parameters', () => {
		const properties = Object.defineProperty({}, '__proto__', {value: {type: 'string'}, enumerable: true, writable: true, configurable: true});
		const registry = new ToolRegistry();
		registry.register(echoTool({parameters: {type: 'object', properties}}));
		const projected = registry.schemas()[0]!.parameters.properties as Record<string, unknown>;
		expect(Object.keys(projected)).toEqual(['__proto__']);
		expect(Object.getPrototypeOf(projected)).toBe(Object.prototype);
	});

	it('lists run_code last only when a transport is attached in a code mode', () => {
		const names = (registry: ToolRegistry) => registry.schemas().map(schema => schema.name);
		for (const [mode, expected] of [
			['native', ['echo']],
			['code', ['echo', 'run_code']],
			['both', ['echo', 'run_code']],
		] as const) {
			const registry = new ToolRegistry({mode});
			registry.attachCodeTransport(runCodeTool());
			registry.register(echoTool());
			expect(names(registry)).toEqual(expected);
		}
	});
});

describe('ToolRegistry.attachCodeTransport', () => {
	it('accepts only run_code, once, and its disposer detaches it', () => {
		const registry = new ToolRegistry({mode: 'both'});
		expect(() => registry.attachCodeTransport(echoTool())).toThrow(new Error('code transport must be named "run_code", got "echo"'));
		const detach = registry.attachCodeTransport(runCodeTool());
		expect(() => registry.attachCodeTransport(runCodeTool())).toThrow(
			new Error('a "run_code" code transport is already attached to this registry'),
		);
		expect(registry.get('run_code')?.description).toBe('Run a program.');
		detach();
		expect(registry.get('run_code')).toBeUndefined();
	});

	it('keeps run_code unresolvable in native mode', async () => {
		const registry = new ToolRegistry();
		registry.attachCodeTransport(runCodeTool());
		expect(registry.get('run_code')).toBeUndefined();
		const result = await registry.execute(callInput({name: 'run_code'}));
		expect(result).toEqual(failure('unknown tool "run_code"', {name: 'ToolNotFoundError', code: 'UNKNOWN_TOOL'}));
	});

	it('collapses model-direct calls under code mode before any pre-execute listener runs, but not nested calls or run_code', async () => {
		const registry = new ToolRegistry({mode: 'code'});
		const transport = runCodeTool();
		registry.attachCodeTransport(transport);
		const tool = echoTool();
		registry.register(tool);
		const pre = vi.fn(async (_exec: unknown, next: () => Promise<PreToolDecision>) => next());
		registry.on('tools/pre-execute', pre);
		const direct = await registry.execute(callInput());
		expect(direct).toEqual(
			failure('unknown tool "echo": only `run_code` is callable directly — call `echo` from inside a `run_code` program instead', {
				name: 'ToolNotFoundError',
				code: 'UNKNOWN_TOOL',
			}),
		);
		expect(pre).not.toHaveBeenCalled();
		const nested = await registry.execute(callInput({parent: Symbol('outer')}));
		expect(nested).toEqual({isError: false, value: 'hi', content: [{type: 'text', text: 'echo: hi'}]});
		const viaTransport = await registry.execute(callInput({name: 'run_code'}));
		expect(viaTransport.isError).toBe(false);
		expect(pre).toHaveBeenCalledTimes(2);
	});
});

describe('ToolRegistry.executionMode', () => {
	it('is parallel only for a visible tool whose classifier returns exactly true', () => {
		const registry = new ToolRegistry();
		const seen: unknown[] = [];
		registry.register(
			echoTool({
				isConcurrencySafe(args) {
					seen.push(args);
					return (args as {safe: unknown}).safe as boolean;
				},
			}),
		);
		registry.register(echoTool({name: 'throws', isConcurrencySafe: () => {
			throw new Error('no');
		}}));
		registry.register(echoTool({name: 'undeclared'}));
		const mode = (name: string, args: unknown) => registry.executionMode({name, arguments: args});
		const raw = {safe: true};
		expect(mode('echo', raw)).toEqual({kind: 'parallel'});
		expect(seen[0]).toBe(raw);
		expect(mode('echo', {safe: 1})).toEqual({kind: 'exclusive'});
		expect(mode('echo', {safe: 'true'})).toEqual({kind: 'exclusive'});
		expect(mode('throws', {})).toEqual({kind: 'exclusive'});
		expect(mode('undeclared', {})).toEqual({kind: 'exclusive'});
		expect(mode('nope', {})).toEqual({kind: 'exclusive'});
	});

	it('is exclusive for a collapsed code-mode call and parallel for the same call nested', () => {
		const registry = new ToolRegistry({mode: 'code'});
		registry.register(echoTool({isConcurrencySafe: () => true}));
		expect(registry.executionMode({name: 'echo', arguments: {}})).toEqual({kind: 'exclusive'});
		expect(registry.executionMode({name: 'echo', arguments: {}, parent: Symbol('outer')})).toEqual({kind: 'parallel'});
	});
});

describe('ToolRegistry.on', () => {
	it('runs waterfall listeners earliest-registered outermost, with prepend taking the outermost place', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool());
		const order: string[] = [];
		const listener = (label: string) => async (_exec: unknown, next: () => Promise<PreToolDecision>) => {
			order.push(`${label} in`);
			const decision = await next();
			order.push(`${label} out`);
			return decision;
		};

		registry.on('tools/pre-execute', listener('first'));
		const disposeSecond = registry.on('tools/pre-execute', listener('second'));
		registry.on('tools/pre-execute', listener('prepended'), {prepend: true});
		await registry.execute(callInput());
		expect(order).toEqual(['prepended in', 'first in', 'second in', 'second out', 'first out', 'prepended out']);
		order.length = 0;
		disposeSecond();
		await registry.execute(callInput());
		expect(order).toEqual(['prepended in', 'first in', 'first out', 'prepended out']);
	});

	it('refuses an unknown hook name', () => {
		const registry = new ToolRegistry();
		expect(() => registry.on('tools/nope' as 'tools/change', () => undefined)).toThrow(new Error('unknown tool hook "tools/nope"'));
	});

	it('passes a sub-call log through tools/code-dispatch-log and logs the original content when a listener throws', async () => {
		const registry = new ToolRegistry();
		const log = {rootCallId: 'r', parentCallId: 'p', subCallId: 'p:code:1', name: 'echo', arguments: {}, isError: false, content: [{type: 'text', text: 'long'}]} as const;
		expect(await registry.codeDispatchLogContent(log)).toBe(log.content);
		const dispose = registry.on('tools/code-dispatch-log', async () => [{type: 'text', text: 'preview'}]);
		expect(await registry.codeDispatchLogContent(log)).toEqual([{type: 'text', text: 'preview'}]);
		dispose();
		registry.on('tools/code-dispatch-log', () => {
			throw new Error('spill failed');
		});
		expect(await registry.codeDispatchLogContent(log)).toBe(log.content);
	});
});
