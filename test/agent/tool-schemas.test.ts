/**
The tools a request offers: the registry's schemas, worked out once and sent again until the tools
change — a tool registered between steps is in the next request, one disposed is gone.
*/
import {describe, expect, it, vi} from 'vitest';
import {defineTool} from '../../src/tools/define-tool.js';
import {agentHarness} from './agent-harness.js';

const stamp = defineTool({
	name: 'stamp',
	description: 'Stamp the page.',
	parameters: {page: {type: 'string', required: true}},
	output: {schema: {type: 'string'}, render: (_args, value) => [{type: 'text', text: value}]},
	async execute(args) {
		return `stamped ${args.page}`;
	},
});

const toolNames = (body: {tools?: Array<{function: {name: string}}>}): string[] => (body.tools ?? []).map(tool => tool.function.name);

describe('the tools a request offers', () => {
	it('are worked out once while the tools stay the same, and follow a registration or a disposal at the next request', async () => {
		let dispose: (() => void) | undefined;
		const h = await agentHarness({
			script: (_request, index) => index < 3 ? {toolCalls: [{id: `r${index}`, name: 'read', args: '{"file_path":"a.txt"}'}]} : {text: 'done'},
			files: {'a.txt': 'a\n'},
		});
		const schemas = vi.spyOn(h.session.registry, 'schemas');
		// The second result registers a tool, the third disposes of it: requests 3 and 4 see each.
		h.session.log.listen(event => {
			if (event.type !== 'tool/result') {
				return;
			}

			if (dispose === undefined) {
				if ((event.data as {message: {source: {callId: string}}}).message.source.callId === 'r1') {
					dispose = h.session.registry.register(stamp);
				}
			} else if ((event.data as {message: {source: {callId: string}}}).message.source.callId === 'r2') {
				dispose();
			}
		});
		await h.turn('read it three times');
		const offered = h.server.requests.map(request => toolNames(request.body as never));
		expect(offered).toHaveLength(4);
		expect(offered[0]).toContain('read');
		expect(offered[1]).toEqual(offered[0]);
		expect(offered[2]).toEqual([...offered[0]!.filter(name => name !== 'run_code'), 'stamp', ...offered[0]!.filter(name => name === 'run_code')]);
		expect(offered[3]).toEqual(offered[0]);
		// For the first request and after each of the two changes: not once a request (4).
		expect(schemas).toHaveBeenCalledTimes(3);
		const {live, replay} = await h.finish();
		expect(replay).toEqual(live);
	}, 30_000);
});
