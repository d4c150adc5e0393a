import {describe, expect, it} from 'vitest';
import {HarnessError} from '../../src/tools/errors.js';
import {ToolRegistry, type ToolRegistryOptions} from '../../src/tools/registry.js';
import type {ApprovalOutcome, ApprovalRequest, PreToolDecision, ToolExecutionInput, ToolRunContext} from '../../src/tools/types.js';
import {callInput, echoSuccess, echoTool, failure, recordPhases} from './pipeline-fixtures.js';

const agent = {id: 'agent-1'};
const aborted = failure('tool call aborted', {name: 'AbortError', code: 'ABORTED'});
const abortedBeforeDispatch = failure('tool call aborted before dispatch', {name: 'AbortError', code: 'ABORTED_BEFORE_DISPATCH'});

type Setup = {
	readonly registry?: ToolRegistryOptions;
	readonly pre?: () => PreToolDecision | Promise<PreToolDecision>;
	readonly body?: (args: unknown, exec: ToolRunContext) => Promise<unknown>;
	readonly approval?: (request: ApprovalRequest) => Promise<ApprovalOutcome>;
};

/** A registry with `echo` and a recorder on every phase, including the body and the approval service. */
function setup(options: Setup = {}) {
	let order: string[] = [];
	const requests: ApprovalRequest[] = [];
	const approval = options.approval;
	const registry = new ToolRegistry({
		...options.registry,
		...(approval === undefined
			? {}
			: {
					approval: async (request: ApprovalRequest) => {
						order.push('approval');
						requests.push(request);
						return approval(request);
					},
				}),
	});
	registry.register(
		echoTool({
			async execute(args, exec) {
				order.push('body');
				return options.body === undefined ? (args as {value: string}).value : options.body(args, exec);
			},
		}),
	);
	const recorded = recordPhases(registry, {pre: options.pre});
	order = recorded.order;
	return {registry, order, requests, results: recorded.results};
}

async function run(options: Setup, input: Partial<ToolExecutionInput> = {}) {
	const context = setup(options);
	const result = await context.registry.execute(callInput(input));
	return {...context, result};
}

