import {describe, expect, it} from 'vitest';
import {splitKeys} from '../../src/cli/interactive/line-editor.js';

describe('splitKeys', () => {
	it('turns a typed command followed by Enter into text and a return key', () => {
		expect(splitKeys('!echo hi\r')).toEqual([{input: '!echo hi', key: {}}, {input: '', key: {return: true}}]);
	});

	it('splits a pasted block into one line per Enter, treating CRLF as one Enter', () => {
		expect(splitKeys('one\r\ntwo\n.\r')).toEqual([
			{input: 'one', key: {}},
			{input: '', key: {return: true}},
			{input: 'two', key: {}},
			{input: '', key: {return: true}},
			{input: '.', key: {}},
			{input: '', key: {return: true}},
		]);
	});

	it('reports DEL and BS as backspace, TAB as tab, and other C0 controls as Ctrl+letter', () => {
		expect(splitKeys('ab\u007F\b\t\u0015x\u0000')).toEqual([
			{input: 'ab', key: {}},
			{input: '', key: {backspace: true}},
			{input: '', key: {backspace: true}},
			{input: '', key: {tab: true}},
			{input: 'u', key: {ctrl: true}},
			{input: 'x', key: {}},
		]);
	});
});
