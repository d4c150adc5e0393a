import {describe, expect, it} from 'vitest';
import {colorEnabled, hyperlinksEnabled, printWidth} from '../../src/cli/terminal-env.js';

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
