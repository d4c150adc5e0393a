import {describe, expect, it} from 'vitest';
import {KeyStream, pastedText} from '../../../components/input/key-stream.js';
import {parseKeys} from '../../../components/input/keys.js';

describe('KeyStream: bracketed paste', () => {
	it('hands a paste over as one text press, keys around it as keys', () => {
		const stream = new KeyStream();
		expect(stream.feed('ab\u001B[200~!echo one\r!echo two\r\u001B[201~\r')).toEqual([
			{input: 'ab', key: {}},
			{input: '!echo one\n!echo two\n', key: {paste: true}},
			{input: '', key: {return: true}},
		]);
		expect(stream.pasting).toBe(false);
	});

	it('collects a paste over several chunks, as Ink delivers escape sequences apart', () => {
		const stream = new KeyStream();
		expect(stream.feed('\u001B[200~')).toEqual([]);
		expect(stream.pasting).toBe(true);
		expect(stream.feed('one\r\ntwo')).toEqual([]);
		expect(stream.feed('\u001B[31m')).toEqual([]);
		expect(stream.feed('\tred\u0007\r')).toEqual([]);
		expect(stream.feed('\u001B[201~')).toEqual([{input: 'one\ntwo\tred\n', key: {paste: true}}]);
		expect(stream.feed('q')).toEqual([{input: 'q', key: {}}]);
	});

	it('ends a paste whose end marker never came when asked, and drops an empty one', () => {
		const stream = new KeyStream();
		stream.feed('\u009B200~half');
		expect(stream.endPaste()).toEqual({input: 'half', key: {paste: true}});
		stream.feed('\u001B[200~\u001B[201~');
		expect(stream.pasting).toBe(false);
		expect(stream.endPaste()).toBeUndefined();
	});

	it('keeps text, line ends and tabs of pasted bytes, nothing else', () => {
		expect(pastedText('a\u001B[1;5Cb\u0003c\r\nd\u001B]0;title\u0007')).toBe('abc\nd0;title');
	});
});

describe('parseKeys: Enter with modifiers', () => {
	it('reads Shift+Enter as xterm modifyOtherKeys and the kitty protocol send it, and Alt+Enter', () => {
		expect(parseKeys('\u001B[27;2;13~')).toEqual([{input: '', key: {return: true, shift: true}}]);
		expect(parseKeys('\u001B[13;2u')).toEqual([{input: '', key: {return: true, shift: true}}]);
		expect(parseKeys('\u001B\r')).toEqual([{input: '', key: {return: true, meta: true}}]);
	});
});
