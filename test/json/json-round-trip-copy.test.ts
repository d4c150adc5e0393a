import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {jsonRoundTripCopy} from '../../src/json/json-round-trip-copy.js';

/** Define, never assign, so a `__proto__` key stays ordinary data. */
function record(entries: ReadonlyArray<readonly [string, unknown]>, nullPrototype = false): Record<string, unknown> {
	const target: Record<string, unknown> = nullPrototype ? (Object.create(null) as Record<string, unknown>) : {};
	for (const [key, value] of entries) {
		Object.defineProperty(target, key, {value, enumerable: true, writable: true, configurable: true});
	}

	return target;
}

/** What the writer did before: the value through its own JSON text. */
function roundTrip(value: unknown): unknown {
	return JSON.parse(JSON.stringify(value)) as unknown;
}

/**
Exactly the same data: primitives by `Object.is` (so −0 is not 0), the same prototypes and the same
own keys in the same order. Not `toStrictEqual`: it reads an own `constructor` key as the type.
*/
function sameData(a: unknown, b: unknown): boolean {
	if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
		return Object.is(a, b);
	}

	const keys = Reflect.ownKeys(a);
	const otherKeys = Reflect.ownKeys(b);
	return Object.getPrototypeOf(a) === Object.getPrototypeOf(b)
		&& keys.length === otherKeys.length
		&& keys.every((name, index) => name === otherKeys[index] && sameData((a as Record<PropertyKey, unknown>)[name], (b as Record<PropertyKey, unknown>)[name]));
}

class Point {
	x = 1;
}

/** Values the round trip changes or refuses; the copy must leave them to it. */
const awkward = fc.constantFrom<() => unknown>(
	() => undefined,
	() => () => 1,
	() => Symbol('s'),
	() => Number.NaN,
	() => Number.POSITIVE_INFINITY,
	// eslint-disable-next-line no-sparse-arrays -- a hole is the case
	() => [1, , 3],
	() => new Point(),
	() => new Date(0),
	() => new Map([[1, 2]]),
	() => new String('x'),
	() => ({toJSON: () => 'replaced'}),
	() => Object.assign([1, 2], {toJSON: () => 'replaced'}),
);

const key = fc.oneof(fc.string({maxLength: 6}), fc.constantFrom('__proto__', 'constructor', 'toString', '0', '10', ''));

/** Plain JSON data (−0 included, null-prototype records), with an awkward value here and there when `awkwardWeight` > 0. */
function data(awkwardWeight: number) {
	return fc.letrec<{value: unknown}>(tie => ({
		value: fc.oneof(
			{depthSize: 'small', withCrossShrink: true},
			fc.constant(null),
			fc.boolean(),
			fc.string({maxLength: 8}),
			fc.double({noNaN: true, noDefaultInfinity: true}),
			fc.integer(),
			fc.array(tie('value'), {maxLength: 4}),
			fc.tuple(fc.uniqueArray(fc.tuple(key, tie('value')), {maxLength: 4, selector: ([name]) => name}), fc.boolean()).map(([entries, nullPrototype]) => record(entries, nullPrototype)),
			...(awkwardWeight > 0 ? [{arbitrary: awkward.map(make => make()), weight: awkwardWeight}] : []),
		),
	})).value;
}

describe('jsonRoundTripCopy', () => {
	it('copies plain data exactly as the round trip gives it, and its text is the same', () => {
		fc.assert(
			fc.property(data(0), value => {
				const copy = jsonRoundTripCopy(value);
				expect(copy).not.toBeUndefined();
				expect(sameData(copy, roundTrip(value))).toBe(true);
				expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
			}),
			{numRuns: 400},
		);
	});

	it('is the round trip or leaves the value to it, whatever the value holds', () => {
		fc.assert(
			fc.property(data(2), value => {
				const copy = jsonRoundTripCopy(value);
				if (copy !== undefined) {
					expect(sameData(copy, roundTrip(value))).toBe(true);
					expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
				}
			}),
			{numRuns: 400},
		);
	});

	it.each([
		['undefined in a record', {a: undefined}],
		['NaN', {a: Number.NaN}],
		// eslint-disable-next-line no-sparse-arrays -- a hole is the case
		['a hole', {a: [1, , 3]}],
		['a Date', {a: new Date(0)}],
		['a class instance', {a: new Point()}],
		['a toJSON', {a: {toJSON: () => 1}}],
		['a bigint', {a: 1n}],
	])('leaves %s to the round trip', (_label, value) => {
		expect(jsonRoundTripCopy(value)).toBeUndefined();
	});

	it('writes −0 as 0, skips what the round trip skips, and keeps __proto__ an ordinary key', () => {
		const value = record([['zero', -0], ['__proto__', {x: 1}]]);
		Object.defineProperty(value, 'hidden', {value: 1, enumerable: false});
		(value as Record<symbol, unknown>)[Symbol('s')] = 1;
		const copy = jsonRoundTripCopy(value);
		expect(sameData(copy, roundTrip(value))).toBe(true);
		expect(Object.is((copy as {zero: number}).zero, 0)).toBe(true);
		expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
		expect(Object.keys(copy!)).toEqual(['zero', '__proto__']);
	});

	it('reads each property once, so the copy is what its text says', () => {
		let reads = 0;
		const value = {get n() {
			reads += 1;
			return reads;
		}};
		const copy = jsonRoundTripCopy(value);
		expect(reads).toBe(1);
		expect(sameData(roundTrip(copy), copy)).toBe(true);
	});

	it('gives up on a cycle and on nesting deeper than events go, where the round trip decides', () => {
		const cycle: Record<string, unknown> = {};
		cycle.self = cycle;
		expect(jsonRoundTripCopy(cycle)).toBeUndefined();
		let deep: unknown = 'leaf';
		for (let level = 0; level < 100; level++) {
			deep = [deep];
		}

		expect(jsonRoundTripCopy(deep)).toBeUndefined();
		expect(jsonRoundTripCopy([[['leaf']]])).toEqual([[['leaf']]]);
	});
});
