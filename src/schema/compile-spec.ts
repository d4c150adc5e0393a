import type {JsonSchemaNode} from './json-schema-node.js';
import type {ParameterSchemaSpec, ValueSchemaSpec} from './value-schema-spec.js';

/** Compile a value schema to the raw subset. Throws `JsonSchemaError` at the first author error. */
export function valueSchemaSpecToJsonSchema(spec: ValueSchemaSpec, label = 'schema'): JsonSchemaNode {
	throw new Error(`valueSchemaSpecToJsonSchema: not implemented yet (${label}, ${typeof spec})`);
}

/** Compile a parameter map to the raw subset: an open object root. */
export function parameterSchemaSpecToJsonSchema(spec: ParameterSchemaSpec): JsonSchemaNode {
	throw new Error(`parameterSchemaSpecToJsonSchema: not implemented yet (${typeof spec})`);
}
