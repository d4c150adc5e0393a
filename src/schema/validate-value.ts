/**
@module Runtime validation of a value against an asserted raw schema (contract.md §T1.7).

Total over arbitrary input: a throwing getter or proxy trap becomes a violation at the node that
was inspecting it. Iterative with an explicit stack, so 5 000-deep unions validate.
*/
import {isIntrinsicArray, isPlainRecord} from '../json/is-plain-record.js';
import {snapshotJsonValue} from '../json/snapshot-json.js';
import type {JsonSchemaNode} from './json-schema-node.js';
import {isJsonNumber, matchesScalarType} from './scalar-type.js';

/** Where a value sits. The empty root label (arguments) prints as `arguments` and is no prefix for children. */
type Path = {readonly text: string; readonly root: boolean};

/** Check `value` against `schema`, appending violations to `out`. */
type Check = {readonly kind: 'check'; readonly schema: JsonSchemaNode; readonly value: unknown; readonly path: Path; readonly out: string[]};

/** After an object's children: undeclared keys, then losslessness if nothing failed. */
type FinishObject = {
	readonly kind: 'finish-object';
	readonly value: object;
	readonly path: Path;
	readonly out: string[];
	readonly start: number;
	/** Own string keys not in `properties`, in the value's key order. */
	readonly undeclared: readonly string[];
	/** `additionalProperties: false`. */
	readonly closed: boolean;
	/** A declared property whose value is `undefined` (skipped by recursion, but not lossless). */
	readonly hasUndefined: boolean;
	/** Every own key is an enumerable string. */
	readonly keysLossless: boolean;
};

/** After an array's items: density and losslessness if nothing failed. */
type FinishArray = {
	readonly kind: 'finish-array';
	readonly value: unknown[];
	readonly path: Path;
	readonly out: string[];
	readonly start: number;
	/** Items were validated one by one (so only the array's shape is left). */
	readonly checked: boolean;
};

/** After every oneOf branch: count the clean ones. */
type TallyOneOf = {readonly kind: 'tally'; readonly branches: readonly string[][]; readonly path: Path; readonly out: string[]};

type Step = Check | FinishObject | FinishArray | TallyOneOf;

/**
Every violation of `value` against `schema` (asserted by `assertSupportedJsonSchema`); empty means
valid. `pathLabel` names the root (`'value'` for outputs; `''` prints as `arguments`). Never throws.
*/
export function validateJsonSchemaValue(schema: JsonSchemaNode, value: unknown, pathLabel: string): string[] {
	const out: string[] = [];
	const steps: Step[] = [{kind: 'check', schema, value, path: {text: pathLabel, root: true}, out}];
	while (steps.length > 0) {
		const step = steps.pop()!;
		switch (step.kind) {
			case 'check': {
				check(step, steps);
				break;
			}

			case 'finish-object': {
				finishObject(step);
				break;
			}

			case 'finish-array': {
				finishArray(step);
				break;
			}

			case 'tally': {
				const matched = step.branches.filter(violations => violations.length === 0).length;
				if (matched !== 1) {
					step.out.push(`${quoted(step.path)} must match exactly one oneOf branch (matched ${matched})`);
				}

				break;
			}

			default: {
				const unreachable: never = step;
				throw new Error(`unreachable validation step: ${JSON.stringify(unreachable)}`);
			}
		}
	}

	return out;
}

function quoted(path: Path): string {
	return `"${display(path)}"`;
}

function display(path: Path): string {
	return path.root && path.text === '' ? 'arguments' : path.text;
}

function childPath(parent: Path, key: string): Path {
	return {text: parent.root && parent.text === '' ? key : `${parent.text}.${key}`, root: false};
}

function itemPath(parent: Path, index: number): Path {
	return {text: `${display(parent)}[${index}]`, root: false};
}

function check(step: Check, steps: Step[]): void {
	const {schema, value, path, out} = step;
	const oneOf = schema['oneOf'];
	if (Array.isArray(oneOf)) {
		const branches = oneOf.map((): string[] => []);
		steps.push({kind: 'tally', branches, path, out});
		for (let index = oneOf.length - 1; index >= 0; index--) {
			steps.push({kind: 'check', schema: oneOf[index] as JsonSchemaNode, value, path, out: branches[index]!});
		}

		return;
	}

	const start = out.length;
	try {
		// Every read of `value` happens before any step is pushed, so a throw leaves nothing behind.
		checkTyped(step, steps);
	} catch {
		// A getter or proxy trap threw while this node inspected the value: one violation, here.
		out.length = start;
		out.push(`${quoted(path)} must be a lossless JSON value`);
	}
}

function checkTyped(step: Check, steps: Step[]): void {
	const {schema, value, path, out} = step;
	const type = schema['type'];
	switch (type) {
		case 'object': {
			checkObject(step, steps);
			return;
		}

		case 'array': {
			checkArray(step, steps);
			return;
		}

		case 'string':
		case 'boolean':
		case 'null': {
			if (!matchesScalarType(type, value)) {
				out.push(`${quoted(path)} must be ${type === 'null' ? 'null' : `a ${type}`}`);
				return;
			}

			checkLiterals(schema, value, path, out);
			return;
		}

		case 'number': {
			if (typeof value !== 'number') {
				out.push(`${quoted(path)} must be a number`);
				return;
			}

			if (!isJsonNumber(value)) {
				out.push(`${quoted(path)} must be a finite JSON number`);
				return;
			}

			checkLiterals(schema, value, path, out);
			return;
		}

		case 'integer': {
			if (!matchesScalarType('integer', value)) {
				out.push(`${quoted(path)} must be an integer`);
				return;
			}

			checkLiterals(schema, value, path, out);
			return;
		}

		default: {
			// No type: annotations only, any lossless JSON.
			if (!snapshotJsonValue(value).ok) {
				out.push(`${quoted(path)} must be a lossless JSON value`);
			}
		}
	}
}

