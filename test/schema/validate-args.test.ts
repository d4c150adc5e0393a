import {describe, expect, it} from 'vitest';
import {JsonSchemaError, validateArgs, type ParameterSchemaSpec} from '../../src/schema/index.js';

class Point {
	x = 1;
}

/** A spec the DSL types would reject, for the forged-spec rows. */
const forged = (spec: unknown): ParameterSchemaSpec => spec as ParameterSchemaSpec;

describe('validateArgs (contract.md §T1.10 table A)', () => {
	const fileSpec = {path: {type: 'string', required: true}, limit: {type: 'number'}} as const;

	it('A1: accepts arguments with the required key, with or without the optional one', () => {
		expect(validateArgs(fileSpec, {path: '/tmp'})).toEqual([]);
		expect(validateArgs(fileSpec, {path: '/tmp', limit: 5})).toEqual([]);
	});

	it.each([
		['null', null],
		['a string', 'nope'],
		['an array', []],
		['a Map', new Map()],
		['a class instance', new Point()],
	])('A2: rejects %s as the argument object', (_label, args) => {
		expect(validateArgs(fileSpec, args)).toEqual(['"arguments" must be an object']);
	});

	it('A3: reports a missing required key by its bare name at the root', () => {
		expect(validateArgs({path: {type: 'string', required: true}}, {})).toEqual(['missing required property "path"']);
	});

	it('A4: treats a required key holding undefined as missing', () => {
		expect(validateArgs({path: {type: 'string', required: true}}, {path: undefined})).toEqual(['missing required property "path"']);
	});

	it('A5: rejects an optional key holding undefined as not lossless', () => {
		expect(validateArgs({path: {type: 'string'}}, {path: undefined})).toEqual(['"arguments" must be a lossless JSON object']);
	});

	it('A6: accepts extra keys because the parameter root is open', () => {
		expect(validateArgs({path: {type: 'string', required: true}}, {path: '/tmp', extra: 1})).toEqual([]);
	});

	it('A7: never synthesizes a default', () => {
		const args = {};
		expect(validateArgs({limit: {type: 'number', default: 25}}, args)).toEqual([]);
		expect(args).toEqual({});
	});

	it('A8: names the expected scalar type', () => {
		const spec = {s: {type: 'string'}, n: {type: 'number'}, b: {type: 'boolean'}} as const;
		expect(validateArgs(spec, {s: 1})).toEqual(['"s" must be a string']);
		expect(validateArgs(spec, {n: 'x'})).toEqual(['"n" must be a number']);
		expect(validateArgs(spec, {b: 'x'})).toEqual(['"b" must be a boolean']);
	});

	it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0])('A9: rejects %s as a non-finite JSON number', n => {
		expect(validateArgs({n: {type: 'number'}}, {n})).toEqual(['"n" must be a finite JSON number']);
	});

	it('A10: rejects a bigint as not a number', () => {
		expect(validateArgs({n: {type: 'number'}}, {n: 1n})).toEqual(['"n" must be a number']);
	});

	it.each([1.5, '1', Number.NaN, -0])('A11: rejects %s as an integer', n => {
		expect(validateArgs({n: {type: 'integer'}}, {n})).toEqual(['"n" must be an integer']);
	});

	it.each([1, 1e300])('A12: accepts %s as an integer', n => {
		expect(validateArgs({n: {type: 'integer'}}, {n})).toEqual([]);
	});

	it('A13: lists a string enum in JSON', () => {
		expect(validateArgs({color: {type: 'string', enum: ['red', 'green']}}, {color: 'blue'})).toEqual(['"color" must be one of ["red","green"]']);
	});

	it('A14: lists a number enum in JSON', () => {
		expect(validateArgs({n: {type: 'number', enum: [1, 2]}}, {n: 3})).toEqual(['"n" must be one of [1,2]']);
	});

	it('A15: checks enum before const and reports only the first failure', () => {
		const spec = {c: {type: 'string', enum: ['a', 'b'], const: 'a'}} as const;
		expect(validateArgs(spec, {c: 'c'})).toEqual(['"c" must be one of ["a","b"]']);
		expect(validateArgs(spec, {c: 'b'})).toEqual(['"c" must be "a"']);
		expect(validateArgs(spec, {c: 'a'})).toEqual([]);
	});

	it('A16: prints a const in JSON', () => {
		expect(validateArgs({c: {type: 'string', const: 'x'}}, {c: 'y'})).toEqual(['"c" must be "x"']);
	});

	it('A17: rejects 0 for null', () => {
		expect(validateArgs({z: {type: 'null'}}, {z: 0})).toEqual(['"z" must be null']);
	});

	it('A18: qualifies nested missing keys and rejects a non-object for an object property', () => {
		const spec = {
			config: {
				type: 'object',
				additionalProperties: true,
				required: true,
				properties: {host: {type: 'string', required: true}, port: {type: 'number'}},
			},
			bag: {type: 'object', additionalProperties: true},
		} as const;
		expect(validateArgs(spec, {config: {port: 9}, bag: 5})).toEqual(['missing required property "config.host"', '"bag" must be an object']);
	});

	it('A19: reports every undeclared key of a closed object, in key order', () => {
		const spec = {o: {type: 'object', additionalProperties: false, properties: {a: {type: 'string'}}}} as const;
		expect(validateArgs(spec, {o: {a: 'x', b: 1, c: 2}})).toEqual([
			'"o.b" is not a declared property (additionalProperties: false)',
			'"o.c" is not a declared property (additionalProperties: false)',
		]);
	});

	it('A20: a closed object without properties accepts only {}', () => {
		const spec = {o: {type: 'object', additionalProperties: false}} as const;
		expect(validateArgs(spec, {o: {x: 1}})).toEqual(['"o.x" is not a declared property (additionalProperties: false)']);
		expect(validateArgs(spec, {o: {}})).toEqual([]);
	});

	it('A21: indexes array items and accepts any JSON items without an items schema', () => {
		const spec = {tags: {type: 'array', items: {type: 'string'}}, raw: {type: 'array'}} as const;
		expect(validateArgs(spec, {tags: ['a', 2]})).toEqual(['"tags[1]" must be a string']);
		expect(validateArgs(spec, {tags: 'nope'})).toEqual(['"tags" must be an array']);
		expect(validateArgs(spec, {raw: [1, {}, 'x']})).toEqual([]);
	});

	it('A22: rejects a sparse array once, as not dense', () => {
		// eslint-disable-next-line no-sparse-arrays
		const sparse = [1, , ,];
		expect(validateArgs({t: {type: 'array', items: {type: 'integer'}}}, {t: sparse})).toEqual(['"t" must be a dense lossless JSON array']);
	});

	it('A23: qualifies a missing key inside an array item', () => {
		const spec = {
			servers: {type: 'array', items: {type: 'object', additionalProperties: true, properties: {host: {type: 'string', required: true}}}},
		} as const;
		expect(validateArgs(spec, {servers: [{host: 'a'}, {}]})).toEqual(['missing required property "servers[1].host"']);
	});

	it('A24: reports a oneOf with no matching branch', () => {
		expect(validateArgs({u: {oneOf: [{type: 'string'}, {type: 'null'}]}}, {u: 1})).toEqual(['"u" must match exactly one oneOf branch (matched 0)']);
	});

	it('A25: a oneOf must match exactly one branch, not two', () => {
		const spec = {u: {oneOf: [{type: 'number'}, {type: 'integer'}]}} as const;
		expect(validateArgs(spec, {u: 1})).toEqual(['"u" must match exactly one oneOf branch (matched 2)']);
		expect(validateArgs(spec, {u: 1.5})).toEqual([]);
	});

	it('A26: a json property accepts any lossless JSON and nothing else', () => {
		const spec = {j: {type: 'json'}} as const;
		expect(validateArgs(spec, {j: () => 1})).toEqual(['"j" must be a lossless JSON value']);
		expect(validateArgs(spec, {j: new Date(0)})).toEqual(['"j" must be a lossless JSON value']);
		expect(validateArgs(spec, {j: {a: [1, 'x', null]}})).toEqual([]);
	});

	it('A27: orders missing keys, then property violations, then undeclared keys', () => {
		const spec = {
			a: {type: 'string', required: true},
			b: {type: 'number'},
			o: {type: 'object', additionalProperties: false, properties: {x: {type: 'integer', required: true}}},
		} as const;
		expect(validateArgs(spec, {b: 'x', o: {y: 1}})).toEqual([
			'missing required property "a"',
			'"b" must be a number',
			'missing required property "o.x"',
			'"o.y" is not a declared property (additionalProperties: false)',
		]);
	});

	it('A28: does not escape dots in keys', () => {
		expect(validateArgs({'a.b': {type: 'string'}}, {'a.b': 1})).toEqual(['"a.b" must be a string']);
	});

	it('A29: uses own-key semantics, so an inherited toString is not the declared key', () => {
		const spec = {toString: {type: 'string', required: true}} as const;
		expect(validateArgs(spec, {})).toEqual(['missing required property "toString"']);
	});

	it('A30: throws JsonSchemaError for a forged enum of the wrong type', () => {
		const spec = forged({n: {type: 'number', enum: ['1', '2']}});
		expect(() => validateArgs(spec, {n: 1})).toThrowError(JsonSchemaError);
		expect(() => validateArgs(spec, {})).toThrowError('unsupported JSON schema: schema.properties.n.enum must be a non-empty array of number values');
	});

	it('A31: throws JsonSchemaError for a forged unknown type', () => {
		const spec = forged({x: {type: 'weird'}});
		expect(() => validateArgs(spec, {x: 1})).toThrowError(
			new JsonSchemaError(['parameters.x.type must be string/number/integer/boolean/null/array/object/json, or use oneOf']),
		);
	});
});

