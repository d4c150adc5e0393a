import type {JsonSchemaNode} from './json-schema-node.js';

/** Assert `schema` is in the supported raw subset; throws one `JsonSchemaError` listing every violation. */
export function assertSupportedJsonSchema(schema: unknown): asserts schema is JsonSchemaNode {
	throw new Error(`assertSupportedJsonSchema: not implemented yet (${typeof schema})`);
}

/** Like `assertSupportedJsonSchema`, and the root must be `type: 'object'`. */
export function assertObjectJsonSchema(schema: unknown): asserts schema is JsonSchemaNode {
	throw new Error(`assertObjectJsonSchema: not implemented yet (${typeof schema})`);
}
