/**
@module DSL → raw JSON Schema (contract.md §T1.4, §T1.5).

The walk uses an explicit work stack, so a 5 000-deep `oneOf` compiles; it stops at the first
author error, then the compiled node goes through the raw-subset assertion, which reports every
violation (always under the root label `schema`). Output nodes are fresh, deep-frozen objects:
nothing of the author's graph is shared or frozen.
*/
import {deepFreeze} from '../json/deep-freeze.js';
import {snapshotJsonValue} from '../json/snapshot-json.js';
import {collectJsonSchemaViolations} from './assert-json-schema.js';
import {JsonSchemaError} from './json-schema-error.js';
import type {JsonSchemaNode} from './json-schema-node.js';
import {findEntry, readDenseArray, readRecordEntries, type OwnEntries} from './read-own-entries.js';
import type {ParameterSchemaSpec, ValueSchemaSpec} from './value-schema-spec.js';

type MutableNode = Record<string, unknown>;

const annotationKeys: ReadonlySet<string> = new Set(['description', 'title', 'default', 'examples']);

/** The DSL keys of each node kind besides annotations (and `required` where a property map allows it). */
const kindKeys: Readonly<Record<string, ReadonlySet<string>>> = {
	string: new Set(['type', 'enum', 'const']),
	number: new Set(['type', 'enum', 'const']),
	integer: new Set(['type', 'enum', 'const']),
	boolean: new Set(['type', 'enum', 'const']),
	null: new Set(['type', 'enum', 'const']),
	array: new Set(['type', 'items']),
	object: new Set(['type', 'additionalProperties', 'properties']),
	json: new Set(['type']),
};

const oneOfKeys: ReadonlySet<string> = new Set(['oneOf']);

/** One node still to compile, and where its output goes. */
type Task = {
	readonly spec: unknown;
	readonly path: string;
	/** Whether `required: true` is allowed here (entries of a property map). */
	readonly inPropertyMap: boolean;
	/** The enclosing object's `required` list and this entry's key, for property-map entries. */
	readonly requiredIn?: {readonly list: string[]; readonly key: string};
	readonly place: (node: MutableNode) => void;
};

/** Leaving a node: drop it from the ancestors and finish its output. */
type Leave = {readonly leave: object; readonly finish?: () => void};

/** Compile a value schema to the raw subset. Throws `JsonSchemaError` at the first author error. */
export function valueSchemaSpecToJsonSchema(spec: ValueSchemaSpec, label = 'schema'): JsonSchemaNode {
	let root: MutableNode | undefined;
	runCompilation([{spec, path: label, inPropertyMap: false, place(node) {
		root = node;
	}}]);
	return finish(root!);
}

/** Compile a parameter map to the raw subset: an open object root with `properties` always present. */
export function parameterSchemaSpecToJsonSchema(spec: ParameterSchemaSpec): JsonSchemaNode {
	const entries = readRecordEntries(spec);
	if (entries === undefined) {
		throw new JsonSchemaError(['parameters must be an object of value schemas']);
	}

	const properties: MutableNode = {};
	const required: string[] = [];
	const root: MutableNode = {type: 'object', properties, required};
	runCompilation(propertyTasks(entries, properties, required, key => `parameters.${key}`));
	if (required.length === 0) {
		delete root['required'];
	}

	return finish(root);
}

/** Re-assert the compiled output against the raw subset, then freeze it. */
function finish(node: MutableNode): JsonSchemaNode {
	const violations = collectJsonSchemaViolations(node);
	if (violations.length > 0) {
		throw new JsonSchemaError(violations);
	}

	return deepFreeze(node);
}

function runCompilation(initial: Task[]): void {
	const ancestors = new Set<object>();
	const stack: Array<Task | Leave> = [...initial].reverse();
	while (stack.length > 0) {
		const step = stack.pop()!;
		if ('leave' in step) {
			ancestors.delete(step.leave);
			step.finish?.();
			continue;
		}

		const children = compileNode(step, ancestors);
		if (children !== undefined) {
			ancestors.add(step.spec as object);
			stack.push(children.leave);
			for (let index = children.tasks.length - 1; index >= 0; index--) {
				stack.push(children.tasks[index]!);
			}
		}
	}
}

function fail(violation: string): never {
	throw new JsonSchemaError([violation]);
}

/** Compile one node and place its output; returns the children still to compile. */
function compileNode(task: Task, ancestors: ReadonlySet<object>): {tasks: Task[]; leave: Leave} | undefined {
	const {spec, path} = task;
	const entries = readRecordEntries(spec);
	if (entries === undefined) {
		fail(`${path} must be a value schema object`);
	}

	if (ancestors.has(spec as object)) {
		fail(`${path} is circular`);
	}

	const type = findEntry(entries, 'type');
	const oneOf = findEntry(entries, 'oneOf');
	if (type !== undefined && oneOf !== undefined) {
		fail(`${path} cannot declare both type and oneOf`);
	}

	let keys = oneOfKeys;
	if (oneOf === undefined) {
		const typeName = type?.[1];
		if (typeof typeName !== 'string' || !Object.hasOwn(kindKeys, typeName)) {
			fail(`${path}.type must be string/number/integer/boolean/null/array/object/json, or use oneOf`);
		}

		keys = kindKeys[typeName]!;
	}

	for (const [key, value] of entries) {
		if (key === 'required' && task.inPropertyMap) {
			if (value !== true) {
				fail(`${path}.required must be true when present`);
			}

			task.requiredIn?.list.push(task.requiredIn.key);
		} else if (!keys.has(key) && !annotationKeys.has(key)) {
			fail(`${path}.${key} is not supported by the value schema DSL`);
		}
	}

	if (oneOf !== undefined) {
		return compileOneOf(task, entries, oneOf[1]);
	}

	return compileTyped(task, entries, type![1] as string);
}

