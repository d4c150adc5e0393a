import {describe, expect, it} from 'vitest';
import {todoTool} from '../../src/builtin/todo.js';
import type {TodoItem} from '../../src/session/events/events.js';
import {ToolRegistry} from '../../src/tools/registry.js';

function setup(options: Parameters<typeof todoTool>[0] = {}) {
	const writes: Array<readonly TodoItem[]> = [];
	const registry = new ToolRegistry();
	registry.register(todoTool({onWrite: (todos) => writes.push(todos), ...options}));
	const call = async (args: unknown) => registry.execute({callId: 'c1', name: 'todo_write', arguments: args, signal: new AbortController().signal});
	return {writes, call};
}

const example = [
	{content: 'Turn DEBUG off', status: 'completed'},
	{content: 'Fix failing test', status: 'in_progress'},
] as const;

describe('todo_write', () => {
	it('reproduces the §E2.10 example: value, text, and one onWrite with the list', async () => {
		const {writes, call} = setup();
		const result = await call({todos: example});
		expect(result).toEqual({
			isError: false,
			value: {todos: example, counts: {pending: 0, inProgress: 1, completed: 1}},
			content: [{type: 'text', text: 'Updated todo list: 0 pending, 1 in progress, 1 completed.'}],
		});
		expect(writes).toEqual([example]);
	});

	it('presents the §E2.10 call view and has no result view', () => {
		const tool = todoTool();
		expect(tool.presentCall?.({todos: example})).toEqual({card: 'generic', title: 'Update todo list', kind: 'other', rawInput: example});
		expect(tool.presentResult).toBeUndefined();
		expect(tool.presentCall?.({todos: [{content: 'x', status: 'doing'}]})).toBeUndefined();
	});

	it('accepts an empty list', async () => {
		const {writes, call} = setup();
		const result = await call({todos: []});
		expect(result.content).toEqual([{type: 'text', text: 'Updated todo list: 0 pending, 0 in progress, 0 completed.'}]);
		expect(writes).toEqual([[]]);
	});

	it('rejects blank and duplicate contents and a second in_progress item, without writing', async () => {
		const {writes, call} = setup();
		const result = await call({
			todos: [
				{content: 'a', status: 'in_progress'},
				{content: ' ', status: 'pending'},
				{content: ' a ', status: 'in_progress'},
			],
		});
		expect(result).toEqual({
			isError: true,
			error: {
				message:
					'invalid arguments: "todos[1].content" must be a non-blank string; "todos[2].content" repeats "todos[0].content"; at most one todo may be in_progress, got 2',
				info: {name: 'ToolArgsError', code: 'INVALID_ARGS'},
			},
			content: [
				{
					type: 'text',
					text: 'Error: invalid arguments: "todos[1].content" must be a non-blank string; "todos[2].content" repeats "todos[0].content"; at most one todo may be in_progress, got 2',
				},
			],
		});
		expect(writes).toEqual([]);
	});

	it('allows several in_progress items when the deployment allows parallel work', async () => {
		const {call} = setup({allowParallel: true});
		const result = await call({todos: [{content: 'a', status: 'in_progress'}, {content: 'b', status: 'in_progress'}]});
		expect(result.content).toEqual([{type: 'text', text: 'Updated todo list: 0 pending, 2 in progress, 0 completed.'}]);
	});

	it('rejects a status outside the enum and a missing list through the schema', async () => {
		const {call} = setup();
		expect((await call({})).content).toEqual([{type: 'text', text: 'Error: invalid arguments: missing required property "todos"'}]);
		expect((await call({todos: [{content: 'a', status: 'done'}]})).isError).toBe(true);
	});
});
