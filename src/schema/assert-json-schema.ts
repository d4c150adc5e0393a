/**
@module The raw JSON Schema subset every consumer relies on (contract.md §T1.6).
*/
import {snapshotJsonValue} from '../json/snapshot-json.js';
import {JsonSchemaError} from './json-schema-error.js';
import type {JsonSchemaNode} from './json-schema-node.js';
import {findEntry, readDenseArray, readRecordEntries, type OwnEntries} from './read-own-entries.js';
import {isScalarType, matchesScalarType, type ScalarType} from './scalar-type.js';

const constraintKeywords: ReadonlySet<string> = new Set(['type', 'oneOf', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const']);
const annotationKeywords: ReadonlySet<string> = new Set(['description', 'title', 'default', 'examples']);

/** Constraints that need a `type` and may not stand beside `oneOf`, in the order violations are reported. */
const typedKeywords = ['properties', 'required', 'additionalProperties', 'items', 'enum', 'const'] as const;

const rawTypes: ReadonlySet<string> = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/** Which types each typed keyword applies to. */
function keywordAppliesTo(keyword: (typeof typedKeywords)[number], type: string): boolean {
	if (keyword === 'items') {
		return type === 'array';
	}

	if (keyword === 'enum' || keyword === 'const') {
		return isScalarType(type);
	}

	return type === 'object';
}

const unsupportedKeyword = 'is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)';

/** A walk step: check a node, or leave it (drop it from the ancestor set). */
type Step = {readonly node: unknown; readonly path: string} | {readonly leave: object};

/**
Every violation of the raw subset in `schema`, in walk order (a node's own violations, then its
children: properties, items, oneOf branches). Iterative and cycle-guarded by the ancestor set, so
sibling reuse is fine and depth is bounded by memory only.
*/
export function collectJsonSchemaViolations(schema: unknown, label = 'schema'): string[] {
	const violations: string[] = [];
	const ancestors = new Set<object>();
	const steps: Step[] = [{node: schema, path: label}];
	while (steps.length > 0) {
		const step = steps.pop()!;
		if ('leave' in step) {
			ancestors.delete(step.leave);
			continue;
		}

		const {node, path} = step;
		const entries = readRecordEntries(node);
		if (entries === undefined) {
			violations.push(`${path} must be a schema object`);
			continue;
		}

		const record = node as object;
		if (ancestors.has(record)) {
			violations.push(`${path} is circular`);
			continue;
		}

		const children = checkNode(entries, path, violations);
		if (children.length > 0) {
			ancestors.add(record);
			steps.push({leave: record});
			for (let index = children.length - 1; index >= 0; index--) {
				steps.push(children[index]!);
			}
		}
	}

	return violations;
}

/** Check one node's own keywords; returns the child nodes still to walk, in order. */
function checkNode(entries: OwnEntries, path: string, violations: string[]): Array<{node: unknown; path: string}> {
	for (const [key, value] of entries) {
		if (annotationKeywords.has(key)) {
			checkAnnotation(key, value, path, violations);
		} else if (!constraintKeywords.has(key)) {
			violations.push(`${path}.${key} ${unsupportedKeyword}`);
		}
	}

	const type = findEntry(entries, 'type');
	const oneOf = findEntry(entries, 'oneOf');
	if (type !== undefined && oneOf !== undefined) {
		violations.push(`${path} cannot declare both type and oneOf`);
		return [];
	}

	if (oneOf !== undefined) {
		for (const keyword of typedKeywords) {
			if (findEntry(entries, keyword) !== undefined) {
				violations.push(`${path}.${keyword} is not supported beside oneOf`);
			}
		}

		const branches = readDenseArray(oneOf[1]);
		if (branches === undefined || branches.length < 2) {
			violations.push(`${path}.oneOf must be an array of at least two schemas`);
			return [];
		}

		return branches.map((branch, index) => ({node: branch, path: `${path}.oneOf[${index}]`}));
	}

	if (type === undefined) {
		for (const keyword of typedKeywords) {
			if (findEntry(entries, keyword) !== undefined) {
				violations.push(`${path}.${keyword} requires type or oneOf`);
			}
		}

		return [];
	}

	const typeName = type[1];
	if (Array.isArray(typeName)) {
		violations.push(`${path}.type must be a single type string (type arrays are not supported)`);
		return [];
	}

	if (typeof typeName !== 'string' || !rawTypes.has(typeName)) {
		violations.push(`${path}.type must be one of object/array/string/number/integer/boolean/null`);
		return [];
	}

	for (const keyword of typedKeywords) {
		if (findEntry(entries, keyword) !== undefined && !keywordAppliesTo(keyword, typeName)) {
			violations.push(`${path}.${keyword} is not supported on type "${typeName}"`);
		}
	}

	if (typeName === 'object') {
		return checkObjectKeywords(entries, path, violations);
	}

	if (typeName === 'array') {
		const items = findEntry(entries, 'items');
		return items === undefined ? [] : [{node: items[1], path: `${path}.items`}];
	}

	if (isScalarType(typeName)) {
		checkScalarKeywords(entries, typeName, path, violations);
	}

	return [];
}

function checkAnnotation(key: string, value: unknown, path: string, violations: string[]): void {
	if (key === 'description' || key === 'title') {
		if (typeof value !== 'string') {
			violations.push(`${path}.${key} must be a string`);
		}

		return;
	}

	let lossless: boolean;
	try {
		lossless = snapshotJsonValue(value).ok;
	} catch {
		lossless = false;
	}

	if (!lossless) {
		violations.push(`${path}.${key} annotation must be lossless JSON data`);
	}
}

function checkObjectKeywords(entries: OwnEntries, path: string, violations: string[]): Array<{node: unknown; path: string}> {
	const children: Array<{node: unknown; path: string}> = [];
	const propertiesEntry = findEntry(entries, 'properties');
	let declared: OwnEntries | undefined = [];
	if (propertiesEntry !== undefined) {
		declared = readRecordEntries(propertiesEntry[1]);
		if (declared === undefined) {
			violations.push(`${path}.properties must be an object of schemas`);
		} else {
			for (const [key, child] of declared) {
				children.push({node: child, path: `${path}.properties.${key}`});
			}
		}
	}

	const requiredEntry = findEntry(entries, 'required');
	if (requiredEntry !== undefined) {
		const required = readDenseArray(requiredEntry[1]);
		if (required === undefined || required.some(name => typeof name !== 'string')) {
			violations.push(`${path}.required must be an array of strings`);
		} else if (declared !== undefined) {
			for (const name of required as string[]) {
				if (findEntry(declared, name) === undefined) {
					violations.push(`${path}.required names "${name}" which is not in properties`);
				}
			}
		}
	}

	const additional = findEntry(entries, 'additionalProperties');
	if (additional !== undefined && typeof additional[1] !== 'boolean') {
		violations.push(`${path}.additionalProperties must be a boolean`);
	}

	return children;
}

function checkScalarKeywords(entries: OwnEntries, type: ScalarType, path: string, violations: string[]): void {
	const enumEntry = findEntry(entries, 'enum');
	let allowed: unknown[] | undefined;
	if (enumEntry !== undefined) {
		allowed = readDenseArray(enumEntry[1]);
		if (allowed === undefined || allowed.length === 0 || !allowed.every(member => matchesScalarType(type, member))) {
			allowed = undefined;
			violations.push(`${path}.enum must be a non-empty array of ${type} values`);
		}
	}

	const constEntry = findEntry(entries, 'const');
	if (constEntry === undefined) {
		return;
	}

	if (!matchesScalarType(type, constEntry[1])) {
		// The article is the contract's, kept verbatim: "must be a integer value".
		violations.push(`${path}.const must be a ${type} value`);
	} else if (allowed !== undefined && !allowed.includes(constEntry[1])) {
		violations.push(`${path}.const must be one of ${path}.enum when both are declared`);
	}
}

/** Assert `schema` is in the supported raw subset; throws one `JsonSchemaError` listing every violation. */
export function assertSupportedJsonSchema(schema: unknown): asserts schema is JsonSchemaNode {
	const violations = collectJsonSchemaViolations(schema);
	if (violations.length > 0) {
		throw new JsonSchemaError(violations);
	}
}

/** Like `assertSupportedJsonSchema`, and the root must declare `type: 'object'` (structured subagent output). */
export function assertObjectJsonSchema(schema: unknown): asserts schema is JsonSchemaNode {
	const violations = collectJsonSchemaViolations(schema);
	const entries = readRecordEntries(schema);
	if (entries !== undefined && findEntry(entries, 'type')?.[1] !== 'object') {
		violations.push('schema.type must be "object" at the root of an object schema');
	}

	if (violations.length > 0) {
		throw new JsonSchemaError(violations);
	}
}
