/**
The `@` picker in the real app on a fake TTY (issue 31): typing `@` opens a fuzzy picker over the
workspace's files and folders (ignored ones left out), typing filters it, ↑/↓ move the mark, Tab
inserts the marked path as a token (a folder stays open to look inside), Enter inserts and a second
Enter sends, Esc closes it without cancelling anything; the message the model gets carries the file.
*/
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {keys} from './harness/fake-terminal.js';

const {startInteractive} = await import('./harness/interactive-screen.js');

type Screen = Awaited<ReturnType<typeof startInteractive>>;

/** The rows on screen now (not the scrollback): the live frame. */
function viewport(screen: Screen): string {
	const buffer = screen.tty.terminal.buffer.active;
	const rows: string[] = [];
	for (let y = buffer.viewportY; y < buffer.viewportY + screen.tty.terminal.rows; y++) {
		rows.push(buffer.getLine(y)?.translateToString(true) ?? '');
	}

	return rows.join('\n');
}

/** Send `bytes`, then wait until the live frame shows `text`. */
async function until(screen: Screen, bytes: string, text: string | RegExp): Promise<void> {
	screen.stdin.send(bytes);
	const started = Date.now();
	while (!(typeof text === 'string' ? viewport(screen).includes(text) : text.test(viewport(screen)))) {
		if (Date.now() - started > 10_000) {
			throw new Error(`the frame never showed ${String(text)}; it shows:\n${viewport(screen)}`);
		}

		// polling for a condition
		await new Promise(resolve => {
			setTimeout(resolve, 20);
		});
	}

	await screen.tty.settle();
}

/** The prompt's row. */
const promptRow = (screen: Screen): string => viewport(screen).split('\n').find(row => row.startsWith('> ')) ?? '';

describe('the @ picker', () => {
	it('opens on @, filters as you type, moves with ↑/↓, Tab inserts a folder to look inside, Enter a file; the model gets it', async () => {
		const screen = await startInteractive('path-picker', {columns: 90, rows: 24, files: {'.gitignore': 'build/\n', 'readme.md': 'hello\n'}, agent: {script: [{text: ['Seen.']}]}});
		try {
			await mkdir(join(screen.cwd, 'src', 'render'), {recursive: true});
			await mkdir(join(screen.cwd, 'build'), {recursive: true});
			await writeFile(join(screen.cwd, 'src', 'render', 'layout.ts'), 'export const LAYOUT = 1;\n');
			await writeFile(join(screen.cwd, 'src', 'app.ts'), 'export const APP = 1;\n');
			await writeFile(join(screen.cwd, 'build', 'layout.js'), 'ignored\n');

			// The empty query: the shallowest paths first (the hidden .gitignore and the ignored build/ are not offered).
			await until(screen, 'look at @', '@ 5 files and folders');
			expect(viewport(screen)).toMatch(/› src\/\n {2}readme\.md\n/u);
			expect(viewport(screen)).not.toContain('build');
			await until(screen, 'lay', '› src/render/layout.ts');
			expect(viewport(screen)).not.toContain('readme.md');
			expect(viewport(screen)).not.toContain('build/layout.js');

			// Backspace to `@s`: src/ and its files; ↓ marks the next, ↑ goes back, Tab on a folder keeps the picker open inside it.
			await until(screen, `${keys.backspace}${keys.backspace}${keys.backspace}sr`, '› src/');
			await until(screen, keys.down, /› src\/\S/u);
			await until(screen, keys.up, '› src/');
			await until(screen, keys.tab, '> look at @src/');
			expect(viewport(screen)).toContain('› src/');
			await until(screen, 'app', '› src/app.ts');
			await until(screen, keys.enter, '> look at @src/app.ts');
			expect(viewport(screen)).not.toContain('Tab/Enter insert');

			// Esc closes the picker on that word and cancels nothing; typing a new @ opens it again.
			await until(screen, '@rea', '› readme.md');
			await until(screen, keys.escape, /^(?![\s\S]*Tab\/Enter insert)/u);
			expect(promptRow(screen)).toContain('look at @src/app.ts @rea');
			await until(screen, `${keys.backspace.repeat(4)}`, '> look at @src/app.ts');

			await until(screen, keys.enter, 'Seen.');
			const sent = String(screen.server!.requests[0]!.body.messages.findLast(message => message.role === 'user')!.content);
			expect(sent).toContain('export const APP = 1;');
			expect(screen.tty.text()).toMatch(/⎿ @src\/app\.ts 1 line · \d+ B · ~\d+ tokens/u);
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('is not opened by an e-mail address or in a !command', async () => {
		const screen = await startInteractive('path-picker-none', {columns: 80, rows: 20, files: {'a.txt': 'a\n'}});
		try {
			await until(screen, 'mail me@exa', 'mail me@exa');
			expect(viewport(screen)).not.toContain('files and folders');
			await until(screen, `${'\u0015'}!git log @`, '!git log @');
			expect(viewport(screen)).not.toContain('files and folders');
		} finally {
			await screen.close();
		}
	}, 30_000);
});
