import {describe, expect, test} from 'vitest';
import {formatRunCodeResult, renderRunCode} from '../../src/code-mode/render-run-code.js';
import {codeModeTransport, presentRunCodeCall} from '../../src/code-mode/run-code-tool.js';
import {ToolRegistry} from '../../src/tools/registry.js';
import {echo, harness, rawTool, textOf} from './code-mode-fixtures.js';

const codeRunFailed = {name: 'CodeRunFailedError', code: 'CODE_RUN_FAILED'};

describe('run_code results', () => {
	test('console output is captured into logs and the returned value follows it', async () => {
		const h = harness([echo]);
		const result = await h.run('console.log("a", 1, {b: 2}); console.error("oops"); return {answer: [1, "x"]};');
		expect(result).toEqual({
			isError: false,
			value: {logs: ['a 1 { b: 2 }', 'oops'], result: {answer: [1, 'x']}},
			content: [{type: 'text', text: 'a 1 { b: 2 }\noops\n{\n  "answer": [\n    1,\n    "x"\n  ]\n}'}],
		});
	});

	test('a string result is printed raw, null as null, and no output says so', async () => {
		const h = harness([]);
		expect(textOf(await h.run('return "plain text";'))).toBe('plain text');
		expect(textOf(await h.run('return null;'))).toBe('null');
		const silent = await h.run('const x = 1;');
		expect({value: silent.isError ? undefined : silent.value, text: textOf(silent)}).toEqual({value: {logs: []}, text: '(run_code completed with no output)'});
	});

	test('containers at depth five or more are printed compactly', () => {
		expect(formatRunCodeResult({a: {b: {c: {d: {e: {f: [1, 2]}, g: []}}}}})).toBe(
			'{\n  "a": {\n    "b": {\n      "c": {\n        "d": {\n          "e": {"f":[1,2]},\n          "g": []\n        }\n      }\n    }\n  }\n}',
		);
		expect(renderRunCode({logs: ['x'], result: 'y'})).toEqual([{type: 'text', text: 'x\ny'}]);
		expect(renderRunCode({logs: ['', ''], result: ''})).toEqual([{type: 'text', text: '\n'}]);
	});

	test('top-level await works and the program runs outside the registry realm', async () => {
		const h = harness([]);
		(globalThis as Record<string, unknown>).cardtermRealmProbe = 'parent';
		const result = await h.run('await new Promise(resolve => setImmediate(resolve)); const {isMainThread} = await import("node:worker_threads"); return [typeof globalThis.cardtermRealmProbe, isMainThread];');
		delete (globalThis as Record<string, unknown>).cardtermRealmProbe;
		expect(result.isError ? result.error : result.value).toEqual({logs: [], result: ['undefined', false]});
	});
});

