import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import type {JsonValue} from '../../src/json/json-value.js';
import {snapshotJsonValue} from '../../src/json/snapshot-json.js';

/** Define, never assign, so a `__proto__` key stays ordinary data. */
function record(entries: ReadonlyArray<readonly [string, unknown]>, nullPrototype = false): Record<string, unknown> {
	const target: Record<string, unknown> = nullPrototype ? (Object.create(null) as Record<string, unknown>) : {};
	for (const [key, value] of entries) {
		Object.defineProperty(target, key, {value, enumerable: true, writable: true, configurable: true});
	}

	return target;
}

const key = fc.oneof(fc.string({maxLength: 6}), fc.constantFrom('__proto__', 'constructor', 'toString', 'a.b', ''));

/** Lossless JSON: finite numbers without −0, plain and null-prototype records, dense arrays. */
const {json: losslessJson} = fc.letrec<{json: JsonValue}>(tie => ({
	json: fc.oneof(
		{depthSize: 'small', withCrossShrink: true},
		fc.constant(null),
		fc.boolean(),
		fc.string({maxLength: 8}),
		fc.double({noNaN: true, noDefaultInfinity: true}).map(value => (Object.is(value, -0) ? 0 : value)),
		fc.integer(),
		fc.array(tie('json'), {maxLength: 4}),
		fc
			.tuple(fc.uniqueArray(fc.tuple(key, tie('json')), {maxLength: 4, selector: ([name]) => name}), fc.boolean())
			.map(([entries, nullPrototype]) => record(entries, nullPrototype) as JsonValue),
	),
}));

function isDeepFrozen(value: unknown): boolean {
	if (typeof value !== 'object' || value === null) {
		return true;
	}

	return Object.isFrozen(value) && Object.values(value).every(child => isDeepFrozen(child));
}

/** Containers of `copy` are never containers of `original` (a detached copy). */
function sharesNoContainer(copy: unknown, original: unknown): boolean {
	if (typeof copy !== 'object' || copy === null) {
		return true;
	}

	return copy !== original && Object.keys(copy).every(name => sharesNoContainer((copy as never)[name], (original as never)[name]));
}

class Point {
	x = 1;
}

class Items extends Array<number> {}

/** A value that makes its container non-lossless, built fresh per use. */
const poisons: ReadonlyArray<readonly [string, () => unknown]> = [
	['undefined', () => undefined],
	['a function', () => () => 1],
	['a symbol', () => Symbol('s')],
	['a bigint', () => 10n],
	['NaN', () => Number.NaN],
	['Infinity', () => Number.POSITIVE_INFINITY],
	['-Infinity', () => Number.NEGATIVE_INFINITY],
	['-0', () => -0],
	// eslint-disable-next-line no-sparse-arrays -- a hole is the case
	['a sparse array', () => [1, , 3]],
	['a decorated array', () => Object.assign([1], {extra: 1})],
	['an Array subclass', () => Items.from([1])],
	['a class instance', () => new Point()],
	['a Date', () => new Date(0)],
	['a Map', () => new Map()],
	['a boxed string', () => new String('x')],
	['a toJSON object', () => ({toJSON: () => 1})],
	['a non-enumerable key', () => Object.defineProperty({}, 'hidden', {value: 1, enumerable: false})],
	['a symbol key', () => ({[Symbol('k')]: 1})],
];

/** One step from the root down to the poison: an array index or a record key, with lossless siblings. */
const step = fc.oneof(
	fc.record({kind: fc.constant('array' as const), before: fc.array(losslessJson, {maxLength: 2})}),
	fc.record({kind: fc.constant('record' as const), name: key, siblings: fc.array(fc.tuple(key, losslessJson), {maxLength: 2})}),
);
const path = fc.array(step, {maxLength: 5});

type Step = {kind: 'array'; before: JsonValue[]} | {kind: 'record'; name: string; siblings: Array<[string, JsonValue]>};

/** Nest `leaf` under `steps` (the first step is outermost). */
function embed(leaf: unknown, steps: readonly Step[]): unknown {
	let value = leaf;
	for (const current of [...steps].reverse()) {
		value =
			current.kind === 'array'
				? [...current.before, value]
				: record([...current.siblings.filter(([name]) => name !== current.name), [current.name, value]]);
	}

	return value;
}

describe('snapshotJsonValue properties', () => {
	it('returns any lossless JSON value unchanged, deep-frozen and detached', () => {
		fc.assert(
			fc.property(losslessJson, value => {
				const snapshot = snapshotJsonValue(value);
				expect(snapshot.ok).toBe(true);
				const copy = snapshot.ok ? snapshot.value : undefined;
				// A null-prototype record is copied as a plain one, so compare structure, not prototypes.
				expect(copy).toEqual(value);
				expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
				expect(isDeepFrozen(copy)).toBe(true);
				expect(sharesNoContainer(copy, value)).toBe(true);
				expect(typeof value !== 'object' || value === null || !Object.isFrozen(value)).toBe(true);
			}),
			{numRuns: 300},
		);
	});

	it.each(poisons)('rejects %s anywhere in a value without throwing', (_label, poison) => {
		fc.assert(
			fc.property(path, steps => {
				expect(snapshotJsonValue(embed(poison(), steps as Step[]))).toEqual({ok: false});
			}),
			{numRuns: 60},
		);
	});

	it('rejects an ancestor cycle anywhere in a value', () => {
		fc.assert(
			fc.property(path, steps => {
				const leaf: Record<string, unknown> = {};
				const root = embed(leaf, steps as Step[]);
				leaf.self = root;
				expect(snapshotJsonValue(root)).toEqual({ok: false});
			}),
			{numRuns: 60},
		);
	});

	it('accepts shared references that are not cycles', () => {
		fc.assert(
			fc.property(losslessJson, shared => {
				const value = [shared, {again: shared}];
				expect(snapshotJsonValue(value)).toEqual({ok: true, value});
			}),
			{numRuns: 100},
		);
	});

	it('propagates the error of a throwing getter anywhere in a value', () => {
		fc.assert(
			fc.property(path, steps => {
				const failure = new Error('getter exploded');
				const leaf = Object.defineProperty({}, 'trap', {
					enumerable: true,
					get() {
						throw failure;
					},
				});
				expect(() => snapshotJsonValue(embed(leaf, steps as Step[]))).toThrow(failure);
			}),
			{numRuns: 60},
		);
	});
});
