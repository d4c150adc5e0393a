import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {agentHarness, eventTrail, toolMessages} from './agent-harness.js';

describe('the agent loop against a model server', () => {
	it('runs a multi-step turn through reference tools, in contract order, and replays to the same transcript', async () => {
		const h = await agentHarness({
			files: {'notes.txt': 'alpha\nbeta\n', 'AGENTS.md': 'Always say please.'},
			script: [
				{reasoning: ['Let me ', 'look ', 'first.'], toolCalls: [{id: 'c1', name: 'read', args: ['{"file_', 'path":', '"notes.txt"}']}, {id: 'c2', name: 'glob', args: '{"pattern":"*.txt"}'}]},
				{text: 'Editing.', toolCalls: [{id: 'c3', name: 'edit', args: '{"file_path":"notes.txt","old_string":"beta","new_string":"BETA"}'}]},
				{toolCalls: [{id: 'c4', name: 'bash', args: '{"command":"cat notes.txt","description":"Show the file"}'}, {id: 'c5', name: 'todo_write', args: '{"todos":[{"content":"Edit notes","status":"completed"}]}'}]},
				{text: ['Done: ', 'beta is ', 'now BETA.'], usage: {prompt_tokens: 100, completion_tokens: 7, cached: 40}},
			],
		});
		const outcome = await h.turn('Capitalise beta in notes.txt');
		expect(outcome.reason).toEqual({kind: 'completed'});
		expect(outcome.usage).toEqual({inputTokens: 130, outputTokens: 22, cacheReadTokens: 40, reasoningTokens: 0});
		expect(readFileSync(`${h.workspace}/notes.txt`, 'utf8')).toBe('alpha\nBETA\n');
		expect(eventTrail(h.events)).toEqual([
			'step 1', 'user(user) "Capitalise beta in notes.txt"', 'assistant', 'call read', 'call glob', 'result c1', 'result c2',
			'step 2', 'assistant', 'call edit', 'result c3',
			'step 3', 'assistant', 'call bash', 'result c4', 'call todo_write', 'todo/write', 'result c5',
			'step 4', 'assistant', 'turn/end completed',
		]);
		// What the model saw: the system prompt with the workspace, tools and AGENTS.md; the results of its calls.
		const [first, second, , last] = h.server.requests;
		const system = String(first!.body.messages[0]!.content);
		expect(first!.body.messages[0]!.role).toBe('system');
		expect(system).toContain(`Workspace: ${h.workspace}`);
		expect(system).toContain('- read: ');
		expect(system).toContain('Always say please.');
		expect(first!.body.tools!.map(tool => tool.function.name)).toEqual(h.session.registry.schemas().map(schema => schema.name));
		expect(first!.body.messages.slice(1)).toEqual([{role: 'user', content: 'Capitalise beta in notes.txt'}]);
		expect(toolMessages(second!).map(([id]) => id)).toEqual(['c1', 'c2']);
		expect(toolMessages(second!)[0]![1]).toContain('1: alpha');
		expect(toolMessages(last!).map(([id]) => id)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
		expect(toolMessages(last!)[3]![1]).toContain('BETA');

		const turnEnd = h.events.at(-1)!;
		expect(turnEnd.data).toMatchObject({turn: 1, reason: {kind: 'completed'}, usage: {inputTokens: 130, outputTokens: 22}});
		const answer = h.events.filter(event => event.type === 'assistant/message').at(-1)!.data as Record<string, any>;
		expect(answer.message.content).toEqual([{type: 'text', text: 'Done: beta is now BETA.'}]);
		expect(answer.message.source).toEqual({kind: 'model', provider: 'openai-compatible', model: 'fake-model'});
		expect(answer.usage).toEqual({inputTokens: 100, outputTokens: 7, cacheReadTokens: 40, reasoningTokens: 0});

		// Streamed deltas are packed into chunk rows in the file (and expand back to the same events).
		await h.session.flush();
		const rows = readFileSync(h.logPath, 'utf8').split('\n').filter(line => line !== '').map(line => (JSON.parse(line) as {type: string}).type);
		expect(rows).toEqual(expect.arrayContaining(['reasoning-chunks', 'tool-call-chunks', 'text-chunks']));
		const {live, replay, replayEvents} = await h.finish();
		expect(replay).toEqual(live);
		expect(replayEvents).toEqual(h.events);
		expect(live.map(entry => entry.entry === 'card' ? `card ${entry.card.name} ${entry.card.status}` : entry.entry)).toEqual([
			'user', 'assistant', 'card read ok', 'card glob ok', 'assistant', 'card edit ok', 'card bash ok', 'card todo_write ok', 'todo', 'assistant', 'turn',
		]);
	}, 30_000);
});