describe('failed programs', () => {
	test('a thrown error is an exception failure with the captured output', async () => {
		const result = await harness([]).run('console.log("step 1"); throw new Error("boom");');
		expect(result).toEqual({
			isError: true,
			error: {message: 'code run failed (exception): Error: boom\nCaptured output:\nstep 1', info: codeRunFailed},
			content: [{type: 'text', text: 'Error: code run failed (exception): Error: boom\nCaptured output:\nstep 1'}],
		});
	});

	test('a syntax error is an exception failure', async () => {
		const result = await harness([]).run('return )');
		expect(result.isError && result.error).toEqual({message: 'code run failed (exception): SyntaxError: Unexpected token \')\'', info: codeRunFailed});
	});

	test('a busy loop is stopped at the timeout', async () => {
		const result = await harness([], {timeoutMs: 300}).run('console.log("spinning"); while (true) {}');
		expect(result.isError && result.error).toEqual({
			message: 'code run failed (timeout): the program did not finish within 300ms\nCaptured output:\nspinning',
			info: codeRunFailed,
		});
	});

	test('exiting the worker is a worker-exit failure', async () => {
		const result = await harness([]).run('process.exit(3);');
		expect(result.isError && result.error.message).toBe('code run failed (worker-exit): the program\'s worker exited with code 3 before the program finished');
	});

	test('a value that is not lossless JSON is an invalid-output failure', async () => {
		const result = await harness([]).run('return new Map();');
		expect(result.isError && result.error.message).toBe(
			'code run failed (invalid-output): the program returned a value that is not lossless JSON (return plain objects, arrays, strings, finite numbers, booleans or null)',
		);
	});

	test('logging past the cap is an output-limit failure', async () => {
		const result = await harness([], {maxLogChars: 10}).run('console.log("12345"); console.log("678901");');
		expect(result.isError && result.error.message).toBe('code run failed (output-limit): the program logged more than 10 characters\nCaptured output:\n12345');
	});

	test('an outer abort kills the program and fails the run', async () => {
		const controller = new AbortController();
		const h = harness([rawTool('started', async () => {
			controller.abort();
			return 'ok';
		})]);
		const result = await h.run('await tools.started({}); await new Promise(() => {});', {signal: controller.signal});
		expect(result.isError && result.error).toEqual({message: 'code run failed (abort): the run_code call was cancelled', info: codeRunFailed});
	});

	test('an outer abort reaches in-flight sub-calls with the caller\'s reason and they still settle with events', async () => {
		const controller = new AbortController();
		let seen: unknown;
		const h = harness([rawTool('hang', async (_args, exec) => {
			const aborted = new Promise<void>(resolve => {
				exec.signal.addEventListener('abort', () => {
					resolve();
				}, {once: true});
			});
			controller.abort(new Error('user hit ctrl-c'));
			await aborted;
			seen = exec.signal.reason;
			return 'late';
		})]);
		const result = await h.run('await tools.hang({});', {signal: controller.signal});
		expect(result.isError && result.error.message).toBe('code run failed (abort): the run_code call was cancelled');
		expect((seen as Error).message).toBe('user hit ctrl-c');
		expect(h.events.map(event => (event.type === 'tool/code-dispatch' ? [event.type, event.data.isError, event.data.content] : [event.type]))).toEqual([
			['tool/code-dispatch-start'],
			// The sub-call's body returned after the cancel: what it returned is kept after the cancellation line.
			['tool/code-dispatch', true, [{type: 'text', text: 'Error: tool call aborted'}, {type: 'text', text: 'hang: "late"'}]],
		]);
	});

	test('a whitespace-only description is refused before anything runs', async () => {
		const result = await harness([]).run('return 1', {description: '  '});
		expect(result.isError && result.error).toEqual({message: 'invalid description: expected a non-empty string'});
	});
});

