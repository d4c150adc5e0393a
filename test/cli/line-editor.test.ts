import {describe, expect, it} from 'vitest';
import type {Key} from '../../components/input/keys.js';
import {completeWord, editLine, emptyLine, type LineState} from '../../components/input/line-editor.js';

function type(state: LineState, keys: ReadonlyArray<string | [string, Key]>, history: readonly string[] = []): LineState {
	let current = state;
	for (const key of keys) {
		current = typeof key === 'string' ? editLine(current, key, {}, history).state : editLine(current, key[0], key[1], history).state;
	}

	return current;
}

describe('editLine', () => {
	it('inserts at the cursor and erases to its left', () => {
		const state = type(emptyLine(0), ['ac', ['', {leftArrow: true}], 'b', ['', {rightArrow: true}], ['', {backspace: true}]]);
		expect(state).toEqual({text: 'ab', cursor: 2, historyIndex: 0, draft: ''});
	});

	it('erases under the cursor with the Delete key', () => {
		const state = type(emptyLine(0), ['abc', ['', {leftArrow: true}], ['', {leftArrow: true}], ['', {delete: true}]]);
		expect(state).toEqual({text: 'ac', cursor: 1, historyIndex: 0, draft: ''});
	});

	it('submits the line and resets', () => {
		const {state, submitted} = editLine({text: '!ls', cursor: 3, historyIndex: 0, draft: ''}, '', {return: true}, []);
		expect(submitted).toBe('!ls');
		expect(state).toEqual(emptyLine(1));
	});

	it('walks history up and back down to the draft', () => {
		const history = ['!one', '!two'];
		let state = type(emptyLine(2), ['dra'], history);
		state = editLine(state, '', {upArrow: true}, history).state;
		expect(state.text).toBe('!two');
		state = editLine(state, '', {upArrow: true}, history).state;
		state = editLine(state, '', {upArrow: true}, history).state;
		expect(state.text).toBe('!one');
		state = editLine(state, '', {downArrow: true}, history).state;
		state = editLine(state, '', {downArrow: true}, history).state;
		expect(state).toEqual({text: 'dra', cursor: 3, historyIndex: 2, draft: 'dra'});
	});

	it('deletes a word with Ctrl+W and the head with Ctrl+U', () => {
		expect(type({text: '/read some/path', cursor: 15, historyIndex: 0, draft: ''}, [['w', {ctrl: true}]]).text).toBe('/read ');
		expect(type({text: 'abc def', cursor: 4, historyIndex: 0, draft: ''}, [['u', {ctrl: true}]])).toEqual({text: 'def', cursor: 0, historyIndex: 0, draft: ''});
	});

	it('turns pasted newlines into spaces', () => {
		expect(type(emptyLine(0), ['a\nb\r\nc']).text).toBe('a b c');
	});

	it('completes the word under the cursor', () => {
		expect(completeWord({text: '/read src/ma x', cursor: 12, historyIndex: 0, draft: ''}, 'src/main.ts')).toEqual({text: '/read src/main.ts x', cursor: 17, historyIndex: 0, draft: ''});
	});
});
