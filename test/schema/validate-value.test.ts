import fc from 'fast-check';
import {runInNewContext} from 'node:vm';
import {describe, expect, it} from 'vitest';
import {
	assertSupportedJsonSchema,
	parameterSchemaSpecToJsonSchema,
	validateJsonSchemaValue,
	type JsonSchemaNode,
} from '../../src/schema/index.js';

const fileSchema: JsonSchemaNode = {
	type: 'object',
	properties: {
		file: {type: 'string'},
		nested: {type: 'object', properties: {line: {type: 'integer'}}, required: ['line'], additionalProperties: false},
	},
	required: ['file'],
};

/** A oneOf nested `depth` times around a string leaf, built without recursion. */
function deepOneOf(depth: number): JsonSchemaNode {
	let node: JsonSchemaNode = {type: 'string'};
	for (let level = 0; level < depth; level++) {
		node = {oneOf: [node, {type: 'null'}]};
	}

	return node;
}

describe('validateJsonSchemaValue (contract.md §T1.10 table B)', () => {
	it('the B schemas are in the supported subset', () => {
		expect(() => {
			assertSupportedJsonSchema(fileSchema);
		}).not.toThrow();
	});

	it('B1: accepts extra keys on an open object and a complete closed one', () => {
		expect(validateJsonSchemaValue(fileSchema, {file: 'a', extra: [1], nested: {line: 2}}, 'value')).toEqual([]);
	});

	it('B2: prefixes a missing key with the root label', () => {
		expect(validateJsonSchemaValue(fileSchema, {nested: {line: 1}}, 'value')).toEqual(['missing required property "value.file"']);
	});

	it('B3: reports violations in declaration order, nested ones qualified', () => {
		expect(validateJsonSchemaValue(fileSchema, {file: 1, nested: {}}, 'value')).toEqual([
			'"value.file" must be a string',
			'missing required property "value.nested.line"',
		]);
	});

	it('B4: reports an undeclared key of a closed nested object', () => {
		expect(validateJsonSchemaValue(fileSchema, {file: 'a', nested: {line: 1, extra: true}}, 'value')).toEqual([
			'"value.nested.extra" is not a declared property (additionalProperties: false)',
		]);
	});

	it('B5: treats a required key holding undefined as missing, even for an annotation-only property', () => {
		const schema = {type: 'object', properties: {x: {}}, required: ['x']};
		expect(validateJsonSchemaValue(schema, {x: undefined}, 'value')).toEqual(['missing required property "value.x"']);
	});

	it('B6: an open object must still be lossless, and a Date is not an object', () => {
		expect(validateJsonSchemaValue({type: 'object'}, {x: undefined}, 'value')).toEqual(['"value" must be a lossless JSON object']);
		expect(validateJsonSchemaValue({type: 'object'}, new Date(0), 'value')).toEqual(['"value" must be an object']);
	});

	it('B7: a throwing getter becomes one violation at the object that read it', () => {
		const schema = {type: 'object', properties: {answer: {type: 'integer'}}, required: ['answer']};
		const value = {
			get answer(): number {
				throw new Error('boom');
			},
		};
		expect(validateJsonSchemaValue(schema, value, 'value')).toEqual(['"value" must be a lossless JSON value']);
	});

	const cycle: Record<string, unknown> = {};
	cycle['self'] = cycle;
	const trap = new Proxy(
		{},
		{
			ownKeys() {
				throw new Error('trap');
			},
			getPrototypeOf() {
				throw new Error('trap');
			},
		},
	);
	it.each([
		['undefined', undefined],
		['a function', () => 1],
		['Infinity', Number.POSITIVE_INFINITY],
		['-0', -0],
		['a Map', new Map()],
		['a cycle', cycle],
		['a trapping proxy', trap],
	])('B8: an annotation-only schema rejects %s', (_label, value) => {
		expect(validateJsonSchemaValue({}, value, 'value')).toEqual(['"value" must be a lossless JSON value']);
	});

	it('B9: an own toString key is undeclared on a closed object', () => {
		expect(validateJsonSchemaValue({type: 'object', additionalProperties: false}, {toString: 1}, 'value')).toEqual([
			'"value.toString" is not a declared property (additionalProperties: false)',
		]);
	});

	it('B10: an inherited constructor does not count as a declared property', () => {
		expect(validateJsonSchemaValue({type: 'object', properties: {constructor: {type: 'string'}}}, {}, 'value')).toEqual([]);
	});

	it('B11: a 5 000-deep oneOf validates without overflowing the stack', () => {
		const schema = deepOneOf(5000);
		expect(validateJsonSchemaValue(schema, 'leaf', 'value')).toEqual([]);
		expect(validateJsonSchemaValue(schema, 42, 'value')).toEqual(['"value" must match exactly one oneOf branch (matched 0)']);
	});
});

