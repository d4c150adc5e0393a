import {describe, expect, it} from 'vitest';
import {assertObjectJsonSchema, assertSupportedJsonSchema, JsonSchemaError} from '../../src/schema/index.js';

/** The violations the raw assertion throws with; `[]` when it accepts. */
function violationsOf(schema: unknown, assert: (schema: unknown) => void = assertSupportedJsonSchema): readonly string[] {
	try {
		assert(schema);
	} catch (error) {
		expect(error).toBeInstanceOf(JsonSchemaError);
		return (error as JsonSchemaError).violations;
	}

	return [];
}

const keywordList = 'is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)';

describe('assertSupportedJsonSchema (contract.md §T1.6)', () => {
	it.each([
		['an annotation-only node', {description: 'anything'}],
		['an empty node', {}],
		['a nested object', {type: 'object', properties: {a: {type: 'array', items: {oneOf: [{type: 'string'}, {type: 'null'}]}}}, required: ['a'], additionalProperties: false}],
		['a scalar with enum and const', {type: 'integer', enum: [1, 2], const: 2, default: 1, examples: [1, {a: null}], title: 't'}],
		['a required list naming a declared property', {type: 'object', properties: {a: {}}, required: ['a']}],
	])('accepts %s', (_label, schema) => {
		expect(violationsOf(schema)).toEqual([]);
	});

	const hiddenKey = Object.defineProperty({type: 'string'}, 'x', {value: 1, enumerable: false});
	const trap = new Proxy({type: 'string'}, {
		ownKeys() {
			throw new Error('trap');
		},
	});
	it.each([
		['null', null],
		['an array', [{type: 'string'}]],
		['a string', 'string'],
		['a Date', new Date(0)],
		['a forged prototype', Object.assign(Object.create({type: 'x'}) as object, {type: 'string'})],
		['a symbol key', {type: 'string', [Symbol('s')]: 1}],
		['a hidden key', hiddenKey],
		['a trapping proxy', trap],
	])('rejects %s as not a schema object', (_label, schema) => {
		expect(violationsOf(schema)).toEqual(['schema must be a schema object']);
	});

	it('rejects an ancestor cycle but accepts a reused sibling', () => {
		const node: Record<string, unknown> = {type: 'array'};
		node['items'] = node;
		expect(violationsOf(node)).toEqual(['schema.items is circular']);
		const shared = {type: 'string'};
		expect(violationsOf({type: 'object', properties: {a: shared, b: shared}})).toEqual([]);
	});

	it('names each unknown keyword', () => {
		expect(violationsOf({type: 'string', minLength: 1, format: 'uri'})).toEqual([`schema.minLength ${keywordList}`, `schema.format ${keywordList}`]);
	});

	const cycle: Record<string, unknown> = {};
	cycle['self'] = cycle;
	const throwing = {
		get value(): number {
			throw new Error('boom');
		},
	};
	it.each([
		['undefined', undefined],
		['Infinity', Number.POSITIVE_INFINITY],
		['a Date', new Date(0)],
		['a cycle', cycle],
		['a hidden key', Object.defineProperty({}, 'x', {value: 1, enumerable: false})],
		['a throwing getter', throwing],
	])('rejects %s as an annotation value', (_label, annotation) => {
		expect(violationsOf({default: annotation, examples: annotation})).toEqual([
			'schema.default annotation must be lossless JSON data',
			'schema.examples annotation must be lossless JSON data',
		]);
	});

	it('requires description and title to be strings', () => {
		expect(violationsOf({type: 'string', description: 1, title: null})).toEqual(['schema.description must be a string', 'schema.title must be a string']);
	});

	it('rejects type beside oneOf', () => {
		expect(violationsOf({type: 'string', oneOf: [{type: 'string'}, {type: 'null'}]})).toEqual(['schema cannot declare both type and oneOf']);
	});

	it('reports each constraint without type or oneOf, in fixed order', () => {
		expect(violationsOf({const: 1, items: {}, required: [], properties: {}})).toEqual([
			'schema.properties requires type or oneOf',
			'schema.required requires type or oneOf',
			'schema.items requires type or oneOf',
			'schema.const requires type or oneOf',
		]);
	});

	it.each([
		['a one-branch array', [{type: 'string'}]],
		['an empty array', []],
		['a string', 'x'],
		// eslint-disable-next-line no-sparse-arrays
		['a sparse array', [{type: 'string'}, , {type: 'null'}]],
	])('rejects %s as oneOf', (_label, oneOf) => {
		expect(violationsOf({oneOf})).toEqual(['schema.oneOf must be an array of at least two schemas']);
	});

	it('rejects constraints beside oneOf', () => {
		expect(violationsOf({enum: ['a'], oneOf: [{type: 'string'}, {type: 'null'}], items: {}})).toEqual([
			'schema.items is not supported beside oneOf',
			'schema.enum is not supported beside oneOf',
		]);
	});

	it('rejects type arrays and unknown types, including the DSL-only json', () => {
		expect(violationsOf({type: ['string', 'null']})).toEqual(['schema.type must be a single type string (type arrays are not supported)']);
		for (const type of ['json', 'weird', 1]) {
			expect(violationsOf({type})).toEqual(['schema.type must be one of object/array/string/number/integer/boolean/null']);
		}
	});

	it('rejects keywords on the wrong type', () => {
		expect(violationsOf({type: 'string', properties: {}, items: {}})).toEqual([
			'schema.properties is not supported on type "string"',
			'schema.items is not supported on type "string"',
		]);
		expect(violationsOf({type: 'object', enum: [{}], const: {}})).toEqual([
			'schema.enum is not supported on type "object"',
			'schema.const is not supported on type "object"',
		]);
		expect(violationsOf({type: 'array', additionalProperties: true, required: []})).toEqual([
			'schema.required is not supported on type "array"',
			'schema.additionalProperties is not supported on type "array"',
		]);
	});

	it('checks object keywords', () => {
		expect(violationsOf({type: 'object', properties: []})).toEqual(['schema.properties must be an object of schemas']);
		expect(violationsOf({type: 'object', properties: {a: {}}, required: 'a'})).toEqual(['schema.required must be an array of strings']);
		expect(violationsOf({type: 'object', properties: {a: {}}, required: ['a', 1]})).toEqual(['schema.required must be an array of strings']);
		expect(violationsOf({type: 'object', properties: {}, required: ['toString']})).toEqual(['schema.required names "toString" which is not in properties']);
		expect(violationsOf({type: 'object', additionalProperties: 'no'})).toEqual(['schema.additionalProperties must be a boolean']);
	});

	it.each([
		['number', [Number.NaN]],
		['number', [-0]],
		['integer', [1.5]],
		['string', []],
		['boolean', ['true']],
		['null', [0]],
	])('rejects an enum that is not non-empty %s values: %j', (type, members) => {
		expect(violationsOf({type, enum: members})).toEqual([`schema.enum must be a non-empty array of ${type} values`]);
	});

	it('rejects a const of the wrong type, keeping the contract grammar', () => {
		expect(violationsOf({type: 'integer', const: 1.5})).toEqual(['schema.const must be a integer value']);
		expect(violationsOf({type: 'string', const: 1})).toEqual(['schema.const must be a string value']);
	});

	it('rejects a const outside a valid enum only', () => {
		expect(violationsOf({type: 'string', enum: ['a'], const: 'b'})).toEqual(['schema.const must be one of schema.enum when both are declared']);
		expect(violationsOf({type: 'string', enum: [1], const: 'b'})).toEqual(['schema.enum must be a non-empty array of string values']);
	});

	it('collects every violation in walk order: a node, then properties, items and branches', () => {
		const schema = {
			type: 'object',
			bogus: 1,
			properties: {
				a: {type: 'array', items: {type: 'weird'}},
				b: {oneOf: [{type: 'string', const: 1}, {type: 'null', title: 2}]},
			},
			required: ['c'],
		};
		let caught: unknown;
		try {
			assertSupportedJsonSchema(schema);
		} catch (error) {
			caught = error;
		}

		const violations = [
			`schema.bogus ${keywordList}`,
			'schema.required names "c" which is not in properties',
			'schema.properties.a.items.type must be one of object/array/string/number/integer/boolean/null',
			'schema.properties.b.oneOf[0].const must be a string value',
			'schema.properties.b.oneOf[1].title must be a string',
		];
		expect(caught).toBeInstanceOf(JsonSchemaError);
		const error = caught as JsonSchemaError;
		expect({name: error.name, code: error.code, violations: error.violations, message: error.message}).toEqual({
			name: 'JsonSchemaError',
			code: 'UNSUPPORTED_SCHEMA',
			violations,
			message: `unsupported JSON schema: ${violations.join('; ')}`,
		});
	});

	it('walks a 5 000-deep oneOf without overflowing the stack', () => {
		let schema: Record<string, unknown> = {type: 'string'};
		for (let level = 0; level < 5000; level++) {
			schema = {oneOf: [schema, {type: 'null'}]};
		}

		expect(violationsOf(schema)).toEqual([]);
	});
});

describe('assertObjectJsonSchema', () => {
	it('accepts an object root', () => {
		expect(violationsOf({type: 'object', properties: {a: {type: 'string'}}}, assertObjectJsonSchema)).toEqual([]);
	});

	it('rejects any other root after the subset violations', () => {
		expect(violationsOf({type: 'string'}, assertObjectJsonSchema)).toEqual(['schema.type must be "object" at the root of an object schema']);
		expect(violationsOf({oneOf: [{type: 'object'}, {type: 'null'}], bad: 1}, assertObjectJsonSchema)).toEqual([
			`schema.bad ${keywordList}`,
			'schema.type must be "object" at the root of an object schema',
		]);
		expect(violationsOf(null, assertObjectJsonSchema)).toEqual(['schema must be a schema object']);
	});
});
