/** The raw scalar types `enum`/`const` apply to. */
export type ScalarType = 'string' | 'number' | 'integer' | 'boolean' | 'null';

/** Whether `type` names a scalar type. */
export function isScalarType(type: string): type is ScalarType {
	return type === 'string' || type === 'number' || type === 'integer' || type === 'boolean' || type === 'null';
}

/** Whether `value` is a lossless member of a scalar type (`NaN`, `±Infinity` and `-0` are not numbers). */
export function matchesScalarType(type: ScalarType, value: unknown): boolean {
	switch (type) {
		case 'string': {
			return typeof value === 'string';
		}

		case 'number': {
			return isJsonNumber(value);
		}

		case 'integer': {
			return isJsonNumber(value) && Number.isInteger(value);
		}

		case 'boolean': {
			return typeof value === 'boolean';
		}

		case 'null': {
			return value === null;
		}

		default: {
			const unreachable: never = type;
			throw new Error(`unreachable scalar type: ${JSON.stringify(unreachable)}`);
		}
	}
}

/** A finite number that is not `-0`. */
export function isJsonNumber(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0);
}
