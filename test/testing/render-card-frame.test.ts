import {describe, expect, it} from 'vitest';
import {renderCardFrame} from '../../src/testing/render-card-frame.js';
import type {ToolDefinition} from '../../src/tools/types.js';

const greet: ToolDefinition = {
	name: 'greet',
	description: 'Say hello',
	parameters: {type: 'object', properties: {name: {type: 'string'}}},
	output: {schema: {type: 'string'} as never, render: (_args, value) => [{type: 'text', text: String(value)}]},
	execute: async () => 'hello',
	presentCall: args => ({card: 'generic', title: `Greet ${(args as {name: string}).name}`, kind: 'other', rawInput: (args as {name: string}).name}),
	presentResult: (args, result) => (result.isError ? undefined : {card: 'search', shape: 'paths', paths: [`people/${(args as {name: string}).name}`], truncated: false, total: 1}),
};

describe('renderCardFrame', () => {
	it('draws the pending card from the tool’s presentCall', () => {
		expect(renderCardFrame(greet, {args: {name: 'Ada'}, width: 40, now: 3000})).toBe([
			'# greet · running · width 40 · colour',
			// The title does not repeat the tool's name (`Greet Ada`).
			'0| "○ greet Ada · 3s"',
			'  style 0-0 fg=yellow',
			'  style 2-6 bold',
			'  style 11-15 dim',
			'1| "Ada"',
			'',
		].join('\n'));
	});

	it('draws the settled card from the tool’s presentResult', () => {
		expect(renderCardFrame(greet, {args: {name: 'Ada'}, result: {content: [{type: 'text', text: 'hello'}]}, width: 40, color: false, durationMs: 1500})).toBe([
			'# greet · ok · width 40 · plain',
			'0| "● greet Ada · 1.5s"',
			'  style 2-6 bold',
			'1| "people/Ada"',
			'2| "1 path"',
			'',
		].join('\n'));
	});

	it('draws a classed failure with its code', () => {
		const frame = renderCardFrame(greet, {args: {name: 'Ada'}, result: {content: [{type: 'text', text: 'Error: nobody home'}], isError: true, error: {message: 'x', info: {name: 'GreetError', code: 'NOBODY_HOME'}}}, width: 40, color: false});
		expect(frame).toContain('1| "Error: nobody home"');
		expect(frame).toContain('2| "GreetError · NOBODY_HOME"');
		expect(frame.split('\n')[0]).toBe('# greet · error · width 40 · plain');
	});

	it('draws an interrupted call and refuses a state the inputs cannot produce', () => {
		expect(renderCardFrame(greet, {args: {name: 'Ada'}, width: 40, status: 'interrupted'}).split('\n')[1]).toBe('0| "◌ greet Ada"');
		expect(() => renderCardFrame(greet, {args: {}, width: 40, status: 'ok'})).toThrow('renderCardFrame(greet): status "ok" needs a result');
		expect(() => renderCardFrame(greet, {args: {name: 'A'}, result: {content: []}, width: 40, status: 'error'})).toThrow('renderCardFrame(greet): the result settles the card as "ok", not "error"');
	});
});
