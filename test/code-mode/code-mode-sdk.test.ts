import {describe, expect, test} from 'vitest';
import {codeModeSdk, sdkToolsFrom} from '../../src/code-mode/code-mode-sdk.js';
import {jsonSchemaToTs} from '../../src/code-mode/json-schema-to-ts.js';
import {codeModeTransport} from '../../src/code-mode/run-code-tool.js';
import {ToolRegistry} from '../../src/tools/registry.js';
import {echo, rawTool} from './code-mode-fixtures.js';

const readParameters = {type: 'object', properties: {path: {type: 'string'}, limit: {type: 'integer'}}, required: ['path']};
const readOutput = {
	oneOf: [
		{type: 'object', additionalProperties: false, properties: {kind: {type: 'string', const: 'background'}, jobId: {type: 'string'}}, required: ['kind', 'jobId']},
		{type: 'array', items: {oneOf: [{type: 'string'}, {type: 'null'}]}},
	],
};

describe('jsonSchemaToTs (contract.md §T6.6)', () => {
	test('the spec example: an open parameter root and a union output', () => {
		expect(jsonSchemaToTs(readParameters, '  ')).toBe('{\n    path: string;\n    limit?: number;\n  } & Record<string, JsonValue>');
		expect(jsonSchemaToTs(readOutput, '  ')).toBe('{\n    kind: "background";\n    jobId: string;\n  } | (string | null)[]');
	});

	test('scalars, literals, arrays, empty objects, annotations and unsupported schemas', () => {
		expect([
			jsonSchemaToTs({type: 'string', enum: ['a', 'b']}),
			jsonSchemaToTs({type: 'string', enum: ['a', 'b'], const: 'a'}),
			jsonSchemaToTs({type: 'array'}),
			jsonSchemaToTs({type: 'array', items: {type: 'number'}}),
			jsonSchemaToTs({type: 'object'}),
			jsonSchemaToTs({type: 'object', additionalProperties: false}),
			jsonSchemaToTs({description: 'anything'}),
			jsonSchemaToTs({type: 'string', minLength: 1}),
			jsonSchemaToTs({type: 'null'}),
			jsonSchemaToTs({type: 'boolean'}),
		]).toEqual(['"a" | "b"', '"a"', 'JsonValue[]', 'number[]', 'Record<string, JsonValue>', 'Record<string, never>', 'JsonValue', 'unknown', 'null', 'boolean']);
	});

	test('property docs collapse whitespace and escape comment ends; odd keys are quoted', () => {
		expect(jsonSchemaToTs({type: 'object', additionalProperties: false, properties: {'a-b': {type: 'string', description: 'line one\n  ends */ here'}}})).toBe(
			'{\n  /** line one ends *\\/ here */\n  "a-b"?: string;\n}',
		);
	});
});

describe('codeModeSdk', () => {
	test('tools are sorted by name, described, and declared in the fixed block order', () => {
		const sdk = codeModeSdk([
			{name: 'read', description: 'Read a file.', parameters: readParameters, outputSchema: readOutput},
			{name: 'my-tool', description: '', parameters: {type: 'object', properties: {}}, outputSchema: {type: 'string'}},
		]);
		const fenced = sdk.slice(sdk.indexOf('```ts\n'));
		expect(fenced).toBe([
			'```ts',
			'type JsonValue = null | boolean | number | string | JsonValue[] | {[key: string]: JsonValue};',
			'',
			'interface ToolArgsMap {',
			'  "my-tool": Record<string, JsonValue>;',
			'  /** Read a file. */',
			'  read: {',
			'    path: string;',
			'    limit?: number;',
			'  } & Record<string, JsonValue>;',
			'}',
			'',
			'interface ToolOutputMap {',
			'  "my-tool": string;',
			'  read: {',
			'    kind: "background";',
			'    jobId: string;',
			'  } | (string | null)[];',
			'}',
			'',
			'type ToolName = keyof ToolOutputMap;',
			'',
			'declare class ToolCallError extends Error {',
			'  readonly name: "ToolCallError";',
			'  readonly toolName: ToolName;',
			'}',
			'',
			'declare const tools: {',
			'  [K in ToolName]: (args: ToolArgsMap[K]) => Promise<ToolOutputMap[K]>;',
			'};',
			'```',
		].join('\n'));
		expect(sdk.startsWith('## Calling tools from code\n')).toBe(true);
	});

	test('an empty tool set renders empty maps, and equal inputs give identical text', () => {
		expect(codeModeSdk([])).toContain('interface ToolArgsMap {}\n\ninterface ToolOutputMap {}');
		expect(codeModeSdk([])).toBe(codeModeSdk([]));
	});

	test('the tools come from the registry without run_code', () => {
		const registry = new ToolRegistry({mode: 'both'});
		registry.register(echo);
		registry.register(rawTool('zeta', async () => null));
		registry.attachCodeTransport(codeModeTransport({executor: registry}));
		expect(sdkToolsFrom(registry)).toEqual([
			{name: 'echo', description: 'The echo fixture.', parameters: {type: 'object', properties: {}}, outputSchema: {}},
			{name: 'zeta', description: 'The zeta fixture.', parameters: {type: 'object', properties: {}}, outputSchema: {}},
		]);
	});
});
