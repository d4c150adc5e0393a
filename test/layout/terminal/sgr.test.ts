import {describe, expect, test} from 'vitest';
import {applySgr, blankStyle} from '../../../src/layout/terminal/sgr.js';

describe('applySgr', () => {
	test('attributes, the 16 foregrounds and their resets build a normalized style', () => {
		expect(applySgr(blankStyle, '1;31;4')).toEqual({fg: 'red', bold: true, underline: true});
		expect(applySgr(applySgr(blankStyle, '1;91'), '22')).toEqual({fg: 'brightRed'});
		expect(applySgr(applySgr(blankStyle, '3;7;9'), '0')).toBe(blankStyle);
		// Blink is dropped.
		expect(applySgr(blankStyle, '5')).toBe(blankStyle);
	});

	test('backgrounds are kept: the 16 (40–47, 100–107) and reset by 49 and 0', () => {
		// `ls --color=always` draws a sticky, writable folder black on green.
		expect(applySgr(blankStyle, '30;42')).toEqual({fg: 'black', bg: 'green'});
		expect(applySgr(blankStyle, '1;97;101')).toEqual({fg: 'brightWhite', bg: 'brightRed', bold: true});
		expect(applySgr(applySgr(blankStyle, '30;42'), '49')).toEqual({fg: 'black'});
		expect(applySgr(applySgr(blankStyle, '30;42'), '0')).toBe(blankStyle);
	});

	test('256-colour and truecolor foregrounds and backgrounds are kept, indexes 0–15 as the 16, in ; and : forms', () => {
		const green = applySgr(blankStyle, '32');
		expect([applySgr(green, '38;5;1'), applySgr(green, '38;5;200'), applySgr(green, '38;2;1;2;3'), applySgr(green, '38:5:9'), applySgr(green, '38:2::255:0:128'), applySgr(green, '38:2:255:0:128')]).toEqual([
			{fg: 'red'}, {fg: 200}, {fg: '#010203'}, {fg: 'brightRed'}, {fg: '#ff0080'}, {fg: '#ff0080'},
		]);
		expect([applySgr(blankStyle, '48;5;21'), applySgr(blankStyle, '48;2;0;0;95'), applySgr(blankStyle, '48:5:3')]).toEqual([
			{bg: 21}, {bg: '#00005f'}, {bg: 'yellow'},
		]);
		// What follows an extended colour is read as its own code.
		expect(applySgr(blankStyle, '38;5;208;1;48;2;10;20;30;4')).toEqual({fg: 208, bg: '#0a141e', bold: true, underline: true});
		// A malformed one resets that colour; the underline colour (58) is read and dropped.
		expect([applySgr(green, '38;5;300'), applySgr(green, '38;2;1;2'), applySgr(green, '58;5;3;1')]).toEqual([blankStyle, blankStyle, {fg: 'green', bold: true}]);
	});

	test('the highlighter\'s palette-only reading skips extended colours and backgrounds whole', () => {
		const green = applySgr(blankStyle, '32');
		const options = {extendedColors: false};
		expect([applySgr(green, '38;5;1;1', options), applySgr(green, '38;2;1;2;3', options), applySgr(green, '38:5:9', options), applySgr(green, '41;1', options), applySgr(green, '48;5;2', options)]).toEqual([
			{fg: 'green', bold: true}, {fg: 'green'}, {fg: 'green'}, {fg: 'green', bold: true}, {fg: 'green'},
		]);
	});
});
