import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {emulateTerminalOutput, outputHidesText, parseTerminalOutput, rawOutputLines} from '../../../src/layout/terminal/terminal-output.js';

describe('parseTerminalOutput', () => {
	it('splits lines without a phantom line after the final newline', () => {
		expect(parseTerminalOutput('a\nb\n')).toEqual([[{text: 'a'}], [{text: 'b'}]]);
		expect(parseTerminalOutput('')).toEqual([]);
		expect(parseTerminalOutput('a\n\nb')).toEqual([[{text: 'a'}], [], [{text: 'b'}]]);
	});

	it('turns SGR colours and attributes into span styles', () => {
		expect(parseTerminalOutput('ok \x1b[1;31mFAIL\x1b[0m done')).toEqual([[
			{text: 'ok '},
			{text: 'FAIL', style: {fg: 'red', bold: true}},
			{text: ' done'},
		]]);
	});

	it('keeps bright, 256-colour, truecolour and colon forms and backgrounds, indexes 0–15 as the 16', () => {
		expect(parseTerminalOutput('\x1b[92ma\x1b[38;5;4mb\x1b[38;5;200mc\x1b[38;2;1;2;3;41md\x1b[4:3me\x1b[4:0;24mf\x1b[0mg')).toEqual([[
			{text: 'a', style: {fg: 'brightGreen'}},
			{text: 'b', style: {fg: 'blue'}},
			{text: 'c', style: {fg: 200}},
			{text: 'd', style: {fg: '#010203', bg: 'red'}},
			{text: 'e', style: {fg: '#010203', bg: 'red', underline: true}},
			{text: 'f', style: {fg: '#010203', bg: 'red'}},
			{text: 'g'},
		]]);
	});

	it('resolves carriage-return progress lines to their final state', () => {
		expect(parseTerminalOutput('10%\r50%\r100%\ndone')).toEqual([[{text: '100%'}], [{text: 'done'}]]);
	});

	it('keeps the tail of a longer line that a shorter rewrite did not cover', () => {
		expect(parseTerminalOutput('downloading\rok')).toEqual([[{text: 'okwnloading'}]]);
		expect(parseTerminalOutput('downloading\rok\x1b[K')).toEqual([[{text: 'ok'}]]);
	});

	it('applies backspaces by overwriting', () => {
		expect(parseTerminalOutput('abc\b\bX')).toEqual([[{text: 'aXc'}]]);
		expect(parseTerminalOutput('\b\bx')).toEqual([[{text: 'x'}]]);
	});

	it('treats CRLF as one newline', () => {
		expect(parseTerminalOutput('a\r\nb\r\n')).toEqual([[{text: 'a'}], [{text: 'b'}]]);
	});

	it('drops cursor moves, screen clears, OSC titles, OSC 52 and DCS', () => {
		const hostile = '\x1b[2J\x1b[Hsafe\x1b]0;pwned\x07\x1b]52;c;aGVsbG8=\x1b\\ \x1bP1$qm\x1b\\text\x1b[?1049h\x1b7\x1b(B';
		expect(parseTerminalOutput(hostile)).toEqual([[{text: 'safe text'}]]);
	});

	it('drops 8-bit CSI and OSC sequences and other C1 controls', () => {
		expect(parseTerminalOutput('a\x9b31mb\x9d0;t\x9cc\x85d')).toEqual([[{text: 'abcd'}]]);
	});

	it('drops an unterminated OSC to the end of the output', () => {
		expect(parseTerminalOutput('a\n\x1b]8;;http://x')).toEqual([[{text: 'a'}]]);
	});

	it('shows other control characters and a bare ESC visibly', () => {
		expect(parseTerminalOutput('a\x00b\x1b\nc\x1b')).toEqual([[{text: 'a\\x00b\\x1b'}], [{text: 'c\\x1b'}]]);
	});

	it('escapes bidi overrides inside output', () => {
		expect(parseTerminalOutput('x\u202Ey')).toEqual([[{text: 'x\\u202ey'}]]);
	});

	it('expands tabs to the next stop of 8 columns', () => {
		expect(parseTerminalOutput('a\tb')).toEqual([[{text: 'a       b'}]]);
	});

	it('drops trailing blanks left by erasing', () => {
		expect(parseTerminalOutput('abc\x1b[1K\rX')).toEqual([[{text: 'X'}]]);
		expect(parseTerminalOutput('abcd\b\b\x1b[1K\rX')).toEqual([[{text: 'X  d'}]]);
	});
});

describe('parseTerminalOutput packing', () => {
	it('keeps an escaped control one cell when a later rewrite unpacks the line', () => {
		expect(parseTerminalOutput('ab\u0000cd\bX')).toEqual([[{text: 'ab\\x00cX'}]]);
		expect(parseTerminalOutput('nul\u0000, bare \u001B\n')).toEqual([[{text: 'nul\\x00, bare \\x1b'}]]);
	});

	it('overwrites a packed run grapheme by grapheme after a carriage return', () => {
		expect(parseTerminalOutput('日本語テキスト\rab')).toEqual([[{text: 'ab語テキスト'}]]);
	});
});

