import {describe, expect, it, vi} from 'vitest';
import {JsonSchemaError} from '../../src/schema/index.js';
import {HarnessError} from '../../src/tools/errors.js';
import {ToolRegistry} from '../../src/tools/registry.js';
import type {UserMessage} from '../../src/tools/content.js';
import type {PostToolDecision, ToolExecution, ToolExecutionInput, ToolExecutionResult, ToolProgress} from '../../src/tools/types.js';
import {callInput, echoSuccess, echoTool, failure} from './pipeline-fixtures.js';

const argumentsError = failure('tool execution arguments must be losslessly JSON-serializable');
const outputInfo = {name: 'ToolOutputError', code: 'INVALID_TOOL_OUTPUT'};
const abortedBeforeDispatch = failure('tool call aborted before dispatch', {name: 'AbortError', code: 'ABORTED_BEFORE_DISPATCH'});
const aborted = failure('tool call aborted', {name: 'AbortError', code: 'ABORTED'});
/** A cancellation that replaced a body's success keeps what the body returned after its line (the model reads what was done). */
const abortedAfter = (text: string) => ({...aborted, content: [...aborted.content, {type: 'text', text}]});

function message(id: string): UserMessage {
	return {id, role: 'user', content: [{type: 'text', text: id}], source: {kind: 'plugin', plugin: 'test'}};
}

/** A tool whose value is `{n: integer}` with meta `{double}`, rendered as `n=<n>`. */
function counterTool(overrides: Parameters<typeof echoTool>[0] = {}) {
	return echoTool({
		name: 'counter',
		output: {
			schema: {type: 'object', properties: {n: {type: 'integer'}}, required: ['n'], additionalProperties: false},
			render: (_args, value) => [{type: 'text', text: `n=${(value as {n: number}).n}`}],
			presentationMeta: (_args, value) => ({double: (value as {n: number}).n * 2}),
		},
		execute: async () => ({n: 1}),
		...overrides,
	});
}

function counting(registry: ToolRegistry) {
	const counts = {pre: 0, post: 0, result: 0};
	registry.on('tools/pre-execute', async (_exec, next) => {
		counts.pre++;
		return next();
	});
	registry.on('tools/post-execute', async (_exec, _result, next) => {
		counts.post++;
		return next();
	});
	registry.on('tools/result', () => {
		counts.result++;
	});
	return counts;
}

describe('§T7 item 7 argument materialization', () => {
	class Point {
		x = 1;
	}

	it.each([
		['a function', {value: () => 1}],
		['an undefined property value', {value: undefined}],
		['a Map', new Map([['value', 'x']])],
		['a class instance', new Point()],
		['a bigint', {value: 1n}],
		['NaN', {value: Number.NaN}],
	])('rejects %s before any hook or body runs', async (_label, args) => {
		const registry = new ToolRegistry();
		const tool = echoTool();
		registry.register(tool);
		const counts = counting(registry);
		let observedArguments: unknown = 'unset';
		registry.on('tools/result', exec => {
			observedArguments = exec.arguments;
		});
		const result = await registry.execute(callInput({arguments: args}));
		expect(result).toEqual(argumentsError);
		expect(counts).toEqual({pre: 0, post: 0, result: 1});
		expect(tool.calls).toEqual([]);
		expect(observedArguments).toBeUndefined();
	});

	it('propagates a throwing getter as the error, and the argument error beats a pre-aborted signal', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool());
		const args = {
			get value() {
				throw new HarnessError('secret getter', 'GETTER');
			},
		};
		expect(await registry.execute(callInput({arguments: args}))).toEqual(failure('secret getter', {name: 'HarnessError', code: 'GETTER'}));
		const controller = new AbortController();
		controller.abort();
		expect(await registry.execute(callInput({arguments: {value: Symbol('x')}, signal: controller.signal}))).toEqual(argumentsError);
	});

	it('hands the body a frozen copy distinct from the caller’s object, which stays unfrozen', async () => {
		const registry = new ToolRegistry();
		const tool = echoTool();
		registry.register(tool);
		const args = {value: 'hi', nested: {list: [1, 2]}};
		await registry.execute(callInput({arguments: args}));
		const received = tool.calls[0] as typeof args;
		expect(received).toEqual(args);
		expect(received).not.toBe(args);
		expect(Object.isFrozen(received) && Object.isFrozen(received.nested) && Object.isFrozen(received.nested.list)).toBe(true);
		expect(Object.isFrozen(args) || Object.isFrozen(args.nested)).toBe(false);
	});

	it('reads every input field exactly once, including onProgress', async () => {
		const registry = new ToolRegistry();
		registry.register(
			echoTool({
				async execute(args, exec) {
					exec.progress({kind: 'output', stream: 'stdout', text: 'x'});
					return (args as {value: string}).value;
				},
			}),
		);
		registry.on('tools/pre-execute', async (_exec, next) => next());
		const reads: Record<string, number> = {};
		const values: Record<string, unknown> = {
			callId: 'call-1',
			rootCallId: 'root-1',
			name: 'echo',
			arguments: {value: 'hi'},
			agent: {id: 'a'},
			parent: undefined,
			signal: new AbortController().signal,
			onProgress: () => undefined,
		};
		const input = {} as ToolExecutionInput;
		for (const key of Object.keys(values)) {
			Object.defineProperty(input, key, {
				enumerable: true,
				get() {
					reads[key] = (reads[key] ?? 0) + 1;
					return values[key];
				},
			});
		}

		const result = await registry.execute(input);
		expect(result).toEqual(echoSuccess('hi'));
		expect(reads).toEqual({callId: 1, rootCallId: 1, name: 1, arguments: 1, agent: 1, parent: 1, signal: 1, onProgress: 1});
	});
});

