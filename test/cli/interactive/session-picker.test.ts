import {describe, expect, it} from 'vitest';
import {pickerKeys} from '../../../src/cli/interactive/session-picker.js';

describe('pickerKeys', () => {
	it('moves with arrows and j/k, within the list', () => {
		expect(pickerKeys({index: 0}, '\u001B[B\u001B[Bj', 3)).toEqual({index: 2});
		expect(pickerKeys({index: 2}, 'k\u001BOA\u001B[A\u001B[A', 3)).toEqual({index: 0});
	});

	it('picks on Enter and quits on Ctrl+C, Ctrl+D and Esc', () => {
		expect(pickerKeys({index: 1}, '\r', 3)).toEqual({index: 1, answer: 'pick'});
		expect(pickerKeys({index: 1}, '\u0003', 3)).toEqual({index: 1, answer: 'quit'});
		expect(pickerKeys({index: 1}, '\u0004', 3)).toEqual({index: 1, answer: 'quit'});
		expect(pickerKeys({index: 1}, '\u001B', 3)).toEqual({index: 1, answer: 'quit'});
	});

	it('takes an Esc read together with what follows it, and skips sequences it does not use', () => {
		// An Esc, then a terminal's reply to a query (device attributes) in the same read.
		expect(pickerKeys({index: 0}, '\u001B\u001B[?1;2c', 3)).toEqual({index: 0, answer: 'quit'});
		// A key the picker does not use (F5, Home) is not an Esc.
		expect(pickerKeys({index: 0}, '\u001B[15~\u001B[H', 3)).toEqual({index: 0});
	});
});
