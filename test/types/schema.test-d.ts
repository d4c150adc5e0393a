import {describe, expectTypeOf, it} from 'vitest';
import type {JsonValue} from '../../src/json/json-value.js';
import type {InferArgs, InferValue} from '../../src/schema/infer.js';
import type {ObjectSchemaSpec, StringSchemaSpec, ValueSchemaSpec} from '../../src/schema/value-schema-spec.js';
import {defineTool} from '../../src/tools/define-tool.js';
import type {ToolDefinition} from '../../src/tools/types.js';

describe('InferValue', () => {
	it('infers broad scalar types', () => {
		expectTypeOf<InferValue<{type: 'string'}>>().toEqualTypeOf<string>();
		expectTypeOf<InferValue<{type: 'number'}>>().toEqualTypeOf<number>();
		expectTypeOf<InferValue<{type: 'integer'}>>().toEqualTypeOf<number>();
		expectTypeOf<InferValue<{type: 'boolean'}>>().toEqualTypeOf<boolean>();
		expectTypeOf<InferValue<{type: 'null'}>>().toEqualTypeOf<null>();
		expectTypeOf<InferValue<{type: 'json'}>>().toEqualTypeOf<JsonValue>();
	});

	it('prefers a const literal over an enum union over the broad type', () => {
		expectTypeOf<InferValue<{type: 'string'; enum: readonly ['a', 'b']}>>().toEqualTypeOf<'a' | 'b'>();
		expectTypeOf<InferValue<{type: 'string'; enum: readonly ['a', 'b']; const: 'a'}>>().toEqualTypeOf<'a'>();
		expectTypeOf<InferValue<{type: 'number'; enum: readonly [1, 2]}>>().toEqualTypeOf<1 | 2>();
		expectTypeOf<InferValue<{type: 'boolean'; const: true}>>().toEqualTypeOf<true>();
	});

	it('infers arrays from items, and JSON arrays without items', () => {
		expectTypeOf<InferValue<{type: 'array'; items: {type: 'string'}}>>().toEqualTypeOf<string[]>();
		expectTypeOf<InferValue<{type: 'array'}>>().toEqualTypeOf<JsonValue[]>();
	});

	it('infers a oneOf as the union of its branches', () => {
		expectTypeOf<InferValue<{oneOf: readonly [{type: 'string'}, {type: 'null'}]}>>().toEqualTypeOf<string | null>();
	});

	it('infers objects with required and optional keys, open and closed', () => {
		type Closed = {type: 'object'; additionalProperties: false; properties: {a: {type: 'string'; required: true}; b: {type: 'number'}}};
		expectTypeOf<InferValue<Closed>>().toEqualTypeOf<{a: string; b?: number}>();
		type Open = {type: 'object'; additionalProperties: true; properties: {a: {type: 'string'; required: true}}};
		expectTypeOf<InferValue<Open>>().toEqualTypeOf<{a: string} & Record<string, JsonValue>>();
		expectTypeOf<InferValue<{type: 'object'; additionalProperties: true}>>().toEqualTypeOf<Record<string, JsonValue>>();
		expectTypeOf<InferValue<{type: 'object'; additionalProperties: false}>>().toEqualTypeOf<Record<string, never>>();
	});

	it('infers a broad, non-literal spec as JSON', () => {
		expectTypeOf<InferValue<ValueSchemaSpec>>().toExtend<JsonValue>();
		expectTypeOf<InferValue<ObjectSchemaSpec>>().toEqualTypeOf<Record<string, JsonValue>>();
		expectTypeOf<InferValue<StringSchemaSpec>>().toEqualTypeOf<string>();
	});

	it('stops at 16 nested containers and yields JsonValue there', () => {
		type Wrap<T> = {type: 'array'; items: T};
		type Fifteen = Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<{type: 'string'}>>>>>>>>>>>>>>>;
		type Sixteen = Wrap<Fifteen>;
		type Arrays15<T> = T[][][][][][][][][][][][][][][];
		expectTypeOf<InferValue<Fifteen>>().toEqualTypeOf<Arrays15<string>>();
		expectTypeOf<InferValue<Sixteen>>().toEqualTypeOf<Arrays15<JsonValue>[]>();
	});
});

describe('InferArgs', () => {
	it('makes required: true keys required and every other key optional', () => {
		type Spec = {path: {type: 'string'; required: true}; limit: {type: 'number'}; mode: {type: 'string'; enum: readonly ['r', 'w']}};
		expectTypeOf<InferArgs<Spec>>().toEqualTypeOf<{path: string; limit?: number; mode?: 'r' | 'w'}>();
	});

	it('infers an empty map as an empty object', () => {
		expectTypeOf<InferArgs<{}>>().toEqualTypeOf<{}>();
	});
});

describe('defineTool', () => {
	it('infers inline enum and const literals without as const, and types the body by output.schema', () => {
		const tool = defineTool({
			name: 'pick',
			description: 'Pick a colour.',
			parameters: {
				color: {type: 'string', enum: ['red', 'green'], required: true},
				shade: {type: 'string', const: 'dark'},
				tags: {type: 'array', items: {type: 'string'}},
			},
			output: {
				schema: {type: 'object', additionalProperties: false, properties: {chosen: {type: 'string', required: true}}},
				render(args, value) {
					expectTypeOf(args).toEqualTypeOf<{color: 'red' | 'green'; shade?: 'dark'; tags?: string[]}>();
					expectTypeOf(value).toEqualTypeOf<{chosen: string}>();
					return [{type: 'text', text: value.chosen}];
				},
			},
			async execute(args) {
				expectTypeOf(args.color).toEqualTypeOf<'red' | 'green'>();
				return {chosen: args.color};
			},
			presentCall(args) {
				expectTypeOf(args.tags).toEqualTypeOf<string[] | undefined>();
				return undefined;
			},
		});
		expectTypeOf(tool).toMatchTypeOf<ToolDefinition>();
		expectTypeOf(tool.execute).returns.toEqualTypeOf<Promise<{chosen: string}>>();
	});

	it('rejects a body whose value does not match output.schema', () => {
		defineTool({
			name: 'n',
			description: 'd',
			parameters: {},
			output: {schema: {type: 'string'}, render: (_args, value) => [{type: 'text', text: value}]},
			// @ts-expect-error a number is not the declared string value
			execute: async () => 42,
		});
	});
});
