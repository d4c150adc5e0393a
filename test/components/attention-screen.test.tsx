/**
A call when it needs you (issue 31): the real interactive app over a real session, in a fake TTY.
What it writes: focus reporting (DECSET 1004) on while mounted and off after; the focus reports the
terminal sends never typed into the prompt; a notification when work ends or a question waits while
the terminal reported it lost focus (OSC 9 / OSC 777 / BEL, wrapped for tmux's passthrough), none
while it is focused or never said; the window title through the states, pushed and popped.
*/
import {describe, expect, it} from 'vitest';
import type {AttentionOptions} from '../../components/attention.js';
import type {AttentionTerminal} from '../../src/layout/terminal/attention-output.js';
import {startInteractive, type InteractiveScreen} from './harness/interactive-screen.js';

const FOCUS_IN = '\u001B[I';
const FOCUS_OUT = '\u001B[O';
const OSC9 = '\u001B]9;';

const terminal = (overrides: Partial<AttentionTerminal> = {}): AttentionTerminal => ({signal: 'osc9', tmux: false, title: true, ...overrides});
const auto = (overrides: Partial<AttentionTerminal> = {}): AttentionOptions => ({terminal: terminal(overrides), notifications: 'auto'});

/** The bytes written after `mark` (the count of chunks when it was taken). */
function since(screen: InteractiveScreen, mark: number): string {
	return screen.tty.chunks.slice(mark).join('');
}

async function withScreen(name: string, options: Parameters<typeof startInteractive>[1], run: (screen: InteractiveScreen) => Promise<void>): Promise<void> {
	const screen = await startInteractive(name, {columns: 100, rows: 30, ...options});
	try {
		await run(screen);
	} finally {
		await screen.close();
	}
}

describe('notifications and the window title in the live screen', () => {
	it('turns focus reporting on while mounted, never types a report, rings OSC 9 when work ends unfocused (not once focused again), and turns it off on unmount', async () => {
		await withScreen('attention-done', {attention: auto()}, async screen => {
			expect(screen.tty.bytes).toContain('\u001B[?1004h');
			await screen.press(`ab${FOCUS_IN}c${FOCUS_OUT}`);
			await screen.tty.waitForText('> abc');
			expect(screen.tty.text()).not.toMatch(/\[[IO]/);
			await screen.press('\u0015');
			let mark = screen.tty.chunks.length;
			await screen.type('!echo one', '● bash echo one');
			expect(since(screen, mark)).toContain(`${OSC9}cardterm: done · cardterm-screen-attention-done\u0007`);
			await screen.press(FOCUS_IN);
			mark = screen.tty.chunks.length;
			await screen.type('!echo two', '● bash echo two');
			expect(since(screen, mark)).not.toContain(OSC9);
			mark = screen.tty.chunks.length;
			await screen.unmount();
			expect(since(screen, mark)).toContain('\u001B[?1004l');
		});
	});

	it('always rings without a focus report and writes no focus mode; off rings nothing', async () => {
		await withScreen('attention-always', {attention: {terminal: terminal(), notifications: 'always'}}, async screen => {
			expect(screen.tty.bytes).not.toContain('\u001B[?1004h');
			await screen.type('!echo one', '● bash echo one');
			expect(screen.tty.bytes).toContain(`${OSC9}cardterm: done`);
		});
		await withScreen('attention-off', {attention: {terminal: terminal(), notifications: 'off'}}, async screen => {
			await screen.press(FOCUS_OUT);
			await screen.type('!echo one', '● bash echo one');
			expect(screen.tty.bytes).not.toContain('\u001B[?1004h');
			expect(screen.tty.bytes).not.toContain(OSC9);
		});
	});

	it('rings when a question waits, wrapped in tmux\'s passthrough inside tmux (OSC 777)', async () => {
		await withScreen('attention-tmux', {attention: auto({signal: 'osc777', tmux: true}), ask: [{tool: 'bash'}]}, async screen => {
			await screen.press(FOCUS_OUT);
			const mark = screen.tty.chunks.length;
			await screen.type('!echo one', 'Allow bash');
			expect(since(screen, mark)).toContain('\u001BPtmux;\u001B\u001B]777;notify;cardterm;waiting for you: may bash run? · cardterm-screen-attention-tmux\u0007\u001B\\');
			expect(since(screen, mark)).toContain('\u001B]0;cardterm · cardterm-screen-attention-tmux · waiting for you\u0007');
		});
	});

	it('shows the state in the title (working, waiting for you, done), pushed at mount and popped on unmount', async () => {
		await withScreen('attention-title', {attention: auto(), ask: [{tool: 'bash'}]}, async screen => {
			const titles = (): string[] => [...screen.tty.bytes.matchAll(/\u001B\]0;([^\u0007]*)\u0007/g)].map(match => match[1]!);
			expect(screen.tty.bytes.indexOf('\u001B[22;0t')).toBeLessThan(screen.tty.bytes.indexOf('\u001B]0;cardterm'));
			await screen.type('!echo one', 'Allow bash');
			await screen.press('\r');
			await screen.tty.waitForText('● bash echo one');
			const name = 'cardterm-screen-attention-title';
			// auto, and this terminal never said whether it is focused: nothing rang.
			expect(screen.tty.bytes).not.toContain(OSC9);
			expect(titles()).toEqual([`cardterm · ${name}`, `cardterm · ${name} · working`, `cardterm · ${name} · waiting for you`, `cardterm · ${name} · working`, `cardterm · ${name} · done`]);
			const mark = screen.tty.chunks.length;
			await screen.unmount();
			expect(since(screen, mark)).toContain('\u001B]0;\u0007\u001B[23;0t');
		});
	});

	it('writes a hostile session title sanitized: no escape byte of it reaches the title or a notification', async () => {
		await withScreen('attention-hostile', {attention: {terminal: terminal(), notifications: 'always'}}, async screen => {
			const hostile = 'evil\u0007\u001B]0;pwned\u001B\\\u009C;777;notify\u001B[31m';
			screen.session.log.emit({type: 'session/title', data: {title: hostile}});
			await screen.type('!echo one', '● bash echo one');
			const written = screen.tty.bytes;
			const title = [...written.matchAll(/\u001B\]0;([^\u0007]*)\u0007/g)].map(match => match[1]!).at(-1)!;
			expect(title).toBe(String.raw`cardterm · evil\x07\x1b]0,pwned\x1b\\x9c,777,notify\x1b[31m · done`);
			expect(written).toContain(String.raw`${OSC9}cardterm: done · evil\x07\x1b]0,pwned`);
			expect(written).not.toContain('\u001B]0;pwned');
		});
	});
});
