import {describe, expect, it} from 'vitest';
import {renderCardText, renderLines} from '../../../src/layout/terminal/render-lines.js';
import type {StyledLine} from '../../../src/layout/text/styled-line.js';
import {colorTheme} from '../../../src/layout/text/theme.js';
import {inState, KINDS} from '../fixtures.js';
import {options} from '../helpers.js';

const lines: StyledLine[] = [
	{spans: [{text: '●', style: {fg: 'green'}}, {text: ' x '}, {text: 'docs', style: {fg: 'blue', underline: true}, link: 'https://example.com/a b'}]},
	{spans: [{text: 'abcd'}]},
	{spans: [{text: 'ef'}], softWrap: true},
];

describe('renderLines', () => {
	it('writes plain text with a newline after every row', () => {
		expect(renderLines(lines, {color: false})).toBe('● x docs\nabcd\nef\n');
		expect(renderLines([], {color: false})).toBe('');
	});

	it('opens each styled span with its SGR and closes it with a reset', () => {
		expect(renderLines(lines.slice(0, 1), {color: true})).toBe('\u001B[32m●\u001B[0m x \u001B[4;34mdocs\u001B[0m\n');
	});

	it('writes OSC 8 around linked spans only when hyperlinks are on', () => {
		expect(renderLines(lines.slice(0, 1), {color: true, hyperlinks: true}))
			.toBe('\u001B[32m●\u001B[0m x \u001B]8;;https://example.com/a%20b\u001B\\\u001B[4;34mdocs\u001B[0m\u001B]8;;\u001B\\\n');
	});

	it('never writes a link target that is not http, https or file', () => {
		expect(renderLines([{spans: [{text: 'x', link: 'javascript:alert(1)'}]}], {color: true, hyperlinks: true})).toBe('x\n');
	});

	it('joins a soft-wrapped row to a full predecessor on a terminal, and ends every row with a newline without a width', () => {
		expect(renderLines(lines.slice(1), {color: false, width: 4})).toBe('abcdef\n');
		expect(renderLines(lines.slice(1), {color: false})).toBe('abcd\nef\n');
	});

	it('pads a predecessor that ends short of the width with spaces to it, so the terminal still soft-wraps before the row', () => {
		const prose: StyledLine[] = [{spans: [{text: 'tick1z ', style: {bold: true}}]}, {spans: [{text: 'tick2z'}], softWrap: true}, {spans: [{text: 'next'}]}];
		expect(renderLines(prose, {color: false, width: 8})).toBe('tick1z  tick2z\nnext\n');
		expect(renderLines(prose, {color: false, width: 10})).toBe('tick1z    tick2z\nnext\n');
		// The padding is unstyled: it is not part of the text.
		expect(renderLines(prose, {color: true, width: 8})).toBe('\u001B[1mtick1z \u001B[0m tick2z\nnext\n');
		// A hard row after a short one still ends it with a newline.
		expect(renderLines([{spans: [{text: 'ab'}]}, {spans: [{text: 'cd'}]}], {color: false, width: 8})).toBe('ab\ncd\n');
	});

	it('with unwrap joins soft-wrapped rows as they are, whatever the width, so the text comes back exactly', () => {
		const prose: StyledLine[] = [{spans: [{text: 'tick1z '}]}, {spans: [{text: 'tick2z'}], softWrap: true}];
		expect(renderLines(prose, {color: false, width: 8, unwrap: true})).toBe('tick1z tick2z\n');
		expect(renderLines(prose, {color: false, unwrap: true})).toBe('tick1z tick2z\n');
	});

	it('ends a predecessor wider than the terminal with a newline (the terminal already wrapped it)', () => {
		expect(renderLines([{spans: [{text: 'abcdef'}]}, {spans: [{text: 'gh'}], softWrap: true}], {color: false, width: 4})).toBe('abcdef\ngh\n');
	});

	it('joins after a row left one column short by a wide character that moved down', () => {
		expect(renderLines([{spans: [{text: 'abc'}]}, {spans: [{text: '日x'}], softWrap: true}], {color: false, width: 4})).toBe('abc日x\n');
	});
});

describe('renderCardText', () => {
	it('lays a card out and writes it', () => {
		expect(renderCardText(inState(KINDS.read, 'ok'), {...options(80), color: false})).toBe([
			'● read src/config.ts · 1.2s',
			'src/config.ts · lines 1–4 of 4',
			'1 export const config = {',
			'2   DEBUG: true,',
			'3   level: \'info\',',
			'4 }',
			'',
		].join('\n'));
		expect(renderCardText(inState(KINDS.read, 'ok'), {...options(80), theme: colorTheme, color: true})).toContain('\u001B[32m●\u001B[0m');
	});
});