describe('§T7 item 8 output enforcement', () => {
	it('rejects a value that fails the output schema', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool({execute: async () => 42}));
		expect(await registry.execute(callInput())).toEqual(failure('tool "echo" returned invalid output: "value" must be a string', outputInfo));
	});

	it('rejects a value that is not lossless JSON', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool({execute: async () => () => 1}));
		expect(await registry.execute(callInput())).toEqual(failure('tool "echo" returned invalid output: value is not lossless JSON', outputInfo));
	});

	it('turns a throwing render or presentationMeta into INVALID_TOOL_OUTPUT without a value key', async () => {
		const registry = new ToolRegistry();
		const render = () => {
			throw new Error('render boom');
		};
		registry.register(echoTool({output: {schema: {type: 'string'}, render}}));
		const rendered = await registry.execute(callInput());
		expect(rendered).toEqual(failure('tool "echo" returned invalid output: output.render failed: render boom', outputInfo));
		expect('value' in rendered).toBe(false);
		registry.register(
			counterTool({
				output: {
					schema: {type: 'object', properties: {n: {type: 'integer'}}},
					render: () => [],
					presentationMeta: () => {
						throw new Error('meta boom');
					},
				},
			}),
		);
		const meta = await registry.execute(callInput({name: 'counter'}));
		expect(meta).toEqual(failure('tool "counter" returned invalid output: presentationMeta failed: meta boom', outputInfo));
		expect('value' in meta).toBe(false);
	});

	it('rejects non-lossless render output and presentationMeta', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool({output: {schema: {type: 'string'}, render: () => [{type: 'text', text: undefined as unknown as string}]}}));
		expect(await registry.execute(callInput())).toEqual(
			failure('tool "echo" returned invalid output: output.render returned non-lossless JSON', outputInfo),
		);
		registry.register(counterTool({output: {schema: {type: 'object'}, render: () => [], presentationMeta: () => Number.NaN}}));
		expect(await registry.execute(callInput({name: 'counter'}))).toEqual(
			failure('tool "counter" returned invalid output: presentationMeta returned non-lossless JSON', outputInfo),
		);
	});

	it('computes meta only for top-level calls', async () => {
		const registry = new ToolRegistry();
		registry.register(counterTool());
		expect(await registry.execute(callInput({name: 'counter'}))).toEqual({
			isError: false,
			value: {n: 1},
			content: [{type: 'text', text: 'n=1'}],
			meta: {double: 2},
		});
		const nested = await registry.execute(callInput({name: 'counter', parent: Symbol('outer')}));
		expect(nested).toEqual({isError: false, value: {n: 1}, content: [{type: 'text', text: 'n=1'}]});
		expect('meta' in nested).toBe(false);
	});
});

