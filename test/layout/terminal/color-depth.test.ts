import {describe, expect, test} from 'vitest';
import {colorAtDepth, colorParameters, styleAtDepth} from '../../../src/layout/terminal/color-depth.js';
import {renderLines} from '../../../src/layout/terminal/render-lines.js';

describe('colours at the terminal\'s depth', () => {
	test('truecolor maps to the nearest 256-colour index, and both map to the nearest of the 16', () => {
		expect(colorAtDepth('#ff8700', 'ansi256')).toBe(208);
		expect(colorAtDepth('#080808', 'ansi256')).toBe(232);
		expect(colorAtDepth('#ff0000', 'ansi16')).toBe('brightRed');
		expect(colorAtDepth(22, 'ansi16')).toBe('black');
		expect(colorAtDepth(28, 'ansi16')).toBe('green');
		expect(colorAtDepth(21, 'ansi16')).toBe('blue');
		// The 16 and anything at truecolor stay as they are; no colour at all without colour.
		expect([colorAtDepth('green', 'ansi16'), colorAtDepth(208, 'truecolor'), colorAtDepth('#123456', 'truecolor'), colorAtDepth('green', 'none')]).toEqual(['green', 208, '#123456', undefined]);
	});

	test('a foreground mapped onto its own background takes the default colour; without colour both go', () => {
		// Dark green on green at 256 colours: apart; at 16 both are green.
		expect(styleAtDepth({fg: 22, bg: 28}, 'ansi256')).toEqual({fg: 22, bg: 28});
		expect(styleAtDepth({fg: 28, bg: 34}, 'ansi16')).toEqual({bg: 'green'});
		expect(styleAtDepth({fg: 'black', bg: 'green', bold: true}, 'none')).toEqual({bold: true});
		expect(styleAtDepth({fg: 'black', bg: 'green'}, 'ansi16')).toEqual({fg: 'black', bg: 'green'});
	});

	test('writes each colour with the SGR parameters of its kind', () => {
		expect([colorParameters('black', false), colorParameters('green', true), colorParameters('brightRed', true), colorParameters(208, false), colorParameters('#ff0080', true)]).toEqual([
			'30', '42', '101', '38;5;208', '48;2;255;0;128',
		]);
	});

	test('renderLines writes a span\'s colours at the depth it is given (the 16 by default)', () => {
		const lines = [{spans: [{text: 'tmp', style: {fg: 'black' as const, bg: 'green' as const}}, {text: ' orange', style: {fg: '#ff8700' as const}}]}];
		expect(renderLines(lines, {color: true})).toBe('\u001B[30;42mtmp\u001B[0m\u001B[33m orange\u001B[0m\n');
		expect(renderLines(lines, {color: true, depth: 'ansi256'})).toBe('\u001B[30;42mtmp\u001B[0m\u001B[38;5;208m orange\u001B[0m\n');
		expect(renderLines(lines, {color: true, depth: 'truecolor'})).toBe('\u001B[30;42mtmp\u001B[0m\u001B[38;2;255;135;0m orange\u001B[0m\n');
		expect(renderLines(lines, {color: false})).toBe('tmp orange\n');
	});
});
