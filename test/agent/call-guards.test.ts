/**
The model's calls that the loop does not run: arguments that are not JSON (the model is told the
parse error with its position and the text there) and runaway loops (the same call step after step,
or two alternating), stopped long before the step limit; and the step limit's default.
*/
import {describe, expect, it} from 'vitest';
import {jsonFailure} from '../../src/agent/call-refusals.js';
import {DEFAULT_MAX_STEPS} from '../../src/agent/agent-loop.js';
import {agentHarness, eventTrail, toolMessages} from './agent-harness.js';

describe('arguments that are not JSON', () => {
	it('the model is told the parse error, where it is and the text there; the call is not run (nor asked about)', async () => {
		const h = await agentHarness({
			session: {policy: async (exec, next) => (exec.name === 'write' ? {kind: 'ask', reason: 'writes ask'} : next())},
			script: [
				{toolCalls: [{id: 'j1', name: 'write', args: '{"file_path": "a.txt", "content": "x" "mode": 1}'}, {id: 'j2', name: 'read', args: '{"file_path": '}]},
				{text: 'Fixed.'},
			],
		});
		await h.turn('go');
		const told = toolMessages(h.server.requests[1]!);
		expect(told[0]).toEqual(['j1', 'Error: invalid arguments: the arguments are not valid JSON: Expected \',\' or \'}\' after property value at line 1, column 39 (character 38 of 48); the text there: {"file_path": "a.txt", "content": "x" ⟨here⟩"mode": 1}']);
		expect(told[1]).toEqual(['j2', 'Error: invalid arguments: the arguments are not valid JSON: the JSON ends early: it is cut off at line 1, column 15 (character 14 of 14); the text there: {"file_path": ⟨here⟩']);
		expect(h.events.some(event => event.type === 'approval/asked')).toBe(false);
		const results = h.events.filter(event => event.type === 'tool/result').map(event => (event.data as Record<string, any>).error);
		expect(results).toEqual([{name: 'ToolArgsError', code: 'INVALID_ARGS'}, {name: 'ToolArgsError', code: 'INVALID_ARGS'}]);
		const {live, replay} = await h.finish();
		expect(replay).toEqual(live);
	}, 30_000);

	it('words failures on later lines, long texts and control characters on one line', () => {
		const text = `{\n  "command": "echo hi",\n  "description": "a very long description that goes on and on" ,, \n}`;
		let message = '';
		try {
			JSON.parse(text);
		} catch (error) {
			message = (error as Error).message;
		}

		// The second comma (character 90) is where a property name was expected.
		expect(jsonFailure(text, message)).toBe('the arguments are not valid JSON: Expected double-quoted property name at line 3, column 65 (character 90 of 94); the text there: … long description that goes on and on" ,⟨here⟩, \\n}');
		// V8's newer wording with its own line and column is replaced the same way.
		expect(jsonFailure('{"a":1 "b"}', 'Expected \',\' or \'}\' after property value in JSON at position 7 (line 1 column 8)')).toBe('the arguments are not valid JSON: Expected \',\' or \'}\' after property value at line 1, column 8 (character 7 of 11); the text there: {"a":1 ⟨here⟩"b"}');
		expect(jsonFailure('{"a":"\u0007\u001b[2J', 'Unterminated string in JSON at position 11')).toBe('the arguments are not valid JSON: Unterminated string at line 1, column 12 (character 11 of 11); the text there: {"a":"\\u0007\\u001b[2J⟨here⟩');
	});
});

describe('runaway loops', () => {
	it('the same call with the same arguments five steps in a row: the fifth is not run and the turn stops, long before the step limit', async () => {
		// The same arguments in another key order and spacing are the same call.
		const h = await agentHarness({script: (_request, index) => ({toolCalls: [{id: `g${index}`, name: 'glob', args: index % 2 === 0 ? '{"pattern":"*.txt","path":"."}' : '{ "path": ".", "pattern": "*.txt" }'}]})});
		const outcome = await h.turn('find the text files');
		expect(outcome.reason).toEqual({kind: 'blocked', code: 'loop', message: 'the model made the same call 5 times in a row (glob {"pattern":"*.txt","path":"."}); stopped the turn'});
		expect(h.server.requests).toHaveLength(5);
		const results = h.events.filter(event => event.type === 'tool/result').map(event => (event.data as Record<string, any>).error?.code ?? 'ok');
		expect(results).toEqual(['ok', 'ok', 'ok', 'ok', 'RUNAWAY_LOOP']);
		const {live, replay} = await h.finish();
		expect(live.at(-1)).toMatchObject({entry: 'turn', outcome: {text: expect.stringMatching(/^blocked: the model made the same call 5 times in a row/), failed: true}});
		expect(replay).toEqual(live);
	}, 30_000);

	it('two steps alternating four rounds (A B A B A B A B): stopped at the eighth', async () => {
		const h = await agentHarness({
			files: {'a.txt': 'a\n'},
			script: (_request, index) => (index % 2 === 0 ? {toolCalls: [{id: `r${index}`, name: 'read', args: '{"file_path":"a.txt"}'}]} : {toolCalls: [{id: `g${index}`, name: 'glob', args: '{"pattern":"*"}'}]}),
		});
		const outcome = await h.turn('look around');
		expect(outcome.reason).toMatchObject({kind: 'blocked', code: 'loop', message: 'the model alternated between the same two steps 4 times (read {"file_path":"a.txt"}, then glob {"pattern":"*"}); stopped the turn'});
		expect(h.server.requests).toHaveLength(8);
		await h.finish();
	}, 30_000);

	it('steps that differ (an edit between test runs) are not a loop', async () => {
		const h = await agentHarness({
			files: {'n.txt': '0\n'},
			script: (_request, index) => (index >= 12 ? {text: 'Done.'} : (index % 2 === 0
				? {toolCalls: [{id: `e${index}`, name: 'write', args: JSON.stringify({file_path: 'n.txt', content: `${index}\n`})}]}
				: {toolCalls: [{id: `c${index}`, name: 'bash', args: '{"command":"cat n.txt","description":"Check"}'}]})),
		});
		expect((await h.turn('count up')).reason).toEqual({kind: 'completed'});
		expect(eventTrail(h.events, ['turn/end'])).toEqual(['turn/end completed']);
		await h.finish();
	}, 30_000);
});

describe('the step limit', () => {
	it('defaults to 100 steps: a long task fits, and a turn past it stops with the limit named', async () => {
		expect(DEFAULT_MAX_STEPS).toBe(100);
		const h = await agentHarness({script: (_request, index) => ({toolCalls: [{id: `s${index}`, name: 'glob', args: JSON.stringify({pattern: `*.${index}`})}]})});
		const outcome = await h.turn('keep going');
		expect(outcome.reason).toEqual({kind: 'blocked', code: 'step-limit', message: 'the step limit (100) was reached'});
		expect(h.server.requests).toHaveLength(100);
		await h.finish();
	}, 60_000);
});