describe('pipeline phase order', () => {
	it('allow: pre-execute, guards, execute wrapper, body, post-execute, result', async () => {
		const {order, result} = await run({});
		expect(order).toEqual(['pre', 'guard', 'execute', 'body', 'post', 'result']);
		expect(result).toEqual(echoSuccess('hi'));
	});

	it('deny: skips guards, wrappers and the body but still reaches post-execute', async () => {
		const {order, result} = await run({pre: () => ({kind: 'deny', reason: 'not on my watch'})});
		expect(order).toEqual(['pre', 'post', 'result']);
		expect(result).toEqual(failure('not on my watch'));
		expect('info' in (result.isError ? result.error : {})).toBe(false);
	});

	it('ask, approved once: the approval service is asked, then guards still run', async () => {
		const {order, result, requests} = await run(
			{pre: () => ({kind: 'ask', reason: 'writes files'}), approval: async () => 'allowed-once'},
			{agent},
		);
		expect(order).toEqual(['pre', 'approval', 'guard', 'execute', 'body', 'post', 'result']);
		expect(result).toEqual(echoSuccess('hi'));
		expect(requests).toEqual([{agent, toolName: 'echo', callId: 'call-1', reason: 'writes files', signal: expect.any(AbortSignal)}]);
	});

	it('ask without a reason sends a request without a reason key', async () => {
		const {requests} = await run({pre: () => ({kind: 'ask'}), approval: async () => 'allowed-once'}, {agent});
		expect('reason' in requests[0]!).toBe(false);
	});

	it('ask, rejected: denial reaches post-execute', async () => {
		const {order, result} = await run({pre: () => ({kind: 'ask'}), approval: async () => 'rejected'}, {agent});
		expect(order).toEqual(['pre', 'approval', 'post', 'result']);
		expect(result).toEqual(failure('the user rejected tool "echo"'));
	});

	it('ask, cancelled: denial reaches post-execute', async () => {
		const {order, result} = await run({pre: () => ({kind: 'ask'}), approval: async () => 'cancelled'}, {agent});
		expect(order).toEqual(['pre', 'approval', 'post', 'result']);
		expect(result).toEqual(failure('approval for tool "echo" was cancelled'));
	});

	it('ask, cancelled while the caller aborted: ABORTED_BEFORE_DISPATCH, still through post-execute', async () => {
		const controller = new AbortController();
		const {order, result} = await run(
			{
				pre: () => ({kind: 'ask'}),
				approval: async () => {
					controller.abort();
					return 'cancelled';
				},
			},
			{agent, signal: controller.signal},
		);
		expect(order).toEqual(['pre', 'approval', 'post', 'result']);
		expect(result).toEqual(abortedBeforeDispatch);
	});

	it('ask, unavailable: denial names the missing channel', async () => {
		const {order, result} = await run({pre: () => ({kind: 'ask'}), approval: async () => 'unavailable'}, {agent});
		expect(order).toEqual(['pre', 'approval', 'post', 'result']);
		expect(result).toEqual(failure('tool "echo" requires approval, but no approval channel is available'));
	});

	it('ask, unknown outcome: a final error that skips post-execute', async () => {
		const {order, result} = await run({pre: () => ({kind: 'ask'}), approval: async () => 'maybe' as ApprovalOutcome}, {agent});
		expect(order).toEqual(['pre', 'approval', 'result']);
		expect(result).toEqual(failure('approval service answered an unknown outcome for tool "echo": "maybe"'));
	});

	it('ask with no approval service: the ask reason, or a default, becomes the denial', async () => {
		const withReason = await run({pre: () => ({kind: 'ask', reason: 'please ask first'})}, {agent});
		expect(withReason.order).toEqual(['pre', 'post', 'result']);
		expect(withReason.result).toEqual(failure('please ask first'));
		const withoutReason = await run({pre: () => ({kind: 'ask'})}, {agent});
		expect(withoutReason.result).toEqual(failure('tool "echo" requires approval (not yet supported)'));
	});

	it('ask with no agent: denied without calling the approval service', async () => {
		const {order, result} = await run({pre: () => ({kind: 'ask'}), approval: async () => 'allowed-once'});
		expect(order).toEqual(['pre', 'post', 'result']);
		expect(result).toEqual(failure('tool "echo" requires approval, but the call has no agent to route it through'));
	});

	it('unknown tool: every policy phase sees it, the default dispatch fails it', async () => {
		const {order, result} = await run({}, {name: 'nope'});
		expect(order).toEqual(['pre', 'guard', 'execute', 'post', 'result']);
		expect(result).toEqual(failure('unknown tool "nope"', {name: 'ToolNotFoundError', code: 'UNKNOWN_TOOL'}));
	});

	it('body throw: an error result that stays in the normal flow', async () => {
		const {order, result} = await run({
			body: async () => {
				throw new HarnessError('disk full', 'ENOSPC');
			},
		});
		expect(order).toEqual(['pre', 'guard', 'execute', 'body', 'post', 'result']);
		expect(result).toEqual(failure('disk full', {name: 'HarnessError', code: 'ENOSPC'}));
	});

	it('pre-execute throw: a final error that skips post-execute', async () => {
		const {order, result} = await run({
			pre: () => {
				throw new Error('policy crashed');
			},
		});
		expect(order).toEqual(['pre', 'result']);
		expect(result).toEqual(failure('policy crashed'));
	});

	it('wrapper throw: a final error that skips post-execute', async () => {
		const {registry, order} = setup();
		registry.on('tools/execute', async () => {
			order.push('thrower');
			throw new Error('wrapper crashed');
		});
		const result = await registry.execute(callInput());
		expect(order).toEqual(['pre', 'guard', 'execute', 'thrower', 'result']);
		expect(result).toEqual(failure('wrapper crashed'));
	});

	it('post-execute throw: a final error, post-execute is not re-run', async () => {
		const {registry, order} = setup();
		registry.on('tools/post-execute', async () => {
			order.push('thrower');
			throw new Error('post crashed');
		});
		const result = await registry.execute(callInput());
		expect(order).toEqual(['pre', 'guard', 'execute', 'body', 'post', 'thrower', 'result']);
		expect(result).toEqual(failure('post crashed'));
	});

	it('pre-aborted: no hook phase runs, only tools/result', async () => {
		const controller = new AbortController();
		controller.abort();
		const {order, result} = await run({}, {signal: controller.signal});
		expect(order).toEqual(['result']);
		expect(result).toEqual(abortedBeforeDispatch);
	});

	it('abort mid-body: the body is awaited, then ABORTED replaces its success, keeping what it returned', async () => {
		const controller = new AbortController();
		let bodySignal: AbortSignal | undefined;
		let settledBeforePost = false;
		const {order, result} = await run(
			{
				async body(_args, exec) {
					bodySignal = exec.signal;
					controller.abort(new Error('user pressed ctrl+c'));
					await Promise.resolve();
					settledBeforePost = true;
					return 'late';
				},
			},
			{signal: controller.signal},
		);
		expect(order).toEqual(['pre', 'guard', 'execute', 'body', 'post', 'result']);
		expect(settledBeforePost).toBe(true);
		expect(result).toEqual({...aborted, content: [...aborted.content, {type: 'text', text: 'echo: late'}]});
		expect(bodySignal?.aborted).toBe(true);
	});
});

