import {describe, expect, it} from 'vitest';
import {
	JsonSchemaError,
	parameterSchemaSpecToJsonSchema,
	valueSchemaSpecToJsonSchema,
	type ParameterSchemaSpec,
	type ValueSchemaSpec,
} from '../../src/schema/index.js';

/** Author input the DSL types would reject. */
const value = (spec: unknown): ValueSchemaSpec => spec as ValueSchemaSpec;
const parameters = (spec: unknown): ParameterSchemaSpec => spec as ParameterSchemaSpec;

/** The violations a compilation throws with (and that it throws a JsonSchemaError at all). */
function violationsOf(compile: () => unknown): readonly string[] {
	try {
		compile();
	} catch (error) {
		expect(error).toBeInstanceOf(JsonSchemaError);
		const schemaError = error as JsonSchemaError;
		expect(schemaError.code).toBe('UNSUPPORTED_SCHEMA');
		expect(schemaError.message).toBe(`unsupported JSON schema: ${schemaError.violations.join('; ')}`);
		return schemaError.violations;
	}

	throw new Error('expected the compilation to throw');
}

describe('value schema compilation errors (contract.md §T1.10 table C)', () => {
	const twoBranches = [{type: 'string'}, {type: 'null'}];
	it.each([
		['an object without additionalProperties', {type: 'object'}, 'schema.additionalProperties must be explicitly true or false'],
		['a one-branch oneOf (caught by the raw pass)', {oneOf: [{type: 'string'}]}, 'schema.oneOf must be an array of at least two schemas'],
		['a string enum on a number', {type: 'number', enum: ['1']}, 'schema.enum must be a non-empty array of number values'],
		['a const outside its enum', {type: 'string', enum: ['a'], const: 'b'}, 'schema.const must be one of schema.enum when both are declared'],
		['a fractional integer const', {type: 'integer', const: 1.5}, 'schema.const must be a integer value'],
		['an undefined default', {type: 'json', default: undefined}, 'schema.default annotation must be lossless JSON data'],
		['required on array items', {type: 'array', items: {type: 'string', required: true}}, 'schema.items.required is not supported by the value schema DSL'],
		['non-object items', {type: 'array', items: 42}, 'schema.items must be a value schema object'],
		['an unknown key', {type: 'string', extra: true}, 'schema.extra is not supported by the value schema DSL'],
		['type beside oneOf', {type: 'string', oneOf: twoBranches}, 'schema cannot declare both type and oneOf'],
		['a non-array oneOf', {oneOf: 'x'}, 'schema.oneOf must be an array of at least two value schemas'],
		['a non-array enum', {type: 'string', enum: 'a'}, 'schema.enum must be a non-empty array of scalar values'],
		['an empty node', {}, 'schema.type must be string/number/integer/boolean/null/array/object/json, or use oneOf'],
		['null', null, 'schema must be a value schema object'],
		['a type array', {type: ['string', 'null']}, 'schema.type must be string/number/integer/boolean/null/array/object/json, or use oneOf'],
		['required on the root', {type: 'string', required: true}, 'schema.required is not supported by the value schema DSL'],
		['required on a oneOf branch', {oneOf: [{type: 'string', required: true}, {type: 'null'}]}, 'schema.oneOf[0].required is not supported by the value schema DSL'],
		['minLength', {type: 'string', minLength: 1}, 'schema.minLength is not supported by the value schema DSL'],
		['enum on an object', {type: 'object', additionalProperties: true, enum: [{}]}, 'schema.enum is not supported by the value schema DSL'],
		['items on a string', {type: 'string', items: {type: 'string'}}, 'schema.items is not supported by the value schema DSL'],
		['a non-boolean additionalProperties', {type: 'object', additionalProperties: 'no'}, 'schema.additionalProperties must be explicitly true or false'],
		['non-map properties', {type: 'object', additionalProperties: true, properties: []}, 'schema.properties must be an object of value schemas'],
		['an empty enum (caught by the raw pass)', {type: 'string', enum: []}, 'schema.enum must be a non-empty array of string values'],
		['a Date as a node', new Date(0), 'schema must be a value schema object'],
	])('rejects %s', (_label, spec, violation) => {
		expect(violationsOf(() => valueSchemaSpecToJsonSchema(value(spec)))).toEqual([violation]);
	});

	it('rejects a sparse oneOf', () => {
		// eslint-disable-next-line no-sparse-arrays
		const sparse = [{type: 'string'}, , {type: 'null'}];
		expect(violationsOf(() => valueSchemaSpecToJsonSchema(value({oneOf: sparse})))).toEqual(['schema.oneOf must be an array of at least two value schemas']);
	});

	it('rejects a decorated enum array', () => {
		const decorated = Object.assign(['a', 'b'], {note: 'x'});
		expect(violationsOf(() => valueSchemaSpecToJsonSchema(value({type: 'string', enum: decorated})))).toEqual([
			'schema.enum must be a non-empty array of scalar values',
		]);
	});

	it('rejects self-referencing items as circular', () => {
		const node: Record<string, unknown> = {type: 'array'};
		node['items'] = node;
		expect(violationsOf(() => valueSchemaSpecToJsonSchema(value(node)))).toEqual(['schema.items is circular']);
	});

	it('rejects self-referencing properties as circular', () => {
		const properties: Record<string, unknown> = {};
		const node = {type: 'object', additionalProperties: false, properties};
		properties['self'] = node;
		expect(violationsOf(() => valueSchemaSpecToJsonSchema(value(node)))).toEqual(['schema.properties.self is circular']);
	});

	it('stops at the first author error', () => {
		const spec = {type: 'object', additionalProperties: true, properties: {a: {type: 'weird'}, b: {type: 'string', bad: 1}}};
		expect(violationsOf(() => valueSchemaSpecToJsonSchema(value(spec)))).toEqual([
			'schema.properties.a.type must be string/number/integer/boolean/null/array/object/json, or use oneOf',
		]);
	});

	it('reports every raw violation once the author pass is clean', () => {
		const spec = {type: 'object', additionalProperties: true, properties: {a: {type: 'number', enum: ['1']}, b: {type: 'string', const: 2}}};
		expect(violationsOf(() => valueSchemaSpecToJsonSchema(value(spec)))).toEqual([
			'schema.properties.a.enum must be a non-empty array of number values',
			'schema.properties.b.const must be a string value',
		]);
	});

	it('names author errors from the given root label, raw errors always from schema', () => {
		expect(violationsOf(() => valueSchemaSpecToJsonSchema(value({type: 'object'}), 'output.schema'))).toEqual([
			'output.schema.additionalProperties must be explicitly true or false',
		]);
		expect(violationsOf(() => valueSchemaSpecToJsonSchema(value({type: 'null', const: 0}), 'output.schema'))).toEqual([
			'schema.const must be a null value',
		]);
	});

	it('rejects a node with a throwing getter as not a value schema object', () => {
		const node = {
			get type(): string {
				throw new Error('boom');
			},
		};
		expect(violationsOf(() => valueSchemaSpecToJsonSchema(value(node)))).toEqual(['schema must be a value schema object']);
	});
});

