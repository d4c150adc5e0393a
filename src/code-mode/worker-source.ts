/**
@module The program side of Code Mode: JavaScript evaluated in a fresh `worker_thread` (its own V8
isolate and realm, never the registry's). It is kept as source text, not a module, so it runs the
same from the TypeScript sources (tests) and from `dist/`.

Protocol (all messages are structured-cloned over the worker's parent port):
- worker → parent: `{type:'started'}` (the program begins now), `{type:'log', text}`, `{type:'call', id, name, args}` (args already checked
  lossless here, where getters and prototypes are still visible), `{type:'done', hasResult, result}`,
  `{type:'failed', kind, message}` (`exception`, `invalid-output`, `output-limit`).
- parent → worker: `{type:'settle', id, ok, value | message}` for each call.

`workerData`: `{code, toolNames, maxLogChars}`. The program is the body of an async function with
parameters `tools`, `console` and `ToolCallError` (also installed as globals), so top-level
`await`/`return` work and static `import` statements do not (use `await import('node:fs')`).
This is a realm boundary, not a security sandbox: the program has Node's full API.
*/

/** Source text of the worker; evaluated with `new Worker(workerSource, {eval: true, workerData})`. */
export const workerSource = String.raw`'use strict';
const {parentPort, workerData} = require('node:worker_threads');
const {format} = require('node:util');
const {code, toolNames, maxLogChars} = workerData;

class ToolCallError extends Error {
	constructor(toolName, message) {
		super(message);
		this.name = 'ToolCallError';
		this.toolName = toolName;
	}
}

let finished = false;
let logChars = 0;
function post(message) {
	if (!finished) {
		parentPort.postMessage(message);
	}
}

function finish(message) {
	if (!finished) {
		parentPort.postMessage(message);
		finished = true;
	}
}

function describe(thrown) {
	try {
		if (thrown instanceof Error) {
			return thrown.name + ': ' + thrown.message;
		}

		if (typeof thrown === 'string') {
			return thrown;
		}

		return format('%o', thrown);
	} catch {
		return '<unprintable thrown value>';
	}
}

function log(...args) {
	const text = format(...args);
	logChars += text.length;
	if (logChars > maxLogChars) {
		finish({type: 'failed', kind: 'output-limit', message: 'the program logged more than ' + maxLogChars + ' characters'});
		return;
	}

	post({type: 'log', text});
}

const capturedConsole = Object.create(null);
for (const name of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table']) {
	capturedConsole[name] = log;
}

// One pass, reading every property once: {ok, value} or {ok: false}; a throwing getter propagates.
function snapshot(input) {
	const notLossless = {ok: false};
	const scalar = (value) => {
		switch (typeof value) {
			case 'string':
			case 'boolean':
				return {ok: true, value};
			case 'number':
				return Number.isFinite(value) && !Object.is(value, -0) ? {ok: true, value} : notLossless;
			case 'object':
				return value === null ? {ok: true, value: null} : undefined;
			default:
				return notLossless;
		}
	};
	const keysOf = (source) => {
		const keys = Reflect.ownKeys(source);
		if (Array.isArray(source)) {
			if (Object.getPrototypeOf(source) !== Array.prototype || keys.length !== source.length + 1) {
				return undefined;
			}

			const indices = [];
			for (let index = 0; index < source.length; index++) {
				if (!Object.prototype.hasOwnProperty.call(source, index)) {
					return undefined;
				}

				indices.push(String(index));
			}

			return indices;
		}

		const prototype = Object.getPrototypeOf(source);
		if (prototype !== Object.prototype && prototype !== null) {
			return undefined;
		}

		for (const key of keys) {
			if (typeof key !== 'string' || !Object.prototype.propertyIsEnumerable.call(source, key)) {
				return undefined;
			}
		}

		return keys;
	};
	const first = scalar(input);
	if (first !== undefined) {
		return first;
	}

	const ancestors = new Set();
	const stack = [];
	const open = (source) => {
		if (typeof source !== 'object' || source === null || ancestors.has(source)) {
			return undefined;
		}

		const keys = keysOf(source);
		if (keys === undefined) {
			return undefined;
		}

		const target = Array.isArray(source) ? [] : {};
		ancestors.add(source);
		stack.push({source, target, keys, index: 0});
		return target;
	};
	const root = open(input);
	if (root === undefined) {
		return notLossless;
	}

	while (stack.length > 0) {
		const frame = stack[stack.length - 1];
		if (frame.index === frame.keys.length) {
			stack.pop();
			ancestors.delete(frame.source);
			continue;
		}

		const key = frame.keys[frame.index++];
		const child = frame.source[key];
		const childScalar = scalar(child);
		const copy = childScalar === undefined ? open(child) : childScalar.ok ? childScalar.value : undefined;
		if (copy === undefined) {
			return notLossless;
		}

		if (Array.isArray(frame.target)) {
			frame.target.push(copy);
		} else {
			Object.defineProperty(frame.target, key, {value: copy, enumerable: true, writable: true, configurable: true});
		}
	}

	return {ok: true, value: root};
}

let nextCallId = 0;
const pending = new Map();
parentPort.on('message', (message) => {
	if (message === null || typeof message !== 'object' || message.type !== 'settle') {
		return;
	}

	const call = pending.get(message.id);
	if (call === undefined) {
		return;
	}

	pending.delete(message.id);
	if (message.ok) {
		call.resolve(message.value);
	} else {
		call.reject(new ToolCallError(call.name, message.message));
	}
});

function binding(name) {
	return async function (args) {
		let copy;
		try {
			copy = snapshot(args);
		} catch (error) {
			throw new ToolCallError(name, 'tool arguments must be lossless JSON: ' + (error instanceof Error ? error.message : describe(error)));
		}

		if (!copy.ok) {
			throw new ToolCallError(name, 'tool arguments must be lossless JSON (call the tool with an arguments object, e.g. \x60{}\x60)');
		}

		const id = ++nextCallId;
		return new Promise((resolve, reject) => {
			pending.set(id, {name, resolve, reject});
			post({type: 'call', id, name, args: copy.value});
		});
	};
}

const tools = Object.create(null);
for (const name of toolNames) {
	Object.defineProperty(tools, name, {value: binding(name), enumerable: true, writable: false, configurable: false});
}

Object.freeze(tools);
Object.defineProperty(globalThis, 'console', {value: capturedConsole, writable: true, configurable: true});
Object.defineProperty(globalThis, 'tools', {value: tools, writable: true, configurable: true});
Object.defineProperty(globalThis, 'ToolCallError', {value: ToolCallError, writable: true, configurable: true});
// A promise the program forgot to await must not kill the run; a throw from a timer ends it.
process.on('unhandledRejection', () => {});
process.on('uncaughtException', (error) => {
	finish({type: 'failed', kind: 'exception', message: describe(error)});
});

(async () => {
	post({type: 'started'});
	const AsyncFunction = (async () => {}).constructor;
	const program = new AsyncFunction('tools', 'console', 'ToolCallError', code);
	const value = await program(tools, capturedConsole, ToolCallError);
	if (value === undefined) {
		finish({type: 'done', hasResult: false});
		return;
	}

	let copy;
	try {
		copy = snapshot(value);
	} catch (error) {
		finish({type: 'failed', kind: 'invalid-output', message: 'reading the returned value threw: ' + describe(error)});
		return;
	}

	if (copy.ok) {
		finish({type: 'done', hasResult: true, result: copy.value});
	} else {
		finish({type: 'failed', kind: 'invalid-output', message: 'the program returned a value that is not lossless JSON (return plain objects, arrays, strings, finite numbers, booleans or null)'});
	}
})().catch((error) => {
	finish({type: 'failed', kind: 'exception', message: describe(error)});
});
`;