describe('tools/result', () => {
	it('fires exactly once per execute with the frozen exec and the same frozen result', async () => {
		const {registry, results} = setup();
		const result = await registry.execute(callInput());
		expect(results).toHaveLength(1);
		const [{exec, result: observed}] = results as [{exec: Record<string, unknown>; result: typeof result}];
		expect(observed).toBe(result);
		expect(Object.isFrozen(exec)).toBe(true);
		expect(Object.isFrozen(result)).toBe(true);
		expect(Object.isFrozen(result.content)).toBe(true);
		expect(Object.isFrozen(result.content[0])).toBe(true);
		expect(() => {
			exec.signal = new AbortController().signal;
		}).toThrow(TypeError);
		expect({callId: exec.callId, rootCallId: exec.rootCallId, name: exec.name, arguments: exec.arguments}).toEqual({
			callId: 'call-1',
			rootCallId: 'call-1',
			name: 'echo',
			arguments: {value: 'hi'},
		});
		expect(typeof exec.token).toBe('symbol');
		expect('agent' in exec || 'parent' in exec).toBe(false);
	});

	it('contains observer throws and rejections, logging them, without changing the result', async () => {
		const logged: string[] = [];
		const registry = new ToolRegistry({logError: message => logged.push(message)});
		registry.register(echoTool());
		registry.on('tools/result', () => {
			throw new Error('sync observer broke');
		});
		registry.on('tools/result', async () => {
			throw new Error('async observer broke');
		});
		registry.on('tools/result', () => {
			// eslint-disable-next-line @typescript-eslint/only-throw-error
			throw {toString: () => {
				throw new Error('cannot print');
			}};
		});
		const result = await registry.execute(callInput());
		await new Promise(resolve => setImmediate(resolve));
		expect(result).toEqual(echoSuccess('hi'));
		expect(logged).toEqual([
			'tools/result listener failed for tool call "call-1" (echo): sync observer broke',
			'tools/result listener failed for tool call "call-1" (echo): <unprintable thrown value>',
			'tools/result listener failed for tool call "call-1" (echo): async observer broke',
		]);
	});
});

