import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {isJsonObject, isPlainRecord} from '../../src/json/is-plain-record.js';

/** Every value inside `value`, itself included. */
function* parts(value: unknown): Generator<unknown> {
	yield value;
	if (typeof value === 'object' && value !== null) {
		for (const child of Object.values(value)) {
			yield* parts(child);
		}
	}
}

describe('isJsonObject', () => {
	it('agrees with isPlainRecord on everything JSON.parse returns, a "__proto__" key included', () => {
		fc.assert(fc.property(fc.json(), text => {
			for (const part of parts(JSON.parse(text))) {
				expect(isJsonObject(part)).toBe(isPlainRecord(part));
			}
		}), {numRuns: 500});
		const proto = JSON.parse('{"__proto__": {"a": 1}, "b": [{}]}') as unknown;
		expect([...parts(proto)].map(part => [isJsonObject(part), isPlainRecord(part)])).toEqual([[true, true], [true, true], [false, false], [false, false], [true, true]]);
	});
});