describe('§T7 item 9 wrapper results are re-normalized', () => {
	it('re-renders content from the value of a short-circuit success', async () => {
		const registry = new ToolRegistry();
		const tool = echoTool();
		registry.register(tool);
		registry.on('tools/execute', async () => ({isError: false, value: 'x', content: [{type: 'text', text: 'ignored'}]}));
		expect(await registry.execute(callInput())).toEqual(echoSuccess('x'));
		expect(tool.calls).toEqual([]);
	});

	it('revalidates a cached result from another call or tool', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool());
		registry.register(counterTool());
		const cached = await registry.execute(callInput());
		registry.on('tools/execute', async () => cached);
		expect(await registry.execute(callInput({name: 'counter', callId: 'call-2'}))).toEqual(
			failure('tool "counter" returned invalid output: "value" must be an object', outputInfo),
		);
		const again = await registry.execute(callInput({callId: 'call-3'}));
		expect(again).toEqual(cached);
		expect(again).not.toBe(cached);
	});

	it('keeps only the contract keys of a wrapper-authored failure', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool());
		registry.on('tools/execute', async () => ({
			isError: true,
			error: {message: 'cached failure', info: {name: 'X', code: 'Y'}, extra: 1},
			content: [{type: 'text', text: 'Error: cached failure'}],
			value: 'leak',
			stray: true,
		}) as unknown as ToolExecutionResult);
		expect(await registry.execute(callInput())).toEqual(failure('cached failure', {name: 'X', code: 'Y'}));
	});

	it('fails a wrapper failure whose content is not an array, or whose error has no message', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool());
		const dispose = registry.on('tools/execute', async () => ({isError: true, error: {message: 'x'}, content: 'Error: x'}) as unknown as ToolExecutionResult);
		expect(await registry.execute(callInput())).toEqual(failure('tool result content must be an array of content blocks'));
		dispose();
		registry.on('tools/execute', async () => ({isError: true, error: {}, content: []}) as unknown as ToolExecutionResult);
		expect(await registry.execute(callInput())).toEqual(failure('tools/execute failure result for tool "echo" must carry error.message as a string'));
	});

	it('fails a wrapper success for a tool that was unregistered meanwhile, as a final result', async () => {
		const registry = new ToolRegistry();
		const dispose = registry.register(echoTool());
		const post = vi.fn(async (_exec: unknown, _result: unknown, next: () => Promise<PostToolDecision>) => next());
		registry.on('tools/post-execute', post);
		registry.on('tools/execute', async () => {
			dispose();
			return {isError: false, value: 'x', content: []};
		});
		expect(await registry.execute(callInput())).toEqual(failure('unknown tool "echo"', {name: 'ToolNotFoundError', code: 'UNKNOWN_TOOL'}));
		expect(post).not.toHaveBeenCalled();
	});
});