describe('additional contexts', () => {
	it('orders body-deferred, wrapper-supplied, then post-execute-supplied contexts', async () => {
		const message = (id: string) => ({id, role: 'user' as const, content: [{type: 'text' as const, text: id}], source: {kind: 'plugin', plugin: 'test'}});
		const registry = new ToolRegistry();
		registry.register(
			echoTool({
				async execute(_args, exec) {
					exec.deferContext(message('nested-1'));
					exec.deferContext(message('nested-2'));
					return 'x';
				},
			}),
		);
		registry.on('tools/execute', async () => ({isError: false, value: 'cached', content: [], additionalContexts: [message('wrapper')]}));
		registry.on('tools/execute', async (_exec, next) => next(), {prepend: true});
		const wrapped = await registry.execute(callInput());
		// The short-circuiting wrapper never ran the body, so only its own context rides.
		expect(wrapped.additionalContexts?.map(context => context.id)).toEqual(['wrapper']);

		const registry2 = new ToolRegistry();
		registry2.register(
			echoTool({
				async execute(_args, exec) {
					exec.deferContext(message('nested-1'));
					exec.deferContext(message('nested-2'));
					return 'x';
				},
			}),
		);
		registry2.on('tools/execute', async (_exec, next) => {
			const inner = await next();
			return inner.isError ? inner : {isError: false, value: inner.value, content: [], additionalContexts: [message('wrapper')]};
		});
		registry2.on('tools/post-execute', async () => ({kind: 'accept', additionalContexts: [message('post')]}));
		const result = await registry2.execute(callInput());
		expect(result).toEqual({
			isError: false,
			value: 'x',
			content: [{type: 'text', text: 'echo: x'}],
			additionalContexts: ['nested-1', 'nested-2', 'wrapper', 'post'].map(id => message(id)),
		});
	});
});

describe('guards', () => {
	it('deny with the first reason, later guards are not consulted, and the denial reaches post-execute', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool());
		const order: string[] = [];
		registry.guard(() => {
			order.push('guard 1');
			return undefined;
		});
		registry.guard(() => {
			order.push('guard 2');
			return 'workspace is read-only';
		});
		registry.guard(() => {
			order.push('guard 3');
			return 'never consulted';
		});
		registry.on('tools/post-execute', async (_exec, result, next) => {
			order.push(`post sees ${result.isError ? result.error.message : 'success'}`);
			return next();
		});
		expect(await registry.execute(callInput())).toEqual(failure('workspace is read-only'));
		expect(order).toEqual(['guard 1', 'guard 2', 'post sees workspace is read-only']);
	});

	it('see a guard added while they are being evaluated, and stop after their disposer runs', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool());
		let disposeLate: (() => void) | undefined;
		registry.guard(() => {
			disposeLate ??= registry.guard(() => 'added during evaluation');
			return undefined;
		});
		expect(await registry.execute(callInput())).toEqual(failure('added during evaluation'));
		disposeLate!();
		expect(await registry.execute(callInput())).toEqual(echoSuccess('hi'));
	});

	it('cannot be overridden by a later pre-execute allow, and a throwing guard is a final error', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool());
		registry.on('tools/pre-execute', async () => ({kind: 'allow'}));
		const dispose = registry.guard(() => 'guarded');
		expect(await registry.execute(callInput())).toEqual(failure('guarded'));
		dispose();
		const order: string[] = [];
		registry.guard(() => {
			throw new Error('guard crashed');
		});
		registry.on('tools/post-execute', async (_exec, _result, next) => {
			order.push('post');
			return next();
		});
		expect(await registry.execute(callInput())).toEqual(failure('guard crashed'));
		expect(order).toEqual([]);
	});
});

describe('tools/change for the code transport', () => {
	it('rolls an attach back when a change listener throws', () => {
		const registry = new ToolRegistry({mode: 'both'});
		const dispose = registry.on('tools/change', () => {
			throw new Error('listener broke');
		});
		expect(() => registry.attachCodeTransport(echoTool({name: 'run_code'}))).toThrow(new Error('listener broke'));
		expect(registry.get('run_code')).toBeUndefined();
		dispose();
		registry.attachCodeTransport(echoTool({name: 'run_code'}));
		expect(registry.get('run_code')?.name).toBe('run_code');
	});
});
