import {describe, expect, it} from 'vitest';
import type {Key} from '../../../components/input/keys.js';
import {completeWord, editLine, emptyLine, PASTE_CHIP_CHARS, prependText, type LineState} from '../../../components/input/line-editor.js';
import {shownLine} from '../../../components/Prompt.js';

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

	it('inserts a paste of several lines whole, as one chip, and submits nothing', () => {
		const {state, submitted} = editLine({text: '!x', cursor: 1, historyIndex: 0, draft: ''}, 'a\nb\n', {paste: true}, []);
		expect(submitted).toBeUndefined();
		expect(state).toEqual({text: '!a\nb\nx', cursor: 5, historyIndex: 0, draft: '', pastes: [{start: 1, end: 5, label: '[Pasted text #1 +2 lines]'}], pasteCount: 1});
		expect(editLine(state, '', {return: true}, []).submitted).toBe('!a\nb\nx');
		// One line (and a copied line's end) is typed text; a very long line is a chip too.
		expect(editLine(emptyLine(0), 'one line\n', {paste: true}, []).state).toEqual({text: 'one line', cursor: 8, historyIndex: 0, draft: ''});
		expect(editLine(emptyLine(0), 'x'.repeat(PASTE_CHIP_CHARS + 1), {paste: true}, []).state.pastes).toEqual([{start: 0, end: PASTE_CHIP_CHARS + 1, label: `[Pasted text #1 ${PASTE_CHIP_CHARS + 1} chars]`}]);
	});

	it('edits around a chip as one unit: the cursor steps over it, a deletion that touches it removes it whole', () => {
		const pasted = type(emptyLine(0), ['say ', ['one\ntwo\nthree', {paste: true}], ' ok', ['x\ny', {paste: true}]]);
		expect(pasted.text).toBe('say one\ntwo\nthree okx\ny');
		expect(pasted.pastes).toEqual([{start: 4, end: 17, label: '[Pasted text #1 +3 lines]'}, {start: 20, end: 23, label: '[Pasted text #2 +2 lines]'}]);
		expect(shownLine(pasted)).toEqual({text: 'say [Pasted text #1 +3 lines] ok[Pasted text #2 +2 lines]', cursor: 57});
		// ← over the second chip and the " ok", then ← lands before the first chip, not inside it.
		const left = type(pasted, Array.from({length: 5}, () => ['', {leftArrow: true}] as [string, Key]));
		expect(left.cursor).toBe(4);
		expect(type(left, [['', {rightArrow: true}]]).cursor).toBe(17);
		// Backspace after a chip removes all of it; the later chip moves along.
		const erased = type(type(left, [['', {rightArrow: true}]]), [['', {backspace: true}]]);
		expect(erased).toMatchObject({text: 'say  okx\ny', cursor: 4, pastes: [{start: 7, end: 10, label: '[Pasted text #2 +2 lines]'}]});
		// Delete before a chip, Ctrl+W over it, Ctrl+K and Ctrl+U through it: always whole.
		expect(type({...left}, [['', {delete: true}]])).toMatchObject({text: 'say  okx\ny', cursor: 4});
		expect(type(pasted, [['w', {ctrl: true}]])).toMatchObject({text: 'say one\ntwo\nthree ok', cursor: 20});
		expect(type(pasted, [['w', {ctrl: true}]]).pastes).toHaveLength(1);
		expect(type(left, [['k', {ctrl: true}]])).toEqual({text: 'say ', cursor: 4, historyIndex: 0, draft: '', pasteCount: 2});
		expect(type({...pasted, cursor: 17}, [['u', {ctrl: true}]])).toMatchObject({text: ' okx\ny', cursor: 0, pastes: [{start: 3, end: 6}]});
		// Typing before a chip moves it; the text sent is the whole paste.
		const typed = type(left, ['(']);
		expect(typed.pastes?.[0]).toMatchObject({start: 5, end: 18});
		expect(editLine(typed, '', {return: true}, []).submitted).toBe('say (one\ntwo\nthree okx\ny');
	});

	it('keeps a draft\'s chips through a history walk, and takes a queued line back before the draft', () => {
		const draft = type(emptyLine(1), ['a ', ['p\nq', {paste: true}]], ['!old']);
		const back = type(draft, [['', {upArrow: true}], ['', {downArrow: true}]], ['!old']);
		expect(back).toMatchObject({text: 'a p\nq', pastes: [{start: 2, end: 5}]});
		const withQueued = prependText(back, 'fix it');
		expect(withQueued).toMatchObject({text: 'fix it\na p\nq', cursor: 6, pastes: [{start: 9, end: 12}]});
		expect(prependText(emptyLine(0), 'fix it')).toEqual({text: 'fix it', cursor: 6, historyIndex: 0, draft: ''});
	});

	it('does not join a chip with the line after it on a backslash Enter: a paste that ends in \\ is sent as pasted', () => {
		const state = type(emptyLine(0), [['echo a \\\necho b \\', {paste: true}]]);
		expect(editLine(state, '', {return: true}, []).submitted).toBe('echo a \\\necho b \\');
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

	it('completes the word under the cursor, never inside a chip before it', () => {
		expect(completeWord({text: '/read src/ma x', cursor: 12, historyIndex: 0, draft: ''}, 'src/main.ts')).toEqual({text: '/read src/main.ts x', cursor: 17, historyIndex: 0, draft: ''});
		const pasted = editLine(emptyLine(0), 'a\nsrc/ma', {paste: true}, []).state;
		expect(completeWord(pasted, 'src/main.ts')).toMatchObject({text: 'a\nsrc/masrc/main.ts', pastes: [{start: 0, end: 8}]});
	});
});
