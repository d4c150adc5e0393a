import type {JsonSchemaNode} from './json-schema-node.js';

/** Every violation of `value` against an asserted raw schema; empty means valid. Never throws. */
export function validateJsonSchemaValue(schema: JsonSchemaNode, value: unknown, pathLabel: string): string[] {
	return [`validateJsonSchemaValue: not implemented yet (${typeof schema}, ${typeof value}, ${pathLabel})`];
}
