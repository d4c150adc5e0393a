/**
@module The schema DSL, the raw JSON Schema subset, validation and type inference
(contract.md §T1). This layer imports only `src/json`.
*/
export type {JsonSchemaNode} from './json-schema-node.js';
export {JsonSchemaError} from './json-schema-error.js';
export type {
	ArraySchemaSpec,
	BooleanSchemaSpec,
	IntegerSchemaSpec,
	JsonLiteral,
	JsonAnySchemaSpec,
	NullSchemaSpec,
	NumberSchemaSpec,
	ObjectSchemaSpec,
	OneOfSchemaSpec,
	ParameterSchemaSpec,
	PropertySchemaSpec,
	SchemaAnnotations,
	StringSchemaSpec,
	ValueSchemaSpec,
} from './value-schema-spec.js';
export type {InferArgs, InferValue} from './infer.js';
export {parameterSchemaSpecToJsonSchema, valueSchemaSpecToJsonSchema} from './compile-spec.js';
export {assertObjectJsonSchema, assertSupportedJsonSchema} from './assert-json-schema.js';
export {validateJsonSchemaValue} from './validate-value.js';
export {validateArgs} from './validate-args.js';
