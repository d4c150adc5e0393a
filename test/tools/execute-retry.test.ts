/**
A `tools/execute` wrapper may retry (contract.md §T8 names retries as a use of the
hook): after a failed `next()` it may call `next()` again, and the inner wrappers and the body run
again; never while a `next()` is still running, never after one succeeded, never on its own.
*/
import {describe, expect, it} from 'vitest';
import {ToolRegistry} from '../../src/tools/registry.js';
import type {UserMessage} from '../../src/tools/content.js';
import type {ToolExecutionResult, ToolRunContext} from '../../src/tools/types.js';
import {callInput, echoSuccess, echoTool, failure} from './pipeline-fixtures.js';

const abortedBeforeDispatch = failure('tool call aborted before dispatch', {name: 'AbortError', code: 'ABORTED_BEFORE_DISPATCH'});

/** `echo` whose body fails (throws `attempt N failed`) for its first `failures` runs. */
function flakyEcho(failures: number, extra: (attempt: number, exec: ToolRunContext) => void = () => {}) {
	let attempts = 0;
	const tool = echoTool({
		async execute(args: unknown, exec: ToolRunContext) {
			attempts += 1;
			extra(attempts, exec);
			if (attempts <= failures) {
				throw new Error(`attempt ${attempts} failed`);
			}

			return (args as {value: string}).value;
		},
	});
	return {tool, attempts: () => attempts};
}

/** A wrapper that calls `next()` up to `times` times, until a result is not an error. */
function retrying(times: number, seen: ToolExecutionResult[] = []) {
	return async (_exec: unknown, next: () => Promise<ToolExecutionResult>): Promise<ToolExecutionResult> => {
		let result = await next();
		seen.push(result);
		for (let attempt = 1; attempt < times && result.isError; attempt++) {
			// attempts run one after another
			result = await next();
			seen.push(result);
		}

		return result;
	};
}

function message(id: string): UserMessage {
	return {id, role: 'user', content: [{type: 'text', text: id}], source: {kind: 'plugin', plugin: 'test'}};
}

