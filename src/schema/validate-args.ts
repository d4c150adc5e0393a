import {parameterSchemaSpecToJsonSchema} from './compile-spec.js';
import type {ParameterSchemaSpec} from './value-schema-spec.js';
import {validateJsonSchemaValue} from './validate-value.js';

/** Every violation of `args` against a parameter map; the root prints as `arguments`. Throws `JsonSchemaError` for a bad spec. */
export function validateArgs(spec: ParameterSchemaSpec, args: unknown): string[] {
	return validateJsonSchemaValue(parameterSchemaSpecToJsonSchema(spec), args, '');
}
