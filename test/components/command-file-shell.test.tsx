/**
A command file's shell commands (issue 31): `` !`…` `` and `!{…}` in a command's body run when it is
expanded, in the real app over a real session with the fake model server: each as the session's
bash call (a card in the transcript, the session's approval rules), its output in the prompt the
model receives, the arguments quoted for the shell; a refused one sends nothing.
*/
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {BUILTIN_COMMANDS} from '../../src/live/commands/builtin-commands.js';
import {withUserCommands} from '../../src/live/commands/user-command.js';
import type {UserCommandFile} from '../../src/host/user-commands.js';
import {startInteractive} from './harness/interactive-screen.js';

const file: UserCommandFile = {
	name: '/status',
	description: 'say where the work stands',
	body: 'Files: !`ls`\nGreeting: !{printf "hi %s" $1}\nExplain $ARGUMENTS.',
	path: '/tmp/status.md',
	scope: 'project',
};

describe('shell commands in a command file', () => {
	it('run as bash calls before the prompt, their output in the message the model receives; an argument stays one shell word', async () => {
		const screen = await startInteractive('command-file-shell', {columns: 100, rows: 30, files: {'a.txt': 'x'}, commands: withUserCommands(BUILTIN_COMMANDS, [file]), agent: {script: [{text: 'Understood.'}]}});
		try {
			await screen.type('/status "$(touch pwned)"', 'Understood.');
			const text = screen.tty.text();
			expect(text).toContain('● bash ls');
			expect(screen.server!.requests).toHaveLength(1);
			expect(screen.server!.requests[0]!.body.messages.at(-1)).toEqual({role: 'user', content: 'Files: a.txt\nGreeting: hi $(touch pwned)\nExplain "$(touch pwned)".'});
			// The argument was printed, never run.
			expect(existsSync(join(screen.cwd, 'pwned'))).toBe(false);
		} finally {
			await screen.close();
		}
	});

	it('sends nothing when one is refused at its approval', async () => {
		const screen = await startInteractive('command-file-refused', {columns: 100, rows: 30, ask: [{tool: 'bash'}], commands: withUserCommands(BUILTIN_COMMANDS, [file]), agent: {script: [{text: 'never'}]}});
		try {
			await screen.type('/status', 'Allow bash');
			await screen.press('\u001B');
			await screen.tty.waitForText('its prompt was not sent');
			expect(screen.server!.requests).toHaveLength(0);
		} finally {
			await screen.close();
		}
	});

	it('runs none of them when no model would take the prompt', async () => {
		const screen = await startInteractive('command-file-no-model', {columns: 100, rows: 30, commands: withUserCommands(BUILTIN_COMMANDS, [{...file, body: 'made: !`touch made`'}])});
		try {
			await screen.type('/status', 'no model is connected to take its prompt');
			expect(existsSync(join(screen.cwd, 'made'))).toBe(false);
			expect(screen.tty.text()).not.toContain('● bash');
		} finally {
			await screen.close();
		}
	});
});