/** `enum` before `const`, strict equality; the first failure is the only one reported. */
function checkLiterals(schema: JsonSchemaNode, value: unknown, path: Path, out: string[]): void {
	const members = schema['enum'];
	if (Array.isArray(members) && !members.some(member => member === value)) {
		out.push(`${quoted(path)} must be one of ${JSON.stringify(members)}`);
		return;
	}

	if (Object.hasOwn(schema, 'const') && schema['const'] !== value) {
		out.push(`${quoted(path)} must be ${JSON.stringify(schema['const'])}`);
	}
}

function checkObject(step: Check, steps: Step[]): void {
	const {schema, value, path, out} = step;
	const start = out.length;
	if (!isPlainRecord(value)) {
		out.push(`${quoted(path)} must be an object`);
		return;
	}

	const properties = (schema['properties'] ?? {}) as Readonly<Record<string, JsonSchemaNode>>;
	const declaredKeys = Object.keys(properties);
	let keysLossless = true;
	const undeclared: string[] = [];
	for (const key of Reflect.ownKeys(value)) {
		if (typeof key !== 'string') {
			keysLossless = false;
			continue;
		}

		if (!Object.prototype.propertyIsEnumerable.call(value, key)) {
			keysLossless = false;
		}

		if (!Object.hasOwn(properties, key)) {
			undeclared.push(key);
		}
	}

	// Read each declared own property once; missing-required and recursion share the reads.
	const present = new Map<string, unknown>();
	for (const key of declaredKeys) {
		if (Object.hasOwn(value, key)) {
			present.set(key, value[key]);
		}
	}

	const required = (schema['required'] ?? []) as readonly string[];
	for (const key of required) {
		if (present.get(key) === undefined) {
			out.push(`missing required property "${childPath(path, key).text}"`);
		}
	}

	let hasUndefined = false;
	const children: Check[] = [];
	for (const key of declaredKeys) {
		if (!present.has(key)) {
			continue;
		}

		const child = present.get(key);
		if (child === undefined) {
			hasUndefined = true;
			continue;
		}

		children.push({kind: 'check', schema: properties[key]!, value: child, path: childPath(path, key), out});
	}

	steps.push({
		kind: 'finish-object',
		value,
		path,
		out,
		start,
		undeclared,
		closed: schema['additionalProperties'] === false,
		hasUndefined,
		keysLossless,
	});
	for (let index = children.length - 1; index >= 0; index--) {
		steps.push(children[index]!);
	}
}

function finishObject(step: FinishObject): void {
	const {value, path, out} = step;
	if (step.closed) {
		for (const key of step.undeclared) {
			out.push(`"${childPath(path, key).text}" is not a declared property (additionalProperties: false)`);
		}
	}

	if (out.length !== step.start) {
		return;
	}

	let lossless = step.keysLossless && !step.hasUndefined;
	try {
		for (let index = 0; lossless && index < step.undeclared.length; index++) {
			lossless = snapshotJsonValue((value as Record<string, unknown>)[step.undeclared[index]!]).ok;
		}
	} catch {
		out.push(`${quoted(path)} must be a lossless JSON value`);
		return;
	}

	if (!lossless) {
		out.push(`${quoted(path)} must be a lossless JSON object`);
	}
}

function checkArray(step: Check, steps: Step[]): void {
	const {schema, value, path, out} = step;
	if (!Array.isArray(value)) {
		out.push(`${quoted(path)} must be an array`);
		return;
	}

	const items = schema['items'] as JsonSchemaNode | undefined;
	const children: Check[] = [];
	if (items !== undefined) {
		const {length} = value;
		for (let index = 0; index < length; index++) {
			// Holes are skipped here; the density check afterwards reports them.
			if (Object.hasOwn(value, index)) {
				children.push({kind: 'check', schema: items, value: value[index], path: itemPath(path, index), out});
			}
		}
	}

	steps.push({kind: 'finish-array', value, path, out, start: out.length, checked: items !== undefined});
	for (let index = children.length - 1; index >= 0; index--) {
		steps.push(children[index]!);
	}
}

function finishArray(step: FinishArray): void {
	const {value, path, out} = step;
	if (out.length !== step.start) {
		return;
	}

	let lossless: boolean;
	try {
		// Validated items are lossless already; only the array's own shape is left to check.
		lossless = step.checked ? isDenseUndecoratedArray(value) : snapshotJsonValue(value).ok;
	} catch {
		out.push(`${quoted(path)} must be a lossless JSON value`);
		return;
	}

	if (!lossless) {
		out.push(`${quoted(path)} must be a dense lossless JSON array`);
	}
}

function isDenseUndecoratedArray(value: unknown[]): boolean {
	if (!isIntrinsicArray(value)) {
		return false;
	}

	const {length} = value;
	if (Reflect.ownKeys(value).length !== length + 1) {
		return false;
	}

	for (let index = 0; index < length; index++) {
		if (!Object.hasOwn(value, index)) {
			return false;
		}
	}

	return true;
}