describe('§T7 item 10 post-execute decisions', () => {
	async function decide(decision: unknown, tool = counterTool()) {
		const registry = new ToolRegistry();
		registry.register(tool);
		registry.on('tools/post-execute', async () => decision as never);
		return registry.execute(callInput({name: tool.name}));
	}

	it('content replacement keeps value and meta', async () => {
		expect(await decide({kind: 'accept', content: [{type: 'text', text: 'redacted'}]})).toEqual({
			isError: false,
			value: {n: 1},
			content: [{type: 'text', text: 'redacted'}],
			meta: {double: 2},
		});
	});

	it('value replacement revalidates and recomputes content and meta', async () => {
		expect(await decide({kind: 'accept', value: {n: 5}})).toEqual({
			isError: false,
			value: {n: 5},
			content: [{type: 'text', text: 'n=5'}],
			meta: {double: 10},
		});
		const invalid = await decide({kind: 'accept', value: {n: 'five'}});
		expect(invalid).toEqual(failure('tool "counter" returned invalid output: "value.n" must be an integer', outputInfo));
		expect('value' in invalid).toBe(false);
	});

	it('refuses to replace both value and content, or the value of a failure', async () => {
		expect(await decide({kind: 'accept', value: {n: 5}, content: []})).toEqual(
			failure('tools/post-execute accept decision cannot replace both value and content'),
		);
		expect(await decide({kind: 'accept', value: {n: 5}}, counterTool({execute: async () => Promise.reject(new Error('x'))}))).toEqual(
			failure('tools/post-execute cannot replace the value of a failed result'),
		);
	});

	it('value replacement for a tool unregistered meanwhile fails with UNKNOWN_TOOL', async () => {
		const registry = new ToolRegistry();
		const dispose = registry.register(counterTool());
		registry.on('tools/post-execute', async () => {
			dispose();
			return {kind: 'accept', value: {n: 2}};
		});
		expect(await registry.execute(callInput({name: 'counter'}))).toEqual(
			failure('unknown tool "counter"', {name: 'ToolNotFoundError', code: 'UNKNOWN_TOOL'}),
		);
	});

	it('block yields a valueless failure with the feedback verbatim and a derived message', async () => {
		const image = {type: 'image', attachment: {attachmentId: 'a1', mediaType: 'image/png', bytes: 1, width: 1, height: 1}} as const;
		const feedback = [{type: 'text', text: 'blocked: secrets'}, image, {type: 'text', text: 'try again'}] as const;
		const blocked = await decide({kind: 'block', feedback, additionalContexts: [message('why')]});
		expect(blocked).toEqual({
			isError: true,
			error: {message: 'blocked: secrets\n[image content]\ntry again'},
			content: feedback,
			additionalContexts: [message('why')],
		});
		expect('value' in blocked || 'meta' in blocked).toBe(false);
		expect(await decide({kind: 'block', feedback: []})).toEqual({
			isError: true,
			error: {message: 'tool result blocked by post-execute policy'},
			content: [],
		});
	});

	it('block discards body-deferred contexts; a non-lossless feedback fails at materialization', async () => {
		const tool = counterTool({
			async execute(_args, exec) {
				exec.deferContext(message('deferred'));
				return {n: 1};
			},
		});
		expect(await decide({kind: 'block', feedback: [{type: 'text', text: 'no'}]}, tool)).toEqual({
			isError: true,
			error: {message: 'no'},
			content: [{type: 'text', text: 'no'}],
		});
		expect(await decide({kind: 'block', feedback: [{type: 'text', text: 'no', extra: undefined}]})).toEqual(
			failure('tool result must be losslessly JSON-serializable'),
		);
	});
});

describe('§T7 item 11 failure containment', () => {
	it.each([
		['a plain object', {code: 500}, failure('[object Object]')],
		['a string', 'kaboom', failure('kaboom')],
		['a plain Error', new Error('x'), failure('x')],
		['a Node-style system error', Object.assign(new Error('no such file'), {code: 'ENOENT'}), failure('no such file')],
		['a JsonSchemaError', new JsonSchemaError(['schema.type bad']), failure('unsupported JSON schema: schema.type bad', {name: 'JsonSchemaError', code: 'UNSUPPORTED_SCHEMA'})],
		['a HarnessError subclass named AbortError', Object.assign(new HarnessError('tool call aborted', 'ABORTED'), {name: 'AbortError'}), failure('tool call aborted', {name: 'AbortError', code: 'ABORTED'})],
	])('a body throwing %s resolves to its message, with info only when classed', async (_label, thrown, expected) => {
		const registry = new ToolRegistry();
		registry.register(echoTool({execute: async () => Promise.reject(thrown)}));
		expect(await registry.execute(callInput())).toEqual(expected);
	});

	it('never rejects, even for a malformed input', async () => {
		const registry = new ToolRegistry();
		expect(await registry.execute({callId: '', name: 'x', arguments: {}, signal: new AbortController().signal})).toEqual(
			failure('tool execution input callId must be a non-empty string'),
		);
		expect(await registry.execute(null as unknown as ToolExecutionInput)).toEqual(
			failure("Cannot read properties of null (reading 'callId')"),
		);
	});

	it('gives hooks a frozen exec whose signal only tools/execute wrappers may replace', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool());
		const attempts: string[] = [];
		registry.on('tools/pre-execute', async (exec, next) => {
			expect(Object.isFrozen(exec)).toBe(true);
			try {
				(exec as {signal: AbortSignal}).signal = new AbortController().signal;
			} catch (error) {
				attempts.push((error as Error).message);
			}

			return next();
		});
		expect(await registry.execute(callInput())).toEqual(echoSuccess('hi'));
		expect(attempts).toEqual(['exec.signal of tool call "call-1" can only be replaced inside a tools/execute wrapper']);
	});
});