describe('tools.<name> bindings (contract.md §T7 item 14)', () => {
	test('a binding resolves to the canonical value after post-execute policy', async () => {
		const h = harness([echo]);
		h.registry.on('tools/post-execute', async (exec, result, next) => {
			if (exec.name === 'echo' && !result.isError) {
				return {kind: 'accept', value: `policy:${String(result.value)}`};
			}

			return next();
		});
		const result = await h.run('return await tools.echo({value: "x"});');
		expect(result.isError ? result.error : result.value).toEqual({logs: [], result: 'policy:x'});
	});

	test('the namespace has a null prototype, one binding per visible tool, and exotic names by bracket', async () => {
		const h = harness([echo, rawTool('my-tool', async () => 'dashed'), rawTool('__proto__', async () => 'proto')]);
		const result = await h.run('return [Object.getPrototypeOf(tools) === null, Object.keys(tools), await tools["my-tool"]({}), await tools["__proto__"]({})];');
		expect(result.isError ? result.error : result.value).toEqual({logs: [], result: [true, ['echo', 'my-tool', '__proto__'], 'dashed', 'proto']});
	});

	test('a failed sub-call rejects with ToolCallError carrying the tool name and the failure message', async () => {
		const h = harness([rawTool('fail', async () => {
			throw new Error('disk on fire');
		})]);
		const result = await h.run('try { await tools.fail({}); } catch (error) { return {name: error.name, toolName: error.toolName, message: error.message, isClass: error instanceof ToolCallError}; }');
		expect(result.isError ? result.error : result.value).toEqual({logs: [], result: {name: 'ToolCallError', toolName: 'fail', message: 'disk on fire', isClass: true}});
	});

	test('a denied sub-call rejects with the denial reason', async () => {
		const h = harness([echo]);
		h.registry.on('tools/pre-execute', async (exec, next) => (exec.name === 'echo' ? {kind: 'deny', reason: 'not on my watch'} : next()));
		const result = await h.run('try { await tools.echo({value: 1}); } catch (error) { return error.message; }');
		expect(result.isError ? result.error : result.value).toEqual({logs: [], result: 'not on my watch'});
	});

	test('sub-calls get ordered ids, the outer token as parent, the root call id, and no meta; events pair one to one', async () => {
		const h = harness([echo]);
		const result = await h.run('const a = await tools.echo({value: "one"}); const b = await tools.echo({value: "two"}); return a + b;', {callId: 'outer'});
		expect(result.isError ? result.error : result.value).toEqual({logs: [], result: 'onetwo'});
		const base = {rootCallId: 'outer', parentCallId: 'outer', name: 'echo'};
		expect(h.events).toEqual([
			{type: 'tool/code-dispatch-start', data: {...base, subCallId: 'outer:code:1', arguments: {value: 'one'}}},
			{type: 'tool/code-dispatch', data: {...base, subCallId: 'outer:code:1', arguments: {value: 'one'}, isError: false, content: [{type: 'text', text: 'echo: "one"'}]}},
			{type: 'tool/code-dispatch-start', data: {...base, subCallId: 'outer:code:2', arguments: {value: 'two'}}},
			{type: 'tool/code-dispatch', data: {...base, subCallId: 'outer:code:2', arguments: {value: 'two'}, isError: false, content: [{type: 'text', text: 'echo: "two"'}]}},
		]);
		const outer = h.results.find(entry => entry.exec.callId === 'outer')!;
		expect(h.results.map(({exec, result: r}) => ({
			callId: exec.callId,
			rootCallId: exec.rootCallId,
			parentIsOuter: exec.parent === outer.exec.token,
			agent: exec.agent,
			hasMeta: 'meta' in r,
		}))).toEqual([
			{callId: 'outer:code:1', rootCallId: 'outer', parentIsOuter: true, agent: {id: 'agent-1'}, hasMeta: false},
			{callId: 'outer:code:2', rootCallId: 'outer', parentIsOuter: true, agent: {id: 'agent-1'}, hasMeta: false},
			{callId: 'outer', rootCallId: 'outer', parentIsOuter: false, agent: {id: 'agent-1'}, hasMeta: false},
		]);
	});

	test('non-lossless arguments reject before dispatch with no events and no sub-call number', async () => {
		const h = harness([echo]);
		const result = await h.run(`
			const messages = [];
			for (const args of [undefined, {value: undefined}, {value: new Date(0)}, {get value() { throw new Error('getter says no'); }}]) {
				try { await tools.echo(args); } catch (error) { messages.push(error.name + ': ' + error.message); }
			}
			messages.push(await tools.echo({value: 'fine'}));
			return messages;
		`);
		const lossy = 'ToolCallError: tool arguments must be lossless JSON (call the tool with an arguments object, e.g. `{}`)';
		expect(result.isError ? result.error : result.value).toEqual({
			logs: [],
			result: [lossy, lossy, lossy, 'ToolCallError: tool arguments must be lossless JSON: getter says no', 'fine'],
		});
		expect(h.events.map(event => [event.type, event.data.subCallId])).toEqual([
			['tool/code-dispatch-start', 'call-1:code:1'],
			['tool/code-dispatch', 'call-1:code:1'],
		]);
	});

	test('a tool unregistered mid-run rejects with unknown tool', async () => {
		const registry = new ToolRegistry({mode: 'both'});
		const disposeGone = registry.register(rawTool('gone', async () => 'never'));
		registry.register(rawTool('drop', async () => {
			disposeGone();
			return 'dropped';
		}));
		registry.attachCodeTransport(codeModeTransport({executor: registry}));
		const result = await registry.execute({
			callId: 'c',
			name: 'run_code',
			arguments: {code: 'await tools.drop({}); try { await tools.gone({}); } catch (error) { return error.message; }', description: 'drop and call'},
			signal: new AbortController().signal,
		});
		expect(result.isError ? result.error : result.value).toEqual({logs: [], result: 'unknown tool "gone"'});
	});
});