describe('validateArgs conformance (contract.md §T7 items 1–4)', () => {
	it('item 1: the parameter root is open while a closed object is not, and an object needs additionalProperties', () => {
		expect(validateArgs({path: {type: 'string', required: true}}, {path: '/t', extra: 1})).toEqual([]);
		expect(validateArgs({o: {type: 'object', additionalProperties: false}}, {o: {x: 1}})).toEqual([
			'"o.x" is not a declared property (additionalProperties: false)',
		]);
		expect(() => validateArgs(forged({o: {type: 'object'}}), {})).toThrowError(
			'unsupported JSON schema: parameters.o.additionalProperties must be explicitly true or false',
		);
	});

	it('item 2: a oneOf rejects null on a string/number union and needs two branches', () => {
		expect(validateArgs({u: {oneOf: [{type: 'string'}, {type: 'number'}]}}, {u: null})).toEqual([
			'"u" must match exactly one oneOf branch (matched 0)',
		]);
		expect(() => validateArgs(forged({u: {oneOf: [{type: 'string'}]}}), {})).toThrowError(
			'unsupported JSON schema: schema.properties.u.oneOf must be an array of at least two schemas',
		);
	});

	it('item 3: integer accepts 1.0', () => {
		expect(validateArgs({n: {type: 'integer'}}, {n: 1.0})).toEqual([]);
	});

	it('item 4: a JsonSchemaError carries code, name and every violation', () => {
		let caught: unknown;
		try {
			validateArgs(forged({a: {type: 'string', enum: [1]}, b: {type: 'integer', const: 1.5}}), {});
		} catch (error) {
			caught = error;
		}

		expect(caught).toBeInstanceOf(JsonSchemaError);
		const error = caught as JsonSchemaError;
		expect({name: error.name, code: error.code, violations: error.violations, message: error.message}).toEqual({
			name: 'JsonSchemaError',
			code: 'UNSUPPORTED_SCHEMA',
			violations: ['schema.properties.a.enum must be a non-empty array of string values', 'schema.properties.b.const must be a integer value'],
			message:
				'unsupported JSON schema: schema.properties.a.enum must be a non-empty array of string values; schema.properties.b.const must be a integer value',
		});
	});
});
