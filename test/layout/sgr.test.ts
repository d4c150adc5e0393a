import {describe, expect, test} from 'vitest';
import {applySgr, blankStyle} from '../../src/layout/sgr.js';

describe('applySgr', () => {
	test('attributes, the 16 foregrounds and their resets build a normalized style', () => {
		expect(applySgr(blankStyle, '1;31;4')).toEqual({fg: 'red', bold: true, underline: true});
		expect(applySgr(applySgr(blankStyle, '1;91'), '22')).toEqual({fg: 'brightRed'});
		expect(applySgr(applySgr(blankStyle, '3;7;9'), '0')).toBe(blankStyle);
		expect(applySgr(blankStyle, '41;5')).toBe(blankStyle);
	});

	test('extended foregrounds map indexes 0–15 for tool output and are skipped whole for the highlighter', () => {
		const green = applySgr(blankStyle, '32');
		expect([applySgr(green, '38;5;1'), applySgr(green, '38;5;200'), applySgr(green, '38;2;1;2;3'), applySgr(green, '38:5:9')]).toEqual([
			{fg: 'red'}, blankStyle, blankStyle, {fg: 'brightRed'},
		]);
		const options = {extendedForeground: false};
		expect([applySgr(green, '38;5;1;1', options), applySgr(green, '38;2;1;2;3', options), applySgr(green, '38:5:9', options)]).toEqual([
			{fg: 'green', bold: true}, {fg: 'green'}, {fg: 'green'},
		]);
	});
});
