import {describe, expect, it} from 'vitest';
import {attentionTerminal, colorDepth, colorEnabled, hyperlinksEnabled, motionEnabled, printWidth} from '../../../src/cli/environment/terminal-env.js';

describe('colorEnabled', () => {
	it('lets the flag win over the environment', () => {
		expect(colorEnabled(true, {NO_COLOR: '1'}, false)).toBe(true);
		expect(colorEnabled(false, {FORCE_COLOR: '1'}, true)).toBe(false);
	});

	it('honours NO_COLOR, then FORCE_COLOR, then the TTY', () => {
		expect(colorEnabled(undefined, {NO_COLOR: '1', FORCE_COLOR: '1'}, true)).toBe(false);
		expect(colorEnabled(undefined, {FORCE_COLOR: '1'}, false)).toBe(true);
		expect(colorEnabled(undefined, {FORCE_COLOR: '0'}, true)).toBe(false);
		expect(colorEnabled(undefined, {}, true)).toBe(true);
		expect(colorEnabled(undefined, {}, false)).toBe(false);
		expect(colorEnabled(undefined, {TERM: 'dumb'}, true)).toBe(false);
	});
});

describe('hyperlinksEnabled', () => {
	it('needs colour and a TTY', () => {
		expect(hyperlinksEnabled(false, {}, true)).toBe(false);
		expect(hyperlinksEnabled(true, {}, false)).toBe(false);
		expect(hyperlinksEnabled(true, {}, true)).toBe(true);
		expect(hyperlinksEnabled(true, {TERM: 'linux'}, true)).toBe(false);
		expect(hyperlinksEnabled(true, {CARDTERM_HYPERLINKS: '0'}, true)).toBe(false);
	});
});

describe('printWidth', () => {
	it('prefers the flag, then the TTY columns, then 80', () => {
		expect(printWidth(100, 60)).toBe(100);
		expect(printWidth(undefined, 60)).toBe(60);
		expect(printWidth(undefined, undefined)).toBe(80);
	});
});

describe('motionEnabled', () => {
	it('animates only with colour on and without CARDTERM_REDUCED_MOTION', () => {
		expect(motionEnabled(true, {})).toBe(true);
		expect(motionEnabled(true, {CARDTERM_REDUCED_MOTION: '0'})).toBe(true);
		expect(motionEnabled(true, {CARDTERM_REDUCED_MOTION: '1'})).toBe(false);
		expect(motionEnabled(true, {CARDTERM_REDUCED_MOTION: 'yes'})).toBe(false);
		expect(motionEnabled(false, {})).toBe(false);
	});
});

describe('colorDepth', () => {
	it('no colour is no depth; FORCE_COLOR 1/2/3 decides outright; then COLORTERM and TERM', () => {
		expect(colorDepth(false, {COLORTERM: 'truecolor'})).toBe('none');
		expect([colorDepth(true, {FORCE_COLOR: '1', COLORTERM: 'truecolor'}), colorDepth(true, {FORCE_COLOR: '2'}), colorDepth(true, {FORCE_COLOR: '3', TERM: 'xterm'})]).toEqual(['ansi16', 'ansi256', 'truecolor']);
		expect([colorDepth(true, {COLORTERM: 'truecolor', TERM: 'xterm'}), colorDepth(true, {COLORTERM: '24bit'}), colorDepth(true, {TERM: 'xterm-direct'})]).toEqual(['truecolor', 'truecolor', 'truecolor']);
		expect([colorDepth(true, {TERM: 'xterm-256color'}), colorDepth(true, {TERM: 'tmux-256color'}), colorDepth(true, {TERM: 'xterm'}), colorDepth(true, {TERM: 'linux'}), colorDepth(true, {})]).toEqual(['ansi256', 'ansi256', 'ansi16', 'ansi16', 'ansi16']);
	});
});

describe('attentionTerminal', () => {
	it('names OSC 9 for iTerm2, WezTerm, Ghostty and kitty, also inside tmux where TERM_PROGRAM says tmux', () => {
		for (const env of [{TERM_PROGRAM: 'iTerm.app'}, {TERM_PROGRAM: 'WezTerm'}, {TERM_PROGRAM: 'ghostty'}, {TERM: 'xterm-kitty'}, {TERM_PROGRAM: 'tmux', TMUX: '/tmp/tmux-1/default,1,0', KITTY_WINDOW_ID: '3'}, {TERM_PROGRAM: 'tmux', LC_TERMINAL: 'iTerm2', TMUX: 'x'}]) {
			expect(attentionTerminal(env).signal, JSON.stringify(env)).toBe('osc9');
		}

		expect(attentionTerminal({TERM_PROGRAM: 'tmux', TMUX: 'x', KITTY_WINDOW_ID: '3'}).tmux).toBe(true);
	});

	it('names OSC 777 for VTE terminals and foot, and the bell for anything else', () => {
		expect(attentionTerminal({VTE_VERSION: '7600', TERM: 'xterm-256color'}).signal).toBe('osc777');
		expect(attentionTerminal({TERM: 'foot'}).signal).toBe('osc777');
		expect(attentionTerminal({TERM: 'xterm-256color', TERM_PROGRAM: 'Apple_Terminal'})).toEqual({signal: 'bel', tmux: false, title: true});
		expect(attentionTerminal({}).signal).toBe('bel');
	});

	it('sets no title on the Linux console or a dumb terminal', () => {
		expect(attentionTerminal({TERM: 'linux'}).title).toBe(false);
		expect(attentionTerminal({TERM: 'dumb'}).title).toBe(false);
	});
});
