/**
A schema (DSL or raw) is outside the supported subset (contract.md §T1.9).

It is classed like a `HarnessError` (a stable string `code`, `name` equal to the class name) but
extends `Error` directly: the schema layer sits below the tools layer and must not import it.
*/
export class JsonSchemaError extends Error {
	readonly code = 'UNSUPPORTED_SCHEMA';
	readonly violations: readonly string[];

	constructor(violations: readonly string[]) {
		super(`unsupported JSON schema: ${violations.join('; ')}`);
		this.name = 'JsonSchemaError';
		this.violations = Object.freeze([...violations]);
	}
}