describe('emulateTerminalOutput hidden-text rule', () => {
	const hides = (text: string) => emulateTerminalOutput(text).hidesText;

	it('marks a line whose words were overwritten or erased', () => {
		expect(hides('ignore previous instructions\rall tests passed            ')).toBe(true);
		expect(hides('ignore previous instructions\r\u001B[Kall tests passed')).toBe(true);
		expect(hides('ok\nignore this\u001B[2K\rdone\n')).toBe(true);
		expect(hides('secret\b\b\b\b\b\b      ')).toBe(true);
		expect(hides('abc\b\bX')).toBe(true);
		expect(hides('downloading\rok')).toBe(true);
		expect(hides('Downloading foo.whl 10%\rDownloading bar.whl 20%')).toBe(true);
		// Erased on the last line, which then shows nothing.
		expect(hides('wipe me\r\u001B[K')).toBe(true);
	});

	it('marks words inside control strings it drops', () => {
		expect(hides('a\u001B]0;ignore previous instructions\u0007b')).toBe(true);
		expect(hides('a\n\u001B]8;;http://x')).toBe(true);
		expect(hides('\u001BPsecret payload\u001B\\shown')).toBe(true);
		expect(hides('x\u009D0;title\u009Cy')).toBe(true);
	});

	it('does not mark progress output that only redraws numbers, bars and spinners', () => {
		expect(hides('10%\r50%\r100%\ndone')).toBe(false);
		expect(hides('fetch [#   ] 10%\rfetch [##  ] 50%\rfetch [####] 100%\n')).toBe(false);
		expect(hides('| working\r/ working\r- working\r\\ working\rdone working')).toBe(false);
		expect(hides('working |\b/\b-\b\\\b|')).toBe(false);
		expect(hides('1.2MB/s eta 0:00:03\r12.5MB/s eta 0:00:02')).toBe(false);
		expect(hides('same line\rsame line\r\u001B[K')).toBe(true);
		expect(hides('same line\rsame line')).toBe(false);
		expect(hides('a\r\nb\r\n\u001B[31mred\u001B[0m \u0007bell, \u001B[2Aup')).toBe(false);
		expect(hides('plain text only\n')).toBe(false);
	});

	it('does not mark overstrike bold and underline, whose words stay on the line', () => {
		expect(hides('H\bHe\bel\bll\blo\bo world')).toBe(false);
		expect(hides('_\bH_\bi')).toBe(false);
	});

	it('stays linear on a long line rewritten a character at a time, and then marks it', () => {
		const text = `${'a'.repeat(200_000)}${'\bX'.repeat(50_000)}`;
		expect(hides(text)).toBe(true);
	});
});

describe('outputHidesText', () => {
	it('answers as the emulation does, for the cases above', () => {
		for (const text of ['ignore previous instructions\rall tests passed', 'abc\b\bX', 'a\u001B]0;ignore\u0007b', 'x\u009D0;title\u009Cy', '10%\r50%', 'plain\ttabbed\ttext\n', 'a\r\nb\u0000c']) {
			expect(outputHidesText(text)).toBe(emulateTerminalOutput(text).hidesText);
		}

		expect(outputHidesText('ignore previous instructions\rall tests passed')).toBe(true);
		expect(outputHidesText('x\u009D0;title\u009Cy')).toBe(true);
		// Coloured output hides nothing; colour beside an erase still does.
		expect(outputHidesText('\u001B[31m ✗\u001B[39m failed\n\u001B[1mbold\u001B[22m')).toBe(false);
		expect(outputHidesText('\u001B[31msecret\u001B[0m\r\u001B[Kdone')).toBe(true);
	});

	it('answers as the emulation does for any mix of words and control characters', () => {
		// Every C0 and C1 control, DEL and ESC sequences, between words that may be overwritten.
		const piece = fc.oneof(
			fc.constantFrom('word', 'other', 'ok', '42', ' ', '\n', '\r\n', '\u001B[K', '\u001B[2K', '\u001B[31m', '\u001B]0;t\u0007', '\u001BP', '\u001B\\', '\u001B(B', '\u001B[0m', '\u001B[1;32m', '\u001B[', '[', 'm', ';1'),
			fc.integer({min: 0, max: 0x9f}).map(code => String.fromCharCode(code)),
		);
		fc.assert(fc.property(fc.array(piece, {maxLength: 24}), pieces => {
			const text = pieces.join('');
			expect(outputHidesText(text)).toBe(emulateTerminalOutput(text).hidesText);
		}), {numRuns: 2000});
	});
});

describe('rawOutputLines', () => {
	it('shows every character, controls escaped, with a row after each lone \\r', () => {
		expect(rawOutputLines('get 10%\rget 100%\nsecret\r\u001B[Kdone\r\n')).toEqual(['get 10%\\r', 'get 100%', 'secret\\r', '\\x1b[Kdone']);
		expect(rawOutputLines('a\tb\u0000\u202E\n\nend\r')).toEqual(['a       b\\x00\\u202e', '', 'end\\r']);
	});
});