describe('§T7 item 12 cancellation precedence', () => {
	function abortable() {
		const controller = new AbortController();
		return {controller, input: callInput({signal: controller.signal})};
	}

	it('abort during pre-execute that then allows: ABORTED_BEFORE_DISPATCH, body not run', async () => {
		const {controller, input} = abortable();
		const registry = new ToolRegistry();
		const tool = echoTool();
		registry.register(tool);
		registry.on('tools/pre-execute', async () => {
			controller.abort();
			return {kind: 'allow'};
		});
		expect(await registry.execute(input)).toEqual(abortedBeforeDispatch);
		expect(tool.calls).toEqual([]);
	});

	it('abort during pre-execute that denies or throws keeps the denial or the error', async () => {
		for (const [listener, expected] of [
			[async () => ({kind: 'deny', reason: 'no'}) as const, failure('no')],
			[async () => Promise.reject(new Error('pre broke')), failure('pre broke')],
		] as const) {
			const {controller, input} = abortable();
			const registry = new ToolRegistry();
			registry.register(echoTool());
			registry.on('tools/pre-execute', async () => {
				controller.abort();
				return listener();
			});
			expect(await registry.execute(input)).toEqual(expected);
		}
	});

	it('abort during approval answered allowed-once: ABORTED_BEFORE_DISPATCH', async () => {
		const {controller} = abortable();
		const registry = new ToolRegistry({
			approval: async () => {
				controller.abort();
				return 'allowed-once';
			},
		});
		registry.register(echoTool());
		registry.on('tools/pre-execute', async () => ({kind: 'ask'}));
		expect(await registry.execute(callInput({signal: controller.signal, agent: {id: 'a'}}))).toEqual(abortedBeforeDispatch);
	});

	it('a wrapper installing an already-aborted signal: ABORTED_BEFORE_DISPATCH, body not run, caller signal untouched', async () => {
		const registry = new ToolRegistry();
		const tool = echoTool();
		registry.register(tool);
		const input = callInput();
		registry.on('tools/execute', async (exec, next) => {
			const original = exec.signal;
			exec.signal = AbortSignal.abort('wrapper says no');
			try {
				return await next();
			} finally {
				exec.signal = original;
			}
		});
		expect(await registry.execute(input)).toEqual(abortedBeforeDispatch);
		expect(tool.calls).toEqual([]);
		expect(input.signal.aborted).toBe(false);
	});

	it('abort during a wrapper before next(): ABORTED_BEFORE_DISPATCH', async () => {
		const {controller, input} = abortable();
		const registry = new ToolRegistry();
		const tool = echoTool();
		registry.register(tool);
		registry.on('tools/execute', async (_exec, next) => {
			controller.abort();
			return next();
		});
		expect(await registry.execute(input)).toEqual(abortedBeforeDispatch);
		expect(tool.calls).toEqual([]);
	});

	it('abort during a wrapper that short-circuits with a success keeps the wrapper contexts', async () => {
		const {controller, input} = abortable();
		const registry = new ToolRegistry();
		registry.register(echoTool());
		registry.on('tools/execute', async () => {
			controller.abort();
			return {isError: false, value: 'cached', content: [], additionalContexts: [message('wrapper')]};
		});
		expect(await registry.execute(input)).toEqual({...abortedBeforeDispatch, additionalContexts: [message('wrapper')]});
	});

	it('abort during a body that resolves: ABORTED with what the body returned and the deferred contexts', async () => {
		const {controller, input} = abortable();
		const registry = new ToolRegistry();
		registry.register(
			echoTool({
				async execute(_args, exec) {
					exec.deferContext(message('deferred'));
					controller.abort();
					return 'done anyway';
				},
			}),
		);
		expect(await registry.execute(input)).toEqual({...abortedAfter('echo: done anyway'), additionalContexts: [message('deferred')]});
	});

	it('abort during a body that rejects with a coded error keeps that error', async () => {
		const {controller, input} = abortable();
		const registry = new ToolRegistry();
		registry.register(
			echoTool({
				async execute(_args, exec) {
					controller.abort();
					if (exec.signal.aborted) {
						throw new HarnessError('killed the process', 'KILLED');
					}

					return 'x';
				},
			}),
		);
		expect(await registry.execute(input)).toEqual(failure('killed the process', {name: 'HarnessError', code: 'KILLED'}));
	});

	it('abort after the body while a wrapper awaits: ABORTED with what the body returned; a wrapper throwing after cancel: its error', async () => {
		for (const [rethrow, expected] of [
			[false, abortedAfter('echo: hi')],
			[true, failure('wrapper after cancel')],
		] as const) {
			const {controller, input} = abortable();
			const registry = new ToolRegistry();
			registry.register(echoTool());
			registry.on('tools/execute', async (_exec, next) => {
				const result = await next();
				controller.abort();
				if (rethrow) {
					throw new Error('wrapper after cancel');
				}

				return result;
			});
			expect(await registry.execute(input)).toEqual(expected);
		}
	});

	it('abort during post-execute that accepts: ABORTED with deferred and post contexts; a throwing post keeps its error', async () => {
		for (const [rethrow, expected] of [
			[false, {...abortedAfter('echo: x'), additionalContexts: [message('deferred'), message('post')]}],
			[true, failure('post after cancel')],
		] as const) {
			const {controller, input} = abortable();
			const registry = new ToolRegistry();
			registry.register(
				echoTool({
					async execute(_args, exec) {
						exec.deferContext(message('deferred'));
						return 'x';
					},
				}),
			);
			registry.on('tools/post-execute', async () => {
				controller.abort();
				if (rethrow) {
					throw new Error('post after cancel');
				}

				return {kind: 'accept', additionalContexts: [message('post')]};
			});
			expect(await registry.execute(input)).toEqual(expected);
		}
	});

	it('gives the body a fused signal distinct from the caller and wrapper signals, and restores the wrapper signal', async () => {
		const {controller, input} = abortable();
		const wrapperController = new AbortController();
		const registry = new ToolRegistry();
		let bodySignal: AbortSignal | undefined;
		let execSignalDuringBody: AbortSignal | undefined;
		let signalAfterNext: AbortSignal | undefined;
		let postSignal: AbortSignal | undefined;
		let dispatchExec: {signal: AbortSignal} | undefined;
		registry.register(
			echoTool({
				async execute(args, exec) {
					bodySignal = exec.signal;
					execSignalDuringBody = dispatchExec?.signal;
					wrapperController.abort('wrapper reason');
					return (args as {value: string}).value;
				},
			}),
		);
		registry.on('tools/execute', async (exec, next) => {
			dispatchExec = exec;
			const original = exec.signal;
			exec.signal = wrapperController.signal;
			const result = await next();
			signalAfterNext = exec.signal;
			exec.signal = original;
			return result;
		});
		registry.on('tools/post-execute', async (exec, _result, next) => {
			postSignal = exec.signal;
			return next();
		});
		const result = await registry.execute(input);
		expect(bodySignal).not.toBe(controller.signal);
		expect(bodySignal).not.toBe(wrapperController.signal);
		expect(execSignalDuringBody).toBe(bodySignal);
		expect(bodySignal?.aborted).toBe(true);
		expect(bodySignal?.reason).toBe('wrapper reason');
		expect(controller.signal.aborted).toBe(false);
		expect(signalAfterNext).toBe(wrapperController.signal);
		expect(postSignal).toBe(controller.signal);
		// Only the wrapper's signal aborted, so the body's success stands cancelled by the fused signal.
		expect(result).toEqual(abortedAfter('echo: hi'));
	});

	it('uses the caller signal directly when no wrapper replaced it', async () => {
		const {input} = abortable();
		const registry = new ToolRegistry();
		let bodySignal: AbortSignal | undefined;
		registry.register(
			echoTool({
				async execute() {
					return 'x';
				},
			}),
		);
		registry.on('tools/execute', async (_exec, next) => next());
		registry.register(
			echoTool({
				name: 'probe',
				async execute(_args, exec) {
					bodySignal = exec.signal;
					return 'x';
				},
			}),
		);
		await registry.execute({...input, name: 'probe'});
		expect(bodySignal).toBe(input.signal);
	});
});

