/**
@module The author-facing schema DSL (contract.md §T1.1, §T1.2). Every node compiles to a raw
`JsonSchemaNode`; arrays are `readonly` so `const` type parameters keep literals.
*/
/** JSON data as an author writes it inline: `const` type parameters make its arrays and objects readonly. */
export type JsonLiteral = null | boolean | number | string | readonly JsonLiteral[] | {readonly [key: string]: JsonLiteral};

/** Non-validating annotations every node may carry. `default` is never applied. */
export type SchemaAnnotations = {
	readonly description?: string;
	readonly title?: string;
	readonly default?: JsonLiteral;
	readonly examples?: JsonLiteral;
};

/** A string, optionally restricted by `enum` and/or `const`. */
export type StringSchemaSpec = SchemaAnnotations & {readonly type: 'string'; readonly enum?: readonly string[]; readonly const?: string};

/** A finite JSON number (never `NaN`, `±Infinity` or `-0`). */
export type NumberSchemaSpec = SchemaAnnotations & {readonly type: 'number'; readonly enum?: readonly number[]; readonly const?: number};

/** A finite JSON number with no fractional part. */
export type IntegerSchemaSpec = SchemaAnnotations & {readonly type: 'integer'; readonly enum?: readonly number[]; readonly const?: number};

/** A boolean. */
export type BooleanSchemaSpec = SchemaAnnotations & {readonly type: 'boolean'; readonly enum?: readonly boolean[]; readonly const?: boolean};

/** `null`. */
export type NullSchemaSpec = SchemaAnnotations & {readonly type: 'null'; readonly enum?: readonly null[]; readonly const?: null};

/** An array; without `items` any lossless JSON elements. */
export type ArraySchemaSpec = SchemaAnnotations & {readonly type: 'array'; readonly items?: ValueSchemaSpec};

/** An object. `additionalProperties` is mandatory so openness is always a decision. */
export type ObjectSchemaSpec = SchemaAnnotations & {
	readonly type: 'object';
	readonly additionalProperties: boolean;
	readonly properties?: ParameterSchemaSpec;
};

/** Any lossless JSON value (author-only; compiles to an annotation-only node). */
export type JsonAnySchemaSpec = SchemaAnnotations & {readonly type: 'json'};

/** Exactly one of at least two branches must match. */
export type OneOfSchemaSpec = SchemaAnnotations & {readonly oneOf: readonly [ValueSchemaSpec, ValueSchemaSpec, ...ValueSchemaSpec[]]};

/** A schema for any JSON root. */
export type ValueSchemaSpec =
	| StringSchemaSpec
	| NumberSchemaSpec
	| IntegerSchemaSpec
	| BooleanSchemaSpec
	| NullSchemaSpec
	| ArraySchemaSpec
	| ObjectSchemaSpec
	| JsonAnySchemaSpec
	| OneOfSchemaSpec;

/** One entry of a property map: a value schema that may be marked `required: true`. */
export type PropertySchemaSpec = ValueSchemaSpec & {readonly required?: true};

/** A property map: the implicit open object root of a tool's arguments, and nested `properties`. */
export type ParameterSchemaSpec = {readonly [key: string]: PropertySchemaSpec};
