/**
The interactive session's first frame (src/cli/interactive/boot-frame.ts), drawn before the live
screen loads: the prompt row and a status row, the cursor back on the first row so Ink's frame lands
on it; erased once; raw mode on while it is up (typed keys wait, unechoed) and off on release.
*/
import {EventEmitter} from 'node:events';
import {describe, expect, it} from 'vitest';
import {BOOT_STATUS, drawBootFrame} from '../../../src/cli/interactive/boot-frame.js';
import type {TerminalOutput} from '../../../src/layout/terminal/terminal-sink.js';

function fakeTerminal(columns: number | undefined) {
	const written: string[] = [];
	const modes: boolean[] = [];
	return {
		written,
		modes,
		io: {
			columns,
			async write(output: TerminalOutput) {
				written.push(output);
			},
		},
		stdin: {
			isTTY: true,
			setRawMode(mode: boolean) {
				modes.push(mode);
			},
		},
	};
}

/** A stdin read the `readable` way: `type` queues bytes and tells the listeners; `unshift` records what is handed back. */
function keyInput(base: {isTTY: boolean; setRawMode(mode: boolean): void}) {
	const queue: Buffer[] = [];
	const input = Object.assign(new EventEmitter(), base, {
		returned: [] as Buffer[],
		read: (): Buffer | null => queue.shift() ?? null,
		unshift(chunk: Buffer) {
			input.returned.push(chunk);
		},
		type(keys: string) {
			queue.push(Buffer.from(keys));
			input.emit('readable');
		},
	});
	return input;
}

/** What the rows say, escapes removed. */
const text = (output: string): string => output.replace(/\u001B\[[0-?]*[ -/]*[@-~]/g, '');

describe('the boot frame', () => {
	it('draws the prompt row and the status row, then returns the cursor to the first row', async () => {
		const terminal = fakeTerminal(120);
		await drawBootFrame(terminal.io, 40, terminal.stdin);
		expect(terminal.written).toHaveLength(1);
		const frame = terminal.written[0]!;
		expect(text(frame)).toBe(`>  \r\n${BOOT_STATUS}\r`);
		// Bold marker, inverse cursor cell, dim status; the terminal's cursor hidden, then one row up.
		expect(frame).toContain('\u001B[1m> \u001B[0m\u001B[7m \u001B[0m');
		expect(frame.startsWith('\u001B[?25l')).toBe(true);
		expect(frame.endsWith('\u001B[1A\r')).toBe(true);
		expect(terminal.modes).toEqual([true]);
	});

	it('erases itself once, from its first row to the end of the screen, and shows the cursor again', async () => {
		const terminal = fakeTerminal(120);
		const boot = await drawBootFrame(terminal.io, 40, terminal.stdin);
		await boot.clear();
		await boot.clear();
		await boot.release();
		expect(terminal.written.slice(1)).toEqual(['\r\u001B[J\u001B[?25h']);
		// Released: the terminal's line mode is back (a usage error after the frame, or the session's end).
		expect(terminal.modes).toEqual([true, false]);
	});

	it('release erases a frame still up (the session never started)', async () => {
		const terminal = fakeTerminal(120);
		const boot = await drawBootFrame(terminal.io, 40, terminal.stdin);
		await boot.release();
		expect(terminal.written.slice(1)).toEqual(['\r\u001B[J\u001B[?25h']);
	});

	it('draws nothing on a screen too small for its rows not to wrap', async () => {
		for (const [columns, rows] of [[8, 40], [120, 2], [undefined, 40]] as const) {
			const terminal = fakeTerminal(columns);
			// eslint-disable-next-line no-await-in-loop -- one terminal at a time
			const boot = await drawBootFrame(terminal.io, rows, terminal.stdin);
			// eslint-disable-next-line no-await-in-loop
			await boot.release();
			expect(terminal.written).toEqual([]);
			expect(terminal.modes).toEqual([]);
		}
	});

	it('echoes printable keys typed while it is up, Backspace included, and hands every byte back to stdin in order when it goes', async () => {
		const terminal = fakeTerminal(120);
		const input = keyInput(terminal.stdin);
		const boot = await drawBootFrame(terminal.io, 40, input);
		input.type('!ls');
		input.type('x\u007F -la');
		expect(terminal.written.slice(1).map(text)).toEqual(['\r> !ls \r', '\r> !ls -la \r']);
		// An arrow key stops the echo (the live prompt moves its cursor); what follows is held unechoed.
		input.type('\u001B[Dy');
		expect(terminal.written).toHaveLength(3);
		await boot.clear();
		expect(input.listenerCount('readable')).toBe(0);
		expect(Buffer.concat(input.returned).toString()).toBe('!lsx\u007F -la\u001B[Dy');
		expect(terminal.written.at(-1)).toBe('\r\u001B[J\u001B[?25h');
		// Gone: keys are the live prompt's now.
		input.type('z');
		expect(terminal.written).toHaveLength(4);
	});

	it('echoes no further than the row has room for, and nothing that is not printable ASCII', async () => {
		const terminal = fakeTerminal(14);
		const input = keyInput(terminal.stdin);
		await drawBootFrame(terminal.io, 40, input);
		input.type('abcdefghijklmnop');
		expect(terminal.written.slice(1).map(text)).toEqual(['\r> abcdefghijk \r']);
		const wide = fakeTerminal(120);
		const wideInput = keyInput(wide.stdin);
		await drawBootFrame(wide.io, 40, wideInput);
		wideInput.type('é');
		expect(wide.written).toHaveLength(1);
	});
});
