/**
Prompt commands as a demanding user tries them (issue 13, items 8 and 9): /write and /edit check the
path before asking for text; a write awaiting approval says what it will do; help for tools, plain
words, /clear and Ctrl+L, Tab after `!`, and the bare `/` list.
*/
import {describe, expect, it, vi} from 'vitest';

vi.hoisted(() => {
	// Ink renders nothing live when it believes it runs in CI (is-in-ci reads the environment on import).
	for (const key of Object.keys(process.env)) {
		if (key === 'CI' || key === 'CONTINUOUS_INTEGRATION' || key.startsWith('CI_')) {
			delete process.env[key];
		}
	}
});

const {startInteractive} = await import('./harness/interactive-screen.js');

describe('/write and /edit', () => {
	it('refuse a path the tool would refuse before asking for any text', async () => {
		const screen = await startInteractive('write-refused', {columns: 100, rows: 24, files: {'here.txt': 'x\n'}});
		try {
			await screen.type('/write ../outside.txt', 'outside');
			expect(screen.tty.text()).toMatch(/\/write: .*outside the workspace/);
			expect(screen.tty.text()).not.toContain('Type the content');
			expect(screen.controller.getSnapshot().multiline).toBeUndefined();
			await screen.type('/edit missing.txt', 'not found');
			expect(screen.tty.text()).toMatch(/\/edit: cannot edit ".*missing.txt": not found/);
			expect(screen.tty.text()).not.toContain('Type the text to replace');
			// A plain line after the refusal is a command again, not file content.
			await screen.type('!echo still a command', '● bash echo still a command');
			await screen.type('/write here.txt', 'Type the content of here.txt');
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('word a write that awaits approval as what it will do', async () => {
		const screen = await startInteractive('write-pending', {columns: 80, rows: 24, ask: [{tool: 'write'}], files: {'old.txt': 'one\n'}});
		try {
			await screen.type('/write notes.txt', 'Type the content');
			await screen.type('hello');
			await screen.type('.', 'Allow write');
			expect(screen.tty.text()).toContain('Will create notes.txt');
			expect(screen.tty.text()).not.toContain('Created notes.txt');
			screen.stdin.send('a');
			await screen.tty.waitForText('● write');
			await screen.tty.waitForText('Created notes.txt');
		} finally {
			await screen.close();
		}
	}, 60_000);
});
