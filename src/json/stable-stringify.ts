import type {JsonValue} from './json-value.js';

/** `JSON.stringify` with object keys sorted, so equal values give equal text. */
export function stableStringify(value: JsonValue, indent?: number): string {
	return JSON.stringify(sortKeys(value), undefined, indent);
}

function sortKeys(value: JsonValue): JsonValue {
	if (Array.isArray(value)) {
		return value.map(item => sortKeys(item));
	}

	if (value === null || typeof value !== 'object') {
		return value;
	}

	const sorted: Record<string, JsonValue> = {};
	for (const key of Object.keys(value).sort()) {
		Object.defineProperty(sorted, key, {value: sortKeys(value[key]!), enumerable: true, writable: true, configurable: true});
	}

	return sorted;
}
