import {isIntrinsicArray, isPlainRecord} from './is-plain-record.js';
import type {JsonValue} from './json-value.js';

/** Result of `snapshotJsonValue`: a deep-frozen copy, or the verdict "not lossless". */
export type JsonSnapshot = {readonly ok: true; readonly value: JsonValue} | {readonly ok: false};

const notLossless: JsonSnapshot = Object.freeze({ok: false});

/**
Validate that `input` is lossless JSON and return a deep-frozen copy, in one pass.

Each property is read exactly once, so a getter cannot return one value to the check and another
to the copy. A getter that throws propagates its error (callers turn it into their own message);
everything else that is not lossless yields `{ok: false}`. Shared references are copied at each
occurrence; an ancestor cycle is not lossless. Works with an explicit stack, so depth is bounded
by memory, not by the call stack.
*/
export function snapshotJsonValue(input: unknown): JsonSnapshot {
	const scalar = snapshotScalar(input);
	if (scalar !== undefined) {
		return scalar;
	}

	type Frame = {source: object; target: JsonValue[] | Record<string, JsonValue>; keys: string[]; index: number};
	const ancestors = new Set<object>();
	const stack: Frame[] = [];

	const open = (source: unknown): JsonValue[] | Record<string, JsonValue> | undefined => {
		if (typeof source !== 'object' || source === null || ancestors.has(source)) {
			return undefined;
		}

		const keys = ownDataKeys(source);
		if (keys === undefined) {
			return undefined;
		}

		const target: JsonValue[] | Record<string, JsonValue> = Array.isArray(source) ? [] : {};
		ancestors.add(source);
		stack.push({source, target, keys, index: 0});
		return target;
	};

	const root = open(input);
	if (root === undefined) {
		return notLossless;
	}

	while (stack.length > 0) {
		const frame = stack[stack.length - 1]!;
		if (frame.index === frame.keys.length) {
			stack.pop();
			ancestors.delete(frame.source);
			Object.freeze(frame.target);
			continue;
		}

		const key = frame.keys[frame.index++]!;
		const child: unknown = (frame.source as Record<string, unknown>)[key];
		let copy: JsonValue | undefined;
		const childScalar = snapshotScalar(child);
		if (childScalar === undefined) {
			copy = open(child);
		} else if (childScalar.ok) {
			copy = childScalar.value;
		}

		if (copy === undefined) {
			return notLossless;
		}

		if (Array.isArray(frame.target)) {
			frame.target.push(copy);
		} else {
			// Define, never assign: a key named `__proto__` must stay ordinary data.
			Object.defineProperty(frame.target, key, {value: copy, enumerable: true, writable: true, configurable: true});
		}
	}

	return {ok: true, value: root};
}

/** Whether `input` is lossless JSON. A throwing getter counts as "not lossless" here. */
export function isLosslessJson(input: unknown): input is JsonValue {
	try {
		return snapshotJsonValue(input).ok;
	} catch {
		return false;
	}
}

/** Scalars resolve immediately; `undefined` means "a container, look inside". */
function snapshotScalar(value: unknown): JsonSnapshot | undefined {
	switch (typeof value) {
		case 'string':
		case 'boolean': {
			return {ok: true, value};
		}

		case 'number': {
			return Number.isFinite(value) && !Object.is(value, -0) ? {ok: true, value} : notLossless;
		}

		case 'object': {
			return value === null ? {ok: true, value: null} : undefined;
		}

		default: {
			return notLossless;
		}
	}
}

/**
The keys to copy from a container, or `undefined` when the container's shape is not lossless:
arrays must be intrinsic, dense and undecorated; records plain, with only enumerable string keys.
*/
function ownDataKeys(source: object): string[] | undefined {
	if (Array.isArray(source)) {
		if (!isIntrinsicArray(source)) {
			return undefined;
		}

		const keys = Reflect.ownKeys(source);
		const {length} = source;
		// A dense, undecorated array has exactly its indices plus `length`.
		if (keys.length !== length + 1) {
			return undefined;
		}

		const indices: string[] = [];
		for (let index = 0; index < length; index++) {
			if (!Object.prototype.hasOwnProperty.call(source, index)) {
				return undefined;
			}

			indices.push(String(index));
		}

		return indices;
	}

	if (!isPlainRecord(source)) {
		return undefined;
	}

	const keys = Reflect.ownKeys(source);
	const result: string[] = [];
	for (const key of keys) {
		if (typeof key !== 'string' || !Object.prototype.propertyIsEnumerable.call(source, key)) {
			return undefined;
		}

		result.push(key);
	}

	return result;
}
