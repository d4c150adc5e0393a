import {describe, expect, test} from 'vitest';
import type {ToolDefinition} from '../../src/tools/types.js';
import {echo, harness} from './code-mode-fixtures.js';

const image = {type: 'image' as const, attachment: {attachmentId: 'att-1', mediaType: 'image/png', bytes: 10, width: 1, height: 1}};

/** A tool whose result content carries an image, a context, and concludes the turn. */
const snapshot: ToolDefinition = {
	name: 'snapshot',
	description: 'Take a screenshot.',
	parameters: {type: 'object', properties: {}},
	output: {schema: {type: 'string'}, render: (_args, value) => [{type: 'text', text: String(value)}, image]},
	async execute(_args, exec) {
		exec.deferContext({id: 'ctx-1', role: 'user', content: [{type: 'text', text: 'note'}], source: {kind: 'plugin', plugin: 'test'}});
		exec.concludeTurn();
		return 'shot';
	},
};

describe('sub-call side channels (contract.md §T6.5)', () => {
	test('images and contexts of sub-results ride the outer result in order, and concludesTurn is forwarded', async () => {
		const h = harness([snapshot]);
		const result = await h.run('return await tools.snapshot({});', {callId: 'outer'});
		expect(result).toEqual({
			isError: false,
			value: {logs: [], result: 'shot'},
			content: [{type: 'text', text: 'shot'}],
			additionalContexts: [
				{id: 'outer:code:1:images', role: 'user', content: [{type: 'text', text: 'shot'}, image], source: {kind: 'plugin', plugin: 'tools-code-mode'}},
				{id: 'ctx-1', role: 'user', content: [{type: 'text', text: 'note'}], source: {kind: 'plugin', plugin: 'test'}},
			],
			concludesTurn: true,
		});
	});

	test('the settle event logs the content the tools/code-dispatch-log waterfall returns', async () => {
		const h = harness([echo]);
		h.registry.on('tools/code-dispatch-log', async log => [{type: 'text', text: `logged ${log.subCallId}`}]);
		await h.run('await tools.echo({value: "v"});');
		expect(h.events.at(-1)).toEqual({
			type: 'tool/code-dispatch',
			data: {rootCallId: 'call-1', parentCallId: 'call-1', subCallId: 'call-1:code:1', name: 'echo', arguments: {value: 'v'}, isError: false, content: [{type: 'text', text: 'logged call-1:code:1'}]},
		});
	});

	test('a throwing dispatch observer does not change the run', async () => {
		const h = harness([echo]);
		h.registry.on('tools/code-dispatch-log', async () => {
			throw new Error('observer broke');
		});
		const result = await h.run('return await tools.echo({value: "v"});');
		expect({value: result.isError ? result.error : result.value, content: h.events.at(-1)?.type === 'tool/code-dispatch' ? h.events.at(-1)?.data : undefined}).toMatchObject({
			value: {logs: [], result: 'v'},
			content: {content: [{type: 'text', text: 'echo: "v"'}]},
		});
	});
});
