/**
Prompt commands as a demanding user tries them (issue 13, items 8 and 9): /write and /edit check the
path before asking for text; a write awaiting approval says what it will do; help for tools, plain
words, /clear and Ctrl+L, Tab after `!`, and the bare `/` list.
*/
import {describe, expect, it} from 'vitest';


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
			// Enter confirms the marked answer (Yes, once).
			screen.stdin.send('\r');
			await screen.tty.waitForText('● write');
			await screen.tty.waitForText('Created notes.txt');
		} finally {
			await screen.close();
		}
	}, 60_000);
});

const {keys} = await import('./harness/fake-terminal.js');

describe('help, plain words, clearing, completion', () => {
	it('/help bash and /tools show descriptions and parameters from the schemas', async () => {
		const screen = await startInteractive('help-tool', {columns: 120, rows: 40});
		try {
			await screen.type('/help bash', 'Parameters');
			const text = screen.tty.text();
			expect(text).toContain('bash  call it as: bash {json}');
			expect(text).toMatch(/^ {2}command +string +required/m);
			await screen.type('/tools', 'Tools (/help TOOL shows one in full)');
			expect(screen.tty.text()).toMatch(/^ {2}read {2}\S/m);
			expect(screen.tty.text()).toMatch(/^ {6}file_path +string +required/m);
			await screen.type('/help nosuch', '/help: no tool named nosuch');
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('a command line without its ! gets the command; a request is said not sent, never offered to the shell', async () => {
		const screen = await startInteractive('plain-words', {columns: 140, rows: 24});
		try {
			await screen.type('ls', 'unknown command: ls — did you mean !ls?');
			await screen.type('make the failing test pass', 'not sent: no model is connected to answer "make the failing test pass"');
			expect(screen.tty.text()).not.toContain('did you mean !make');
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('/clear and Ctrl+L clear the screen, keeping the rows in the scrollback, never erasing it', async () => {
		const screen = await startInteractive('clear', {columns: 80, rows: 24});
		try {
			await screen.type('!echo kept', '● bash echo kept');
			for (const clear of ['/clear\r', '\u000C']) {
				// one way after the other
				await screen.press(clear);
				const buffer = screen.tty.terminal.buffer.active;
				const viewport: string[] = [];
				for (let y = buffer.viewportY; y < buffer.viewportY + screen.tty.terminal.rows; y++) {
					viewport.push(buffer.getLine(y)?.translateToString(true) ?? '');
				}

				// The prompt and the status line are at the top of an otherwise empty screen.
				expect(viewport[0]).toMatch(/^> /);
				expect(viewport.slice(2).every(row => row === '')).toBe(true);
				expect(screen.tty.text()).toContain('● bash echo kept');
				// one way after the other
				await screen.type('!echo after', '● bash echo after');
			}

			expect(screen.tty.bytes).not.toMatch(/\u001B\[[23]J/);
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('a bare / at 40 columns prints the command table laid out to fit: no row wraps, descriptions under their commands', async () => {
		const screen = await startInteractive('help-narrow', {columns: 40, rows: 40});
		try {
			await screen.type('/', 'Commands');
			await screen.tty.waitForText('/read PATH');
			const rows = screen.tty.text().split('\n');
			const at = rows.findIndex(row => row.trim() === '/read PATH [OFFSET [LIMIT]]');
			expect(at).toBeGreaterThan(0);
			expect(rows[at + 1]!.startsWith('      ')).toBe(true);
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('/pager opens the pager as Ctrl+O does, and q comes back to the prompt', async () => {
		const screen = await startInteractive('pager-command', {columns: 80, rows: 24});
		try {
			await screen.type('!echo paged', '● bash');
			await screen.type('/pager', '? help · q quit');
			expect(screen.tty.terminal.buffer.active.type).toBe('alternate');
			await screen.press('q');
			await screen.tty.waitForText('type !command');
			expect(screen.tty.terminal.buffer.active.type).toBe('normal');
		} finally {
			await screen.close();
		}
	}, 60_000);

	it('Tab after ! completes a program from PATH; Tab on a bare / lists the commands that fit', async () => {
		const screen = await startInteractive('complete-bang', {columns: 40, rows: 16});
		try {
			await screen.press('!ech\t');
			await screen.tty.waitForText('> !echo');
			await screen.press('\u0015/\t');
			const status = screen.tty.frame(false).split('\n').find(row => row.includes('more'));
			expect(status).toBeDefined();
			expect(screen.tty.text()).toMatch(/\/read {2}\/grep .*… \d+ more/);
			await screen.press(keys.backspace);
		} finally {
			await screen.close();
		}
	}, 60_000);
});

describe('a pasted block while /write collects text', () => {
	it('is taken line by line; lines after the closing "." are ignored and said to be, never run', async () => {
		const screen = await startInteractive('write-paste', {columns: 80, rows: 24});
		try {
			await screen.type('/write pasted.txt', 'Type the content');
			await screen.press('\u001B[200~alpha\nbeta\n.\n!echo never\u001B[201~');
			await screen.press('\r');
			await screen.tty.waitForText('● write');
			await screen.tty.waitForText('1 line after the closing "." ignored (not run)');
			expect(screen.tty.text()).not.toContain('● bash');
			const {readFile} = await import('node:fs/promises');
			expect(await readFile(`${screen.cwd}/pasted.txt`, 'utf8')).toBe('alpha\nbeta\n');
		} finally {
			await screen.close();
		}
	}, 60_000);
});
