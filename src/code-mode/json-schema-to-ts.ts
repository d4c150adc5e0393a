/**
@module A TypeScript type for a raw JSON Schema of the supported subset (contract.md §T6.6),
for the Code Mode SDK the model reads. Total: a schema outside the subset becomes `unknown`.
*/
import {isPlainRecord} from '../json/is-plain-record.js';
import {collectJsonSchemaViolations} from '../schema/assert-json-schema.js';

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property or member key: bare when it is an identifier, else JSON-quoted. */
export function tsKey(key: string): string {
	return identifier.test(key) ? key : JSON.stringify(key);
}

/** A one-line doc comment: whitespace collapsed, `*\/` escaped; `undefined` for no text. */
export function tsDocComment(text: unknown): string | undefined {
	if (typeof text !== 'string') {
		return undefined;
	}

	const collapsed = text.replaceAll(/\s+/g, ' ').trim().replaceAll('*/', '*\\/');
	return collapsed === '' ? undefined : `/** ${collapsed} */`;
}

/** The TypeScript type of `schema`; nested object lines are indented from `indent`. */
export function jsonSchemaToTs(schema: unknown, indent = ''): string {
	if (collectJsonSchemaViolations(schema).length > 0) {
		return 'unknown';
	}

	return typeOf(schema as Record<string, unknown>, indent);
}

function typeOf(schema: Record<string, unknown>, indent: string): string {
	if ('const' in schema) {
		return JSON.stringify(schema.const);
	}

	if (Array.isArray(schema.enum)) {
		return schema.enum.map(value => JSON.stringify(value)).join(' | ');
	}

	if (Array.isArray(schema.oneOf)) {
		return schema.oneOf.map(branch => typeOf(branch as Record<string, unknown>, indent)).join(' | ');
	}

	switch (schema.type) {
		case 'string': {
			return 'string';
		}

		case 'number':
		case 'integer': {
			return 'number';
		}

		case 'boolean': {
			return 'boolean';
		}

		case 'null': {
			return 'null';
		}

		case 'array': {
			if (!isPlainRecord(schema.items)) {
				return 'JsonValue[]';
			}

			const item = typeOf(schema.items, indent);
			return item.includes('|') || item.includes('&') ? `(${item})[]` : `${item}[]`;
		}

		case 'object': {
			return objectType(schema, indent);
		}

		default: {
			// Annotation-only: any lossless JSON.
			return 'JsonValue';
		}
	}
}

function objectType(schema: Record<string, unknown>, indent: string): string {
	const open = schema.additionalProperties !== false;
	const properties = isPlainRecord(schema.properties) ? schema.properties : {};
	const keys = Object.keys(properties);
	if (keys.length === 0) {
		return open ? 'Record<string, JsonValue>' : 'Record<string, never>';
	}

	const required = new Set(Array.isArray(schema.required) ? schema.required : []);
	const inner = `${indent}  `;
	const lines = ['{'];
	for (const key of keys) {
		const property = properties[key] as Record<string, unknown>;
		const doc = tsDocComment(property.description);
		if (doc !== undefined) {
			lines.push(inner + doc);
		}

		lines.push(`${inner}${tsKey(key)}${required.has(key) ? '' : '?'}: ${typeOf(property, inner)};`);
	}

	lines.push(`${indent}}`);
	const body = lines.join('\n');
	return open ? `${body} & Record<string, JsonValue>` : body;
}
