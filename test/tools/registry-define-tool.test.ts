import {describe, expect, it} from 'vitest';
import {defineTool} from '../../src/tools/define-tool.js';
import {ToolRegistry} from '../../src/tools/registry.js';
import {callInput} from './pipeline-fixtures.js';

function readTool(calls: unknown[]) {
	return defineTool({
		name: 'read',
		description: 'Read a file.',
		parameters: {path: {type: 'string', required: true}, limit: {type: 'integer'}},
		output: {
			schema: {type: 'object', additionalProperties: false, properties: {path: {type: 'string', required: true}, lines: {type: 'integer', required: true}}},
			render: (_args, value) => [{type: 'text', text: `${value.path}: ${value.lines} lines`}],
			presentationMeta: (_args, value) => ({path: value.path}),
		},
		isConcurrencySafe: () => true,
		async execute(args) {
			calls.push(args);
			return {path: args.path, lines: args.limit ?? 3};
		},
	});
}

describe('defineTool definitions in the registry', () => {
	it('run with validated arguments and project content and meta from the value', async () => {
		const calls: unknown[] = [];
		const registry = new ToolRegistry();
		registry.register(readTool(calls));
		expect(await registry.execute(callInput({name: 'read', arguments: {path: '/t', extra: 1}}))).toEqual({
			isError: false,
			value: {path: '/t', lines: 3},
			content: [{type: 'text', text: '/t: 3 lines'}],
			meta: {path: '/t'},
		});
		expect(calls).toEqual([{path: '/t', extra: 1}]);
	});

	it('never reach the body with invalid arguments (§T7 item 5)', async () => {
		const calls: unknown[] = [];
		const registry = new ToolRegistry();
		registry.register(readTool(calls));
		expect(await registry.execute(callInput({name: 'read', arguments: {}}))).toEqual({
			isError: true,
			error: {message: 'invalid arguments: missing required property "path"', info: {name: 'ToolArgsError', code: 'INVALID_ARGS'}},
			content: [{type: 'text', text: 'Error: invalid arguments: missing required property "path"'}],
		});
		expect(calls).toEqual([]);
	});

	it('classify malformed arguments as exclusive and valid ones by the author classifier (§T7 item 6)', () => {
		const registry = new ToolRegistry();
		registry.register(readTool([]));
		expect(registry.executionMode({name: 'read', arguments: {path: 1}})).toEqual({kind: 'exclusive'});
		expect(registry.executionMode({name: 'read', arguments: {path: '/t'}})).toEqual({kind: 'parallel'});
	});

	it('project their compiled parameter schema', () => {
		const registry = new ToolRegistry();
		registry.register(readTool([]));
		expect(registry.schemas()).toEqual([
			{
				name: 'read',
				description: 'Read a file.',
				parameters: {type: 'object', properties: {path: {type: 'string'}, limit: {type: 'integer'}}, required: ['path']},
			},
		]);
	});
});
