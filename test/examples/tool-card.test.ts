// The tool author's card test shown in README.md ("Testing your tool's card"), kept runnable here.
import {describe, expect, it} from 'vitest';
import {defineTool, ToolRegistry} from 'cardterm';
import {renderCardFrame} from 'cardterm/testing';

const countLines = defineTool({
	name: 'count_lines',
	description: 'Count the lines of a text.',
	parameters: {text: {type: 'string', required: true}},
	output: {
		schema: {type: 'integer'},
		render: (_args, value) => [{type: 'text', text: `${value} lines`}],
	},
	presentCall: args => ({card: 'generic', title: `Count lines (${args.text.length} chars)`, kind: 'read'}),
	async execute(args) {
		return args.text.split('\n').length;
	},
});

describe('count_lines card', () => {
	it('shows the count when the call succeeds', async () => {
		const frame = renderCardFrame(countLines, {args: {text: 'a\nb\nc'}, result: {content: [{type: 'text', text: '3 lines'}]}, width: 60});
		expect(frame).toContain('Count lines (5 chars)');
		await expect(frame).toMatchFileSnapshot('../../snapshots/examples/count-lines--ok--w60--color.frame');
	});

	it('draws what the registry returned: the call as the model would make it, run for real', async () => {
		const registry = new ToolRegistry();
		registry.register(countLines);
		const args = {text: 'a\nb\nc'};
		const result = await registry.execute({callId: 'c1', name: 'count_lines', arguments: args, signal: new AbortController().signal});
		await expect(renderCardFrame(countLines, {args, result, width: 60})).toMatchFileSnapshot('../../snapshots/examples/count-lines--ok--w60--color.frame');
		expect(renderCardFrame(countLines, {args: {text: 'a\nb'}, width: 60})).toContain('○ count_lines Count lines (3 chars)');
	});
});