describe('parameter map compilation errors (contract.md §T1.10 table C)', () => {
	it('rejects required: false', () => {
		expect(violationsOf(() => parameterSchemaSpecToJsonSchema(parameters({v: {type: 'string', required: false}})))).toEqual([
			'parameters.v.required must be true when present',
		]);
	});

	it.each([
		['null', null],
		['an array', []],
		['a symbol-keyed map', {[Symbol('k')]: {type: 'string'}}],
		['a map with a non-enumerable key', Object.defineProperty({}, 'hidden', {value: {type: 'string'}, enumerable: false})],
	])('rejects %s as the map', (_label, spec) => {
		expect(violationsOf(() => parameterSchemaSpecToJsonSchema(parameters(spec)))).toEqual(['parameters must be an object of value schemas']);
	});

	it('rejects a non-schema entry', () => {
		expect(violationsOf(() => parameterSchemaSpecToJsonSchema(parameters({bad: 42})))).toEqual(['parameters.bad must be a value schema object']);
	});

	it('rejects a nested non-map properties with the nested path', () => {
		const spec = {o: {type: 'object', additionalProperties: true, properties: null}};
		expect(violationsOf(() => parameterSchemaSpecToJsonSchema(parameters(spec)))).toEqual(['parameters.o.properties must be an object of value schemas']);
	});

	it('names nested map entries with .properties, and raw failures from schema', () => {
		const nested = {o: {type: 'object', additionalProperties: true, properties: {p: {type: 'string', required: 'yes'}}}};
		expect(violationsOf(() => parameterSchemaSpecToJsonSchema(parameters(nested)))).toEqual(['parameters.o.properties.p.required must be true when present']);
		expect(violationsOf(() => parameterSchemaSpecToJsonSchema(parameters({n: {type: 'integer', enum: [0.5]}})))).toEqual([
			'schema.properties.n.enum must be a non-empty array of integer values',
		]);
	});
});