describe('§T7 item 13 finalizeContent', () => {
	function finalizing(extra: Parameters<typeof echoTool>[0] = {}) {
		const calls: Array<{exec: ToolExecution; result: ToolExecutionResult}> = [];
		const tool = echoTool({
			finalizeContent(exec, result) {
				calls.push({exec, result});
				return [{type: 'text', text: `final: ${result.content.map(block => (block.type === 'text' ? block.text : '')).join('')}`}];
			},
			...extra,
		});
		return {calls, tool};
	}

	it('runs exactly once for every outcome and replaces only content', async () => {
		const cases: Array<[string, (registry: ToolRegistry) => void, Partial<ToolExecutionInput>, ToolExecutionResult]> = [
			['success', () => undefined, {}, {isError: false, value: 'hi', content: [{type: 'text', text: 'final: echo: hi'}]}],
			[
				'denial',
				registry => registry.on('tools/pre-execute', async () => ({kind: 'deny', reason: 'no'})),
				{},
				{isError: true, error: {message: 'no'}, content: [{type: 'text', text: 'final: Error: no'}]},
			],
			[
				'pre-execute throw',
				registry => registry.on('tools/pre-execute', async () => Promise.reject(new Error('pre'))),
				{},
				{isError: true, error: {message: 'pre'}, content: [{type: 'text', text: 'final: Error: pre'}]},
			],
			[
				'wrapper throw',
				registry => registry.on('tools/execute', async () => Promise.reject(new Error('wrap'))),
				{},
				{isError: true, error: {message: 'wrap'}, content: [{type: 'text', text: 'final: Error: wrap'}]},
			],
			[
				'arguments snapshot failure',
				() => undefined,
				{arguments: {value: undefined}},
				{
					isError: true,
					error: {message: 'tool execution arguments must be losslessly JSON-serializable'},
					content: [{type: 'text', text: 'final: Error: tool execution arguments must be losslessly JSON-serializable'}],
				},
			],
			[
				'pre-aborted',
				() => undefined,
				{signal: AbortSignal.abort()},
				{
					isError: true,
					error: {message: 'tool call aborted before dispatch', info: {name: 'AbortError', code: 'ABORTED_BEFORE_DISPATCH'}},
					content: [{type: 'text', text: 'final: Error: tool call aborted before dispatch'}],
				},
			],
		];
		for (const [label, arrange, input, expected] of cases) {
			const {calls, tool} = finalizing();
			const registry = new ToolRegistry();
			registry.register(tool);
			arrange(registry);
			const result = await registry.execute(callInput(input));
			expect({label, result}).toEqual({label, result: expected});
			expect({label, calls: calls.length}).toEqual({label, calls: 1});
			expect(Object.isFrozen(calls[0]!.result)).toBe(true);
		}
	});

	it('turns a throwing finalizer into Error: <message> without calling it again', async () => {
		const finalize = vi.fn(() => {
			throw new Error('finalizer broke');
		});
		const registry = new ToolRegistry();
		registry.register(echoTool({finalizeContent: finalize}));
		expect(await registry.execute(callInput())).toEqual(failure('finalizer broke'));
		expect(finalize).toHaveBeenCalledTimes(1);
	});

	it('turns a lossy finalizer return into the result materialization error', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool({finalizeContent: () => [{type: 'text', text: 'x', bad: Number.NaN}] as never}));
		expect(await registry.execute(callInput())).toEqual(failure('tool result must be losslessly JSON-serializable'));
	});

	it('keeps content when the finalizer returns undefined', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool({finalizeContent: () => undefined}));
		expect(await registry.execute(callInput())).toEqual(echoSuccess('hi'));
	});

	it('uses the callback captured at call start even if the tool is unregistered mid-pipeline', async () => {
		const {calls, tool} = finalizing();
		const registry = new ToolRegistry();
		const dispose = registry.register(tool);
		registry.on('tools/pre-execute', async (_exec, next) => {
			dispose();
			return next();
		});
		const result = await registry.execute(callInput());
		expect(result).toEqual({
			isError: true,
			error: {message: 'unknown tool "echo"', info: {name: 'ToolNotFoundError', code: 'UNKNOWN_TOOL'}},
			content: [{type: 'text', text: 'final: Error: unknown tool "echo"'}],
		});
		expect(calls).toHaveLength(1);
	});

	it('is dropped for a code-mode collapsed call unless it was pre-aborted', async () => {
		const {calls, tool} = finalizing();
		const registry = new ToolRegistry({mode: 'code'});
		registry.register(tool);
		await registry.execute(callInput());
		expect(calls).toHaveLength(0);
		expect(await registry.execute(callInput({signal: AbortSignal.abort()}))).toEqual({
			...abortedBeforeDispatch,
			content: [{type: 'text', text: 'final: Error: tool call aborted before dispatch'}],
		});
		expect(calls).toHaveLength(1);
	});
});