describe('a retrying tools/execute wrapper', () => {
	it('runs the body again after a failed next(), and the retried success is the result as dispatched', async () => {
		const registry = new ToolRegistry();
		const {tool, attempts} = flakyEcho(2);
		let renders = 0;
		registry.register({...tool, output: {...tool.output, render(args, value) {
			renders += 1;
			return tool.output.render(args, value);
		}}});
		const seen: ToolExecutionResult[] = [];
		registry.on('tools/execute', retrying(3, seen));
		const observed: ToolExecutionResult[] = [];
		registry.on('tools/result', (_exec, result) => {
			observed.push(result);
		});

		const result = await registry.execute(callInput());
		expect(attempts()).toBe(3);
		expect(seen).toEqual([failure('attempt 1 failed'), failure('attempt 2 failed'), echoSuccess('hi')]);
		expect(result).toEqual(echoSuccess('hi'));
		// Stage 13: the retried dispatch's own success passes as is; re-normalizing it would render it again.
		expect(renders).toBe(1);
		expect(observed).toEqual([result]);
	});

	it('gives up when the wrapper does: the last failure is the result, the body never runs unasked', async () => {
		const registry = new ToolRegistry();
		const {tool, attempts} = flakyEcho(5);
		registry.register(tool);
		registry.on('tools/execute', retrying(2));
		expect(await registry.execute(callInput())).toEqual(failure('attempt 2 failed'));
		expect(attempts()).toBe(2);

		const once = new ToolRegistry();
		const single = flakyEcho(1);
		once.register(single.tool);
		once.on('tools/execute', async (_exec, next) => next());
		expect(await once.execute(callInput())).toEqual(failure('attempt 1 failed'));
		expect(single.attempts()).toBe(1);
	});

	it('may retry after next() rejected, and the inner wrappers run again', async () => {
		const registry = new ToolRegistry();
		const {tool, attempts} = flakyEcho(0);
		registry.register(tool);
		registry.on('tools/execute', async (_exec, next) => {
			try {
				return await next();
			} catch {
				return next();
			}
		});
		let innerRuns = 0;
		registry.on('tools/execute', async (_exec, next) => {
			innerRuns += 1;
			if (innerRuns === 1) {
				throw new Error('inner wrapper lost its connection');
			}

			return next();
		});

		expect(await registry.execute(callInput())).toEqual(echoSuccess('hi'));
		expect(innerRuns).toBe(2);
		expect(attempts()).toBe(1);
	});

	it('rejects a second next() after the first succeeded; the body ran once', async () => {
		const registry = new ToolRegistry();
		const {tool, attempts} = flakyEcho(0);
		registry.register(tool);
		let second: unknown;
		registry.on('tools/execute', async (_exec, next) => {
			const first = await next();
			try {
				await next();
			} catch (error) {
				second = error;
			}

			return first;
		});

		expect(await registry.execute(callInput())).toEqual(echoSuccess('hi'));
		expect((second as Error).message).toBe('tools/execute listener 1 called next() again after it succeeded');
		expect(attempts()).toBe(1);
	});

	it('rejects a second next() while the first is still running; the body ran once', async () => {
		const registry = new ToolRegistry();
		let release!: () => void;
		const gate = new Promise<void>(resolve => {
			release = resolve;
		});
		const {tool, attempts} = flakyEcho(1, () => {});
		registry.register({...tool, execute: async (args: unknown, exec: ToolRunContext) => {
			await gate;
			return tool.execute(args, exec);
		}});
		registry.on('tools/execute', async (_exec, next) => {
			const first = next();
			const overlapping = next();
			await expect(overlapping).rejects.toThrow('tools/execute listener 1 called next() again while its previous next() is still running');
			release();
			return first;
		});

		expect(await registry.execute(callInput())).toEqual(failure('attempt 1 failed'));
		expect(attempts()).toBe(1);
	});

	it('lets each attempt have its own deadline: a retry after the wrapper’s signal fired dispatches again', async () => {
		const registry = new ToolRegistry();
		const {tool, attempts} = flakyEcho(0);
		registry.register(tool);
		const results: ToolExecutionResult[] = [];
		registry.on('tools/execute', async (exec, next) => {
			const upstream = exec.signal;
			// The first attempt's deadline has already passed; the second runs under the caller's signal.
			exec.signal = AbortSignal.abort(new Error('deadline'));
			try {
				results.push(await next());
			} finally {
				exec.signal = upstream;
			}

			results.push(await next());
			return results[1]!;
		});

		expect(await registry.execute(callInput())).toEqual(echoSuccess('hi'));
		expect(results[0]).toEqual(abortedBeforeDispatch);
		expect(attempts()).toBe(1);
	});

	it('keeps concludeTurn() to the attempt that succeeded, and the contexts every attempt deferred', async () => {
		const registry = new ToolRegistry();
		const {tool} = flakyEcho(1, (attempt, exec) => {
			exec.deferContext(message(`attempt-${attempt}`));
			if (attempt === 1) {
				exec.concludeTurn();
			}
		});
		registry.register(tool);
		registry.on('tools/execute', retrying(2));
		const result = await registry.execute(callInput());
		expect(result.isError).toBe(false);
		expect('concludesTurn' in result).toBe(false);
		expect(result.additionalContexts).toEqual([message('attempt-1'), message('attempt-2')]);

		const concluding = new ToolRegistry();
		concluding.register(flakyEcho(1, (attempt, exec) => {
			if (attempt === 2) {
				exec.concludeTurn();
			}
		}).tool);
		concluding.on('tools/execute', retrying(2));
		expect(await concluding.execute(callInput())).toMatchObject({isError: false, concludesTurn: true});
	});
});

describe('the other waterfalls still run next() at most once', () => {
	it('pre-execute: a second next() is rejected even after a deny (pre-execute runs once per execution)', async () => {
		const registry = new ToolRegistry();
		const {tool, attempts} = flakyEcho(0);
		registry.register(tool);
		registry.on('tools/pre-execute', async (_exec, next) => {
			await next();
			return next();
		});
		registry.on('tools/pre-execute', async () => ({kind: 'deny', reason: 'no'}));
		expect(await registry.execute(callInput())).toEqual(failure('tools/pre-execute listener 1 called next() more than once'));
		expect(attempts()).toBe(0);
	});

	it('post-execute: a second next() is rejected', async () => {
		const registry = new ToolRegistry();
		registry.register(echoTool());
		registry.on('tools/post-execute', async (_exec, _result, next) => {
			await next();
			return next();
		});
		expect(await registry.execute(callInput())).toEqual(failure('tools/post-execute listener 1 called next() more than once'));
	});
});
