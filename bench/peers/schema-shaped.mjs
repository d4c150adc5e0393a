// A value that satisfies a JSON schema (or a Gemini `responseSchema`, whose types are upper case), so a
// client's side request (a title, a loop check, a router asking for JSON) parses on the first try.

/** The smallest plausible value of `schema`: the first enum value, the first of a union, required fields filled. */
export function schemaShaped(schema, depth = 0) {
	if (schema === null || typeof schema !== 'object' || depth > 8) {
		return 'ok';
	}

	if (Array.isArray(schema.enum) && schema.enum.length > 0) {
		return schema.enum[0];
	}

	if ('const' in schema) {
		return schema.const;
	}

	for (const union of ['anyOf', 'oneOf', 'allOf']) {
		if (Array.isArray(schema[union]) && schema[union].length > 0) {
			return schemaShaped(schema[union][0], depth + 1);
		}
	}

	const type = String(Array.isArray(schema.type) ? schema.type.find(name => name !== 'null') ?? 'null' : schema.type ?? (schema.properties ? 'object' : 'string')).toLowerCase();
	switch (type) {
		case 'object': {
			const value = {};
			const properties = schema.properties ?? {};
			const wanted = Array.isArray(schema.required) ? schema.required : Object.keys(properties);
			for (const name of wanted) {
				value[name] = schemaShaped(properties[name] ?? {}, depth + 1);
			}

			return value;
		}

		case 'array': {
			const count = Number.isInteger(schema.minItems) ? schema.minItems : 0;
			return Array.from({length: count}, () => schemaShaped(schema.items ?? {}, depth + 1));
		}

		case 'integer':
		case 'number': {
			return typeof schema.minimum === 'number' ? schema.minimum : 0;
		}

		case 'boolean': {
			return false;
		}

		case 'null': {
			return null;
		}

		default: {
			return Number.isInteger(schema.minLength) && schema.minLength > 2 ? 'o'.repeat(schema.minLength) : 'ok';
		}
	}
}