describe('the body run context', () => {
	it('forwards progress to onProgress, survives a throwing consumer, and is a no-op without one', async () => {
		const registry = new ToolRegistry();
		const update: ToolProgress = {kind: 'output', stream: 'stdout', text: 'line\n'};
		registry.register(
			echoTool({
				async execute(args, exec) {
					exec.progress(update);
					exec.progress(update);
					return (args as {value: string}).value;
				},
			}),
		);
		const received: ToolProgress[] = [];
		expect(await registry.execute(callInput({onProgress: progress => received.push(progress)}))).toEqual(echoSuccess('hi'));
		expect(received).toEqual([update, update]);
		const throwing = await registry.execute(
			callInput({
				onProgress() {
					throw new Error('consumer broke');
				},
			}),
		);
		expect(throwing).toEqual(echoSuccess('hi'));
		expect(await registry.execute(callInput())).toEqual(echoSuccess('hi'));
	});

	it('marks a successful result with concludesTurn, but never a failure', async () => {
		const registry = new ToolRegistry();
		registry.register(
			echoTool({
				async execute(args, exec) {
					exec.concludeTurn();
					const {value} = args as {value: string};
					if (value === 'fail') {
						throw new Error('failed');
					}

					return value;
				},
			}),
		);
		expect(await registry.execute(callInput())).toEqual({...echoSuccess('hi'), concludesTurn: true});
		const failed = await registry.execute(callInput({arguments: {value: 'fail'}}));
		expect(failed).toEqual(failure('failed'));
		expect('concludesTurn' in failed).toBe(false);
	});

	it('mints a fresh token per execution and shows the same one in every phase', async () => {
		const registry = new ToolRegistry();
		const tokens: Array<[string, symbol]> = [];
		registry.register(
			echoTool({
				async execute(_args, exec) {
					tokens.push(['body', exec.token]);
					return 'x';
				},
			}),
		);
		registry.on('tools/pre-execute', async (exec, next) => {
			tokens.push(['pre', exec.token]);
			return next();
		});
		registry.guard(exec => {
			tokens.push(['guard', exec.token]);
			return undefined;
		});
		registry.on('tools/execute', async (exec, next) => {
			tokens.push(['execute', exec.token]);
			return next();
		});
		registry.on('tools/post-execute', async (exec, _result, next) => {
			tokens.push(['post', exec.token]);
			return next();
		});
		registry.on('tools/result', exec => {
			tokens.push(['result', exec.token]);
		});
		await Promise.all([registry.execute(callInput()), registry.execute(callInput())]);
		const byCall = new Map<symbol, string[]>();
		for (const [phase, token] of tokens) {
			byCall.set(token, [...(byCall.get(token) ?? []), phase]);
		}

		expect([...byCall.values()]).toEqual([
			['pre', 'guard', 'execute', 'body', 'post', 'result'],
			['pre', 'guard', 'execute', 'body', 'post', 'result'],
		]);
	});

	it('carries the execution fields, with rootCallId defaulting to callId and agent/parent absent when unset', async () => {
		const registry = new ToolRegistry();
		const seen: Array<Record<string, unknown>> = [];
		registry.register(
			echoTool({
				async execute(_args, exec) {
					seen.push({...exec, token: typeof exec.token, signal: exec.signal instanceof AbortSignal});
					return 'x';
				},
			}),
		);
		const parent = Symbol('outer');
		await registry.execute(callInput());
		await registry.execute(callInput({rootCallId: 'root', agent: {id: 'a'}, parent}));
		const methods = {deferContext: expect.any(Function), concludeTurn: expect.any(Function), progress: expect.any(Function)};
		expect(seen).toEqual([
			{token: 'symbol', callId: 'call-1', rootCallId: 'call-1', name: 'echo', arguments: {value: 'hi'}, signal: true, ...methods},
			{token: 'symbol', callId: 'call-1', rootCallId: 'root', name: 'echo', arguments: {value: 'hi'}, signal: true, agent: {id: 'a'}, parent, ...methods},
		]);
	});
});
