/**
A todo checklist follows the `todo_write` card that wrote it in the live session's scrollback (issue
16, first day item 20), as it does in the pager and in print: its `todo/write` event lands between
the call and its result, and the checklist used to be written at once, above the running card.
Through the real interactive app (screen harness), a call the person typed and one the model made.
*/
import {describe, expect, it} from 'vitest';
import {startInteractive} from './harness/interactive-screen.js';

const todos = JSON.stringify({todos: [{content: 'Turn DEBUG off', status: 'completed'}, {content: 'Fix the failing test', status: 'in_progress'}]});

/** Where `text` first shows in the screen's rows (scrollback included). */
function rowOf(screen: string, text: string): number {
	const row = screen.split('\n').findIndex(line => line.includes(text));
	expect(row, `a row with ${JSON.stringify(text)}`).toBeGreaterThanOrEqual(0);
	return row;
}

describe('a todo checklist in the live session', () => {
	it('is written below the todo_write card that produced it, not above', async () => {
		const screen = await startInteractive('todo-order', {columns: 80, rows: 24});
		try {
			await screen.type(`todo_write ${todos}`, '● 1 ok');
			await screen.tty.waitForText('Fix the failing test');
			const text = screen.tty.text();
			expect(rowOf(text, '● todo_write')).toBeLessThan(rowOf(text, 'todo · 1 of 2 done'));
			expect(rowOf(text, 'Updated todo list')).toBeLessThan(rowOf(text, '✔ Turn DEBUG off'));
		} finally {
			await screen.close();
		}
	});

	it('is written below the card when the model calls todo_write, before the model\'s answer', async () => {
		const screen = await startInteractive('todo-order-agent', {columns: 80, rows: 24, agent: {script: [
			{toolCalls: [{id: 'c1', name: 'todo_write', args: todos}]},
			{text: 'Planned.'},
		]}});
		try {
			await screen.type('plan it', 'Planned.');
			const text = screen.tty.text();
			expect(rowOf(text, '● todo_write')).toBeLessThan(rowOf(text, 'todo · 1 of 2 done'));
			expect(rowOf(text, '◐ Fix the failing test')).toBeLessThan(rowOf(text, 'Planned.'));
		} finally {
			await screen.close();
		}
	});
});