describe('the sub-call scheduler', () => {
	test('concurrency-safe calls overlap up to maxParallelSubCalls', async () => {
		let active = 0;
		let peak = 0;
		let waiting: Array<() => void> = [];
		const pair = rawTool('pair', async args => {
			active++;
			peak = Math.max(peak, active);
			// Each call waits for a partner: with fewer than two running at once this would never finish.
			if (waiting.length === 0) {
				await new Promise<void>(resolve => waiting.push(resolve));
			} else {
				for (const release of waiting) {
					release();
				}

				waiting = [];
			}

			active--;
			return (args as {n: number}).n;
		}, () => true);
		const h = harness([pair], {maxParallelSubCalls: 2});
		const result = await h.run('return await Promise.all([1, 2, 3, 4].map(n => tools.pair({n})));');
		expect({value: result.isError ? result.error : result.value, peak}).toEqual({value: {logs: [], result: [1, 2, 3, 4]}, peak: 2});
		expect(h.events.filter(event => event.type === 'tool/code-dispatch-start').map(event => event.data.subCallId)).toEqual([
			'call-1:code:1', 'call-1:code:2', 'call-1:code:3', 'call-1:code:4',
		]);
	});

	test('exclusive calls run alone, in submission order', async () => {
		let active = 0;
		let peak = 0;
		const order: number[] = [];
		const step = rawTool('step', async args => {
			active++;
			peak = Math.max(peak, active);
			await new Promise(resolve => setImmediate(resolve));
			order.push((args as {n: number}).n);
			active--;
			return null;
		});
		const h = harness([step]);
		const result = await h.run('await Promise.all([1, 2, 3].map(n => tools.step({n}))); return "ok";');
		expect({ok: !result.isError, peak, order}).toEqual({ok: true, peak: 1, order: [1, 2, 3]});
	});

	test('at settlement the run signal aborts, queued calls are abandoned without events and in-flight ones are awaited', async () => {
		let reason: unknown;
		const block = rawTool('block', async (_args, exec) => {
			await new Promise<void>(resolve => {
				exec.signal.addEventListener('abort', () => {
					resolve();
				}, {once: true});
			});
			reason = exec.signal.reason;
			return 'unblocked';
		});
		const h = harness([block, echo]);
		const result = await h.run('tools.block({}); tools.echo({value: "late"}).catch(() => {}); return "returned early";');
		expect(result.isError ? result.error : result.value).toEqual({logs: [], result: 'returned early'});
		expect((reason as Error).message).toBe('run_code settled');
		expect(h.events.map(event => [event.type, event.data.name, event.type === 'tool/code-dispatch' ? event.data.isError : null])).toEqual([
			['tool/code-dispatch-start', 'block', null],
			['tool/code-dispatch', 'block', true],
		]);
	});
});

describe('the run_code definition', () => {
	test('presentCall gives the generic execute card and there is no presentResult or presentationMeta', () => {
		const tool = codeModeTransport({executor: new ToolRegistry()});
		expect(tool.presentCall?.({code: 'return 1', description: 'Return one'})).toEqual({card: 'generic', title: 'Return one', kind: 'execute', rawInput: 'return 1'});
		expect(presentRunCodeCall({code: 1})).toBeUndefined();
		expect({presentResult: 'presentResult' in tool, presentationMeta: 'presentationMeta' in tool.output}).toEqual({presentResult: false, presentationMeta: false});
		expect(tool.output.schema).toEqual({type: 'object', additionalProperties: false, properties: {logs: {type: 'array', items: {type: 'string'}}, result: {}}, required: ['logs']});
	});

	test('missing or mistyped arguments are argument errors', async () => {
		const registry = new ToolRegistry({mode: 'both'});
		registry.attachCodeTransport(codeModeTransport({executor: registry}));
		const result = await registry.execute({callId: 'c', name: 'run_code', arguments: {code: 3}, signal: new AbortController().signal});
		expect(result.isError && result.error).toEqual({
			message: 'invalid arguments: missing required property "description"; "code" must be a string',
			info: {name: 'ToolArgsError', code: 'INVALID_ARGS'},
		});
	});

	test('a bad limit is refused when the transport is built', () => {
		expect(() => codeModeTransport({executor: new ToolRegistry(), maxParallelSubCalls: 0})).toThrow('maxParallelSubCalls must be a positive integer');
	});
});