describe('compilation results (contract.md §T1.10 table D)', () => {
	it('compiles a nullable required parameter to a oneOf and a root required list', () => {
		expect(parameterSchemaSpecToJsonSchema({u: {oneOf: [{type: 'string'}, {type: 'null'}], required: true}})).toEqual({
			type: 'object',
			properties: {u: {oneOf: [{type: 'string'}, {type: 'null'}]}},
			required: ['u'],
		});
	});

	it('compiles a closed object with a required key and a json property', () => {
		const spec = {type: 'object', additionalProperties: false, properties: {a: {type: 'string', required: true}, b: {type: 'json'}}} as const;
		expect(valueSchemaSpecToJsonSchema(spec)).toEqual({
			type: 'object',
			additionalProperties: false,
			properties: {a: {type: 'string'}, b: {}},
			required: ['a'],
		});
	});

	it('compiles an empty parameter map to an object with empty properties', () => {
		expect(parameterSchemaSpecToJsonSchema({})).toEqual({type: 'object', properties: {}});
	});

	it('keeps a property named __proto__ as an ordinary own key', () => {
		const spec = JSON.parse('{"__proto__": {"type": "string", "required": true}}') as ParameterSchemaSpec;
		const compiled = parameterSchemaSpecToJsonSchema(spec);
		const properties = compiled['properties'] as Record<string, unknown>;
		expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
		expect(Object.keys(properties)).toEqual(['__proto__']);
		expect(Object.getOwnPropertyDescriptor(properties, '__proto__')?.value).toEqual({type: 'string'});
		expect(compiled['required']).toEqual(['__proto__']);
	});

	it('maps every node kind with annotations, enum and const', () => {
		const spec = {
			s: {type: 'string', description: 'a string', enum: ['a', 'b'], const: 'a'},
			n: {type: 'number', title: 'N', default: 1},
			i: {type: 'integer', examples: [1, 2]},
			b: {type: 'boolean', const: true},
			z: {type: 'null'},
			l: {type: 'array', items: {type: 'string'}},
			raw: {type: 'array'},
			open: {type: 'object', additionalProperties: true},
			j: {type: 'json', description: 'anything'},
			u: {oneOf: [{type: 'string'}, {type: 'integer'}], description: 'either'},
		} as const;
		expect(parameterSchemaSpecToJsonSchema(spec)).toEqual({
			type: 'object',
			properties: {
				s: {type: 'string', description: 'a string', enum: ['a', 'b'], const: 'a'},
				n: {type: 'number', title: 'N', default: 1},
				i: {type: 'integer', examples: [1, 2]},
				b: {type: 'boolean', const: true},
				z: {type: 'null'},
				l: {type: 'array', items: {type: 'string'}},
				raw: {type: 'array'},
				open: {type: 'object', additionalProperties: true},
				j: {description: 'anything'},
				u: {oneOf: [{type: 'string'}, {type: 'integer'}], description: 'either'},
			},
		});
	});

	it('orders keys type, annotations, additionalProperties, properties, required', () => {
		const spec = {properties: {x: {type: 'string', required: true}}, additionalProperties: false, description: 'd', type: 'object'} as const;
		expect(Object.keys(valueSchemaSpecToJsonSchema(spec))).toEqual(['type', 'description', 'additionalProperties', 'properties', 'required']);
	});

	it('keeps required keys in declaration order at every level', () => {
		const spec = {
			b: {type: 'string', required: true},
			a: {type: 'object', additionalProperties: false, required: true, properties: {y: {type: 'string', required: true}, x: {type: 'string'}, w: {type: 'string', required: true}}},
		} as const;
		const compiled = parameterSchemaSpecToJsonSchema(spec);
		expect(compiled['required']).toEqual(['b', 'a']);
		expect(compiled).toEqual({
			type: 'object',
			properties: {
				b: {type: 'string'},
				a: {type: 'object', additionalProperties: false, properties: {y: {type: 'string'}, x: {type: 'string'}, w: {type: 'string'}}, required: ['y', 'w']},
			},
			required: ['b', 'a'],
		});
	});

	it('accepts a reused sibling node', () => {
		const shared = {type: 'string'} as const;
		expect(parameterSchemaSpecToJsonSchema({a: shared, b: shared})).toEqual({type: 'object', properties: {a: {type: 'string'}, b: {type: 'string'}}});
	});

	it('returns a frozen schema that shares nothing with the author input', () => {
		const fallback = {mode: 'fast'};
		const tags = ['a', 'b'] as const;
		const compiled = parameterSchemaSpecToJsonSchema({opts: {type: 'json', default: fallback}, tag: {type: 'string', enum: tags}});
		const properties = compiled['properties'] as Record<string, Record<string, unknown>>;
		expect(Object.isFrozen(compiled)).toBe(true);
		expect(Object.isFrozen(properties['opts']!['default'])).toBe(true);
		expect(properties['opts']!['default']).not.toBe(fallback);
		expect(properties['tag']!['enum']).not.toBe(tags);
		expect(Object.isFrozen(fallback)).toBe(false);
	});

	it('compiles a 5 000-deep oneOf without overflowing the stack', () => {
		let spec: unknown = {type: 'string'};
		for (let level = 0; level < 5000; level++) {
			spec = {oneOf: [{type: 'null'}, spec]};
		}

		let node = valueSchemaSpecToJsonSchema(value(spec));
		let depth = 0;
		while (Array.isArray(node['oneOf'])) {
			node = (node['oneOf'] as Array<Record<string, unknown>>)[1]!;
			depth++;
		}

		expect({depth, node}).toEqual({depth: 5000, node: {type: 'string'}});
	});
});