describe('validateJsonSchemaValue details', () => {
	it('a deeply nested value under a deeply nested schema does not overflow the stack', () => {
		let schema: JsonSchemaNode = {type: 'string'};
		let value: unknown = 'leaf';
		for (let level = 0; level < 5000; level++) {
			schema = {type: 'array', items: schema};
			value = [value];
		}

		expect(validateJsonSchemaValue(schema, value, 'value')).toEqual([]);
	});

	it('accepts records and arrays from another realm', () => {
		const foreign: unknown = runInNewContext('({items: [1, 2], name: "x"})');
		const schema = {type: 'object', properties: {items: {type: 'array', items: {type: 'integer'}}, name: {type: 'string'}}};
		expect(validateJsonSchemaValue(schema, foreign, 'value')).toEqual([]);
	});

	it('accepts a null-prototype record and rejects a forged prototype', () => {
		const bare = Object.assign(Object.create(null) as object, {a: 1});
		const forgedPrototype = Object.assign(Object.create({}) as object, {a: 1});
		expect(validateJsonSchemaValue({type: 'object'}, bare, 'value')).toEqual([]);
		expect(validateJsonSchemaValue({type: 'object'}, forgedPrototype, 'value')).toEqual(['"value" must be an object']);
	});

	it('rejects symbol-keyed and hidden own keys as not lossless', () => {
		const withSymbol = {a: 1, [Symbol('s')]: 2};
		const hidden = Object.defineProperty({a: 1}, 'b', {value: 2, enumerable: false});
		expect(validateJsonSchemaValue({type: 'object'}, withSymbol, 'value')).toEqual(['"value" must be a lossless JSON object']);
		expect(validateJsonSchemaValue({type: 'object'}, hidden, 'value')).toEqual(['"value" must be a lossless JSON object']);
	});

	it('rejects an undeclared non-lossless value only on an open object', () => {
		expect(validateJsonSchemaValue({type: 'object', properties: {a: {type: 'string'}}}, {a: 'x', b: Number.NaN}, 'value')).toEqual([
			'"value" must be a lossless JSON object',
		]);
	});

	it('rejects an array subclass and a decorated array after valid items', () => {
		class List extends Array<number> {}
		const decorated = Object.assign([1, 2], {extra: true});
		const schema = {type: 'array', items: {type: 'integer'}};
		expect(validateJsonSchemaValue(schema, List.from([1]), 'value')).toEqual(['"value" must be a dense lossless JSON array']);
		expect(validateJsonSchemaValue(schema, decorated, 'value')).toEqual(['"value" must be a dense lossless JSON array']);
		expect(validateJsonSchemaValue({type: 'array'}, [1, undefined], 'value')).toEqual(['"value" must be a dense lossless JSON array']);
	});

	it('a throwing getter on an array item is caught at the array', () => {
		const items = [1, 2];
		Object.defineProperty(items, 1, {
			get() {
				throw new Error('boom');
			},
			enumerable: true,
		});
		expect(validateJsonSchemaValue({type: 'array', items: {type: 'integer'}}, items, 'value')).toEqual(['"value" must be a lossless JSON value']);
	});

	it('an empty label prints the root as arguments and is no prefix for children', () => {
		const schema = parameterSchemaSpecToJsonSchema({list: {type: 'array', items: {type: 'string'}}});
		expect(validateJsonSchemaValue(schema, 5, '')).toEqual(['"arguments" must be an object']);
		expect(validateJsonSchemaValue(schema, {list: [1]}, '')).toEqual(['"list[0]" must be a string']);
	});

	it('discards the violations of failing oneOf branches', () => {
		const schema = {oneOf: [{type: 'object', required: ['a'], properties: {a: {type: 'string'}}}, {type: 'string'}]};
		expect(validateJsonSchemaValue(schema, {}, 'out')).toEqual(['"out" must match exactly one oneOf branch (matched 0)']);
		expect(validateJsonSchemaValue(schema, {a: 'x'}, 'out')).toEqual([]);
	});
});

describe('validateJsonSchemaValue is total', () => {
	const schemas: JsonSchemaNode[] = [
		{},
		fileSchema,
		{type: 'array', items: {oneOf: [{type: 'string', enum: ['a', 'b']}, {type: 'integer'}]}},
		{type: 'object', additionalProperties: false, properties: {n: {type: 'number', const: 1}, z: {type: 'null'}, b: {type: 'boolean'}}},
	];

	// Arbitrary input including things JSON cannot hold: undefined, NaN, -0, bigint, symbols, functions, Dates, Maps, sparse arrays.
	const hostile = fc.letrec(tie => ({
		value: fc.oneof(
			{depthSize: 'small'},
			fc.anything({maxDepth: 2, maxKeys: 4, withBigInt: true, withDate: true, withMap: true, withSet: true, withNullPrototype: true, withSparseArray: true, withBoxedValues: true}),
			fc.constantFrom<unknown>(undefined, Number.NaN, -0, Symbol('s'), () => 1, new Date(0)),
			fc.array(tie('value'), {maxLength: 4}),
			fc.dictionary(fc.constantFrom('file', 'nested', 'line', 'n', 'z', 'b', 'x'), tie('value'), {maxKeys: 4}),
		),
	}));

	it.each(schemas.map((schema, index) => [index, schema] as const))('never throws for schema #%i and returns strings only', (_index, schema) => {
		fc.assert(
			fc.property(hostile.value, value => {
				const violations = validateJsonSchemaValue(schema, value, 'value');
				return Array.isArray(violations) && violations.every(violation => typeof violation === 'string');
			}),
			{numRuns: 150},
		);
	});

	it('never throws for a value whose every access traps', () => {
		const trapping = new Proxy([], {
			get() {
				throw new Error('get');
			},
			has() {
				throw new Error('has');
			},
			ownKeys() {
				throw new Error('ownKeys');
			},
			getOwnPropertyDescriptor() {
				throw new Error('descriptor');
			},
		});
		for (const schema of [...schemas, {type: 'array'}, {type: 'object'}]) {
			expect(() => validateJsonSchemaValue(schema, trapping, 'value')).not.toThrow();
		}
	});
});
