import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {focusReport, parseKeys} from '../../../components/input/keys.js';

describe('parseKeys: text and C0 controls', () => {
	it('turns a typed command followed by Enter into text and a return key', () => {
		expect(parseKeys('!echo hi\r')).toEqual([{input: '!echo hi', key: {}}, {input: '', key: {return: true}}]);
	});

	it('splits a pasted block into one line per Enter, treating CRLF as one Enter', () => {
		expect(parseKeys('one\r\ntwo\n.\r')).toEqual([
			{input: 'one', key: {}},
			{input: '', key: {return: true}},
			{input: 'two', key: {}},
			{input: '', key: {return: true}},
			{input: '.', key: {}},
			{input: '', key: {return: true}},
		]);
	});

	it('reports DEL and BS as backspace, TAB as tab, and other C0 controls as Ctrl+letter', () => {
		expect(parseKeys('ab\u007F\b\t\u0015x\u0000')).toEqual([
			{input: 'ab', key: {}},
			{input: '', key: {backspace: true}},
			{input: '', key: {backspace: true}},
			{input: '', key: {tab: true}},
			{input: 'u', key: {ctrl: true}},
			{input: 'x', key: {}},
		]);
	});
});

describe('parseKeys: escape sequences', () => {
	it('drops SGR and other sequences that are no key, keeping the text around them', () => {
		expect(parseKeys('\u001B[0m')).toEqual([]);
		expect(parseKeys('\u001B[31m')).toEqual([]);
		expect(parseKeys('x\u001B[31mred')).toEqual([{input: 'x', key: {}}, {input: 'red', key: {}}]);
		expect(parseKeys('\u001B[200~paste\u001B[201~')).toEqual([{input: 'paste', key: {}}]);
		expect(parseKeys('a\u009B31mb\u001B[<0;3;4M\u001B[?1;2c')).toEqual([{input: 'a', key: {}}, {input: 'b', key: {}}]);
	});

	it('reads arrows, home, end, page keys and Delete, with xterm modifiers and in application mode', () => {
		expect(parseKeys('\u001B[A\u001B[B\u001B[C\u001B[D')).toEqual([{input: '', key: {upArrow: true}}, {input: '', key: {downArrow: true}}, {input: '', key: {rightArrow: true}}, {input: '', key: {leftArrow: true}}]);
		expect(parseKeys('\u001BOA\u001BOH\u001B[F\u001B[5~\u001B[6~\u001B[3~\u001B[1~')).toEqual([
			{input: '', key: {upArrow: true}}, {input: '', key: {home: true}}, {input: '', key: {end: true}},
			{input: '', key: {pageUp: true}}, {input: '', key: {pageDown: true}}, {input: '', key: {delete: true}}, {input: '', key: {home: true}},
		]);
		expect(parseKeys('\u001B[1;5C\u001B[1;2A\u001B[3;3~\u001B[Z')).toEqual([
			{input: '', key: {rightArrow: true, ctrl: true}}, {input: '', key: {upArrow: true, shift: true}},
			{input: '', key: {delete: true, meta: true}}, {input: '', key: {tab: true, shift: true}},
		]);
	});

	it('reads Escape, Alt+key and Alt+arrow', () => {
		expect(parseKeys('\u001B')).toEqual([{input: '', key: {escape: true}}]);
		expect(parseKeys('\u001Bb\u001B\u007F\u001B\u001B[A')).toEqual([{input: 'b', key: {meta: true}}, {input: '', key: {backspace: true, meta: true}}, {input: '', key: {upArrow: true, meta: true}}]);
	});

	it('drops a sequence cut short or broken, and goes on after it', () => {
		expect(parseKeys('a\u001B[12')).toEqual([{input: 'a', key: {}}]);
		expect(parseKeys('\u001B[1\u0007x')).toEqual([{input: 'g', key: {ctrl: true}}, {input: 'x', key: {}}]);
		expect(parseKeys('\u001B[[Ax')).toEqual([{input: 'x', key: {}}]);
	});
});

describe('parseKeys on any input', () => {
	const input = fc.oneof(
		fc.string({unit: 'binary', maxLength: 40}),
		fc.uint8Array({maxLength: 40}).map(bytes => Buffer.from(bytes).toString('latin1')),
		fc.array(fc.constantFrom('\u001B', '[', 'O', '1', ';', '5', '~', 'A', 'm', '\u009B', '\r', '\n', '\u007F', 'é', '😀', '\u0000', '\u0085'), {maxLength: 30}).map(parts => parts.join('')),
	);

	it('never throws, types no control character, and types only characters of the input, in order', () => {
		fc.assert(fc.property(input, chunk => {
			const presses = parseKeys(chunk);
			let from = 0;
			for (const {input: typed, key} of presses) {
				expect(/[\u0000-\u001F\u007F-\u009F]/.test(typed)).toBe(false);
				if (Object.keys(key).length === 0) {
					// Text: a run of the chunk's characters, after the previous one.
					const at = chunk.indexOf(typed, from);
					expect(at).toBeGreaterThanOrEqual(from);
					from = at + typed.length;
				}
			}
		}), {numRuns: 3000, seed: 11});
	});

	it('passes text without controls through as one press', () => {
		fc.assert(fc.property(fc.string({unit: 'grapheme', minLength: 1, maxLength: 30}).filter(text => !/[\u0000-\u001F\u007F-\u009F]/.test(text)), text => {
			expect(parseKeys(text)).toEqual([{input: text, key: {}}]);
		}), {numRuns: 500, seed: 12});
	});
});

describe('focus reports (DECSET 1004)', () => {
	it('are read as focus, never as keys or text', () => {
		expect(parseKeys('\u001B[I')).toEqual([]);
		expect(parseKeys('a\u001B[Ob\u009BIc')).toEqual([{input: 'a', key: {}}, {input: 'b', key: {}}, {input: 'c', key: {}}]);
		expect(focusReport('\u001B[I')).toBe('in');
		expect(focusReport('\u001B[O')).toBe('out');
		expect(focusReport('x\u001B[I\u009BO')).toBe('out');
		expect(focusReport('\u001BOA')).toBeUndefined();
		expect(focusReport('IO')).toBeUndefined();
	});
});
