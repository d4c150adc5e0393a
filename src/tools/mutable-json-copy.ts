/**
@module A mutable deep copy of a JSON value, iterative so a deeply nested schema cannot overflow
the call stack (`structuredClone` recurses natively and does).
*/
import type {JsonValue} from '../json/json-value.js';

/** Copy `value` into fresh, unfrozen arrays and plain records. Keys are defined, never assigned (`__proto__` stays data). */
export function mutableJsonCopy(value: JsonValue): JsonValue {
	const copyShell = (source: JsonValue): JsonValue => {
		if (Array.isArray(source)) {
			return [];
		}

		return typeof source === 'object' && source !== null ? {} : source;
	};

	const root = copyShell(value);
	const stack: Array<{readonly source: JsonValue; readonly target: JsonValue}> = [{source: value, target: root}];
	while (stack.length > 0) {
		const {source, target} = stack.pop()!;
		if (Array.isArray(source)) {
			for (const item of source) {
				const child = copyShell(item);
				(target as JsonValue[]).push(child);
				stack.push({source: item, target: child});
			}
		} else if (typeof source === 'object' && source !== null) {
			for (const [key, item] of Object.entries(source)) {
				const child = copyShell(item);
				Object.defineProperty(target, key, {value: child, enumerable: true, writable: true, configurable: true});
				stack.push({source: item, target: child});
			}
		}
	}

	return root;
}