function compileOneOf(task: Task, entries: OwnEntries, oneOf: unknown): {tasks: Task[]; leave: Leave} {
	const branches = readDenseArray(oneOf);
	if (branches === undefined) {
		fail(`${task.path}.oneOf must be an array of at least two value schemas`);
	}

	const compiled: unknown[] = branches.map(() => null);
	const node: MutableNode = {oneOf: compiled};
	copyAnnotations(entries, node);
	task.place(node);
	const tasks = branches.map((branch, index): Task => ({
		spec: branch,
		path: `${task.path}.oneOf[${index}]`,
		inPropertyMap: false,
		place(child) {
			compiled[index] = child;
		},
	}));
	return {tasks, leave: {leave: task.spec as object}};
}

function compileTyped(task: Task, entries: OwnEntries, type: string): {tasks: Task[]; leave: Leave} | undefined {
	const {path} = task;
	// `json` is author-only: it compiles to an annotation-only node (any lossless JSON).
	const node: MutableNode = type === 'json' ? {} : {type};
	copyAnnotations(entries, node);
	switch (type) {
		case 'array': {
			task.place(node);
			const items = findEntry(entries, 'items');
			if (items === undefined) {
				return undefined;
			}

			const child: Task = {spec: items[1], path: `${path}.items`, inPropertyMap: false, place(compiled) {
				node['items'] = compiled;
			}};
			return {tasks: [child], leave: {leave: task.spec as object}};
		}

		case 'object': {
			return compileObject(task, entries, node);
		}

		case 'json': {
			task.place(node);
			return undefined;
		}

		default: {
			// Scalars: enum/const are copied verbatim; the raw pass checks their types.
			const enumEntry = findEntry(entries, 'enum');
			if (enumEntry !== undefined) {
				const members = readDenseArray(enumEntry[1]);
				if (members === undefined) {
					fail(`${path}.enum must be a non-empty array of scalar values`);
				}

				node['enum'] = members;
			}

			const constEntry = findEntry(entries, 'const');
			if (constEntry !== undefined) {
				node['const'] = constEntry[1];
			}

			task.place(node);
			return undefined;
		}
	}
}

function compileObject(task: Task, entries: OwnEntries, node: MutableNode): {tasks: Task[]; leave: Leave} | undefined {
	const {path} = task;
	const additional = findEntry(entries, 'additionalProperties');
	if (additional === undefined || typeof additional[1] !== 'boolean') {
		fail(`${path}.additionalProperties must be explicitly true or false`);
	}

	node['additionalProperties'] = additional[1];
	task.place(node);
	const propertiesEntry = findEntry(entries, 'properties');
	if (propertiesEntry === undefined) {
		return undefined;
	}

	const propertyEntries = readRecordEntries(propertiesEntry[1]);
	if (propertyEntries === undefined) {
		fail(`${path}.properties must be an object of value schemas`);
	}

	const properties: MutableNode = {};
	const required: string[] = [];
	node['properties'] = properties;
	node['required'] = required;
	const tasks = propertyTasks(propertyEntries, properties, required, key => `${path}.properties.${key}`);
	return {
		tasks,
		leave: {
			leave: task.spec as object,
			finish() {
				if (required.length === 0) {
					delete node['required'];
				}
			},
		},
	};
}

/** Tasks for a property map's entries; output keys are reserved now so they keep declaration order. */
function propertyTasks(entries: OwnEntries, properties: MutableNode, required: string[], pathOf: (key: string) => string): Task[] {
	return entries.map(([key, spec]): Task => {
		// Define, never assign: a property named `__proto__` must stay an ordinary own key.
		defineData(properties, key, null);
		return {spec, path: pathOf(key), inPropertyMap: true, requiredIn: {list: required, key}, place(node) {
			defineData(properties, key, node);
		}};
	});
}

function copyAnnotations(entries: OwnEntries, node: MutableNode): void {
	for (const [key, value] of entries) {
		if (!annotationKeys.has(key)) {
			continue;
		}

		if (key === 'default' || key === 'examples') {
			// A lossless value is copied so the frozen output never shares the author's objects;
			// anything else is kept as is for the raw pass to reject.
			let snapshot;
			try {
				snapshot = snapshotJsonValue(value);
			} catch {
				snapshot = undefined;
			}

			defineData(node, key, snapshot?.ok ? snapshot.value : value);
		} else {
			defineData(node, key, value);
		}
	}
}

function defineData(target: MutableNode, key: string, value: unknown): void {
	Object.defineProperty(target, key, {value, enumerable: true, writable: true, configurable: true});
}
