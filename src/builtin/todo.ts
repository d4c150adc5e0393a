/**
@module The `todo_write` tool (contract.md §E2.10): replaces the standing todo list.
The session turns `onWrite` into the log-only `todo/write` event, which lands between the call and
its result because the body calls it before returning.

Ownership: the contract says the tool requires an owning agent. In cardterm the session is the
agent and the list belongs to it through `onWrite`, so a call without `exec.agent` (a bare registry,
a test) is accepted the same way.
*/
import type {TodoItem} from '../session/events/events.js';
import {textContent} from '../tools/content.js';
import {defineTool, type DefinedTool} from '../tools/define-tool.js';
import {ToolArgsError} from '../tools/errors.js';

/** The tool's name: its card is the one a `todo/write` event lands in (the live session writes the list after it). */
export const TODO_TOOL_NAME = 'todo_write';

/** How `todo_write` is configured. */
export type TodoToolOptions = {
	/** Receives the validated list before the result is returned; the session emits `todo/write` from it. */
	readonly onWrite?: (todos: readonly TodoItem[]) => void;
	/** Allow more than one `in_progress` item. Default false. */
	readonly allowParallel?: boolean;
};

const todoStatuses = ['pending', 'in_progress', 'completed'] as const;

const todoParameters = {
	todos: {
		type: 'array',
		required: true,
		items: {
			type: 'object',
			additionalProperties: false,
			properties: {
				content: {type: 'string', required: true},
				status: {type: 'string', enum: todoStatuses, required: true},
			},
		},
	},
} as const;

const todoOutputSchema = {
	type: 'object',
	additionalProperties: false,
	properties: {
		todos: todoParameters.todos,
		counts: {
			type: 'object',
			additionalProperties: false,
			properties: {
				pending: {type: 'integer', required: true},
				inProgress: {type: 'integer', required: true},
				completed: {type: 'integer', required: true},
			},
			required: true,
		},
	},
} as const;

/** Rules the schema cannot state: non-blank, unique contents; the single in-progress item. */
function todoViolations(todos: readonly TodoItem[], allowParallel: boolean): string[] {
	const violations: string[] = [];
	const seen = new Map<string, number>();
	for (const [index, todo] of todos.entries()) {
		const key = todo.content.trim();
		if (key === '') {
			violations.push(`"todos[${index}].content" must be a non-blank string`);
			continue;
		}

		const first = seen.get(key);
		if (first === undefined) {
			seen.set(key, index);
		} else {
			violations.push(`"todos[${index}].content" repeats "todos[${first}].content"`);
		}
	}

	const inProgress = todos.filter((todo) => todo.status === 'in_progress').length;
	if (!allowParallel && inProgress > 1) {
		violations.push(`at most one todo may be in_progress, got ${inProgress}`);
	}

	return violations;
}

/** Build the `todo_write` tool. */
export function todoTool(options: TodoToolOptions = {}): DefinedTool<typeof todoOutputSchema> {
	const {onWrite, allowParallel = false} = options;
	return defineTool({
		name: TODO_TOOL_NAME,
		description: 'The task list of multi-step work: pass the whole updated list (unique items). Mark an item in_progress before starting it (one at a time), completed once done.',
		parameters: todoParameters,
		output: {
			schema: todoOutputSchema,
			render: (_args, {counts}) =>
				textContent(`Updated todo list: ${counts.pending} pending, ${counts.inProgress} in progress, ${counts.completed} completed.`),
		},
		async execute(args) {
			const violations = todoViolations(args.todos, allowParallel);
			if (violations.length > 0) {
				throw new ToolArgsError(violations);
			}

			const todos = args.todos.map((todo) => ({content: todo.content, status: todo.status}));
			const count = (status: TodoItem['status']) => todos.filter((todo) => todo.status === status).length;
			onWrite?.(todos.map((todo) => ({...todo})));
			return {todos, counts: {pending: count('pending'), inProgress: count('in_progress'), completed: count('completed')}};
		},
		presentCall: (args) => ({card: 'generic', title: 'Update todo list', kind: 'other', rawInput: args.todos}),
	});
}
