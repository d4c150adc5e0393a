import {describe, expect, it} from 'vitest';
import type {Key} from '../../../components/input/keys.js';
import {completeWord, editLine, emptyLine, type LineState} from '../../../components/input/line-editor.js';

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

	it('inserts a paste as text, newlines and all, and submits nothing', () => {
		const {state, submitted} = editLine({text: '!x', cursor: 1, historyIndex: 0, draft: ''}, 'a\nb\n', {paste: true}, []);
		expect(submitted).toBeUndefined();
		expect(state).toEqual({text: '!a\nb\nx', cursor: 5, historyIndex: 0, draft: '', pasted: true});
		expect(editLine(emptyLine(0), 'one line', {paste: true}, []).state.pasted).toBeUndefined();
	});

	it('starts a new line on Shift+Enter, Alt+Enter and a backslash before Enter', () => {
		for (const key of [{return: true, shift: true}, {return: true, meta: true}]) {
			const {state, submitted} = editLine({text: 'ab', cursor: 1, historyIndex: 0, draft: ''}, '', key, []);
			expect(submitted).toBeUndefined();
			expect(state).toMatchObject({text: 'a\nb', cursor: 2});
		}

		const {state, submitted} = editLine({text: 'echo a \\', cursor: 8, historyIndex: 0, draft: ''}, '', {return: true}, []);
		expect(submitted).toBeUndefined();
		expect(state).toMatchObject({text: 'echo a \n', cursor: 8});
		expect(editLine(state, '', {return: true}, []).submitted).toBe('echo a \n');
	});

	it('completes the word under the cursor', () => {
		expect(completeWord({text: '/read src/ma x', cursor: 12, historyIndex: 0, draft: ''}, 'src/main.ts')).toEqual({text: '/read src/main.ts x', cursor: 17, historyIndex: 0, draft: ''});
	});
});
