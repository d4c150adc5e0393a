/**
The `@` picker's pure half (issue 31): which word opens it, what a pick inserts, and its rows — a
hostile file name shown escaped, never acted on, and the rows bounded by what the screen leaves.
*/
import {describe, expect, it} from 'vitest';
import {moveSelection, pickerQuery, pickText} from '../../components/input/path-picker.js';
import {pickerRows} from '../../components/path-picker-rows.js';
import {lineText} from '../../src/layout/text/spans.js';
import {colorTheme} from '../../src/layout/text/theme.js';

const at = (text: string, cursor = text.length) => pickerQuery({text, cursor});

describe('which word opens the picker', () => {
	it('an @ word at the cursor, after a space, a bracket or a quote; its query', () => {
		expect(at('@')).toEqual({start: 0, query: ''});
		expect(at('look at @src/ap')).toEqual({start: 8, query: 'src/ap'});
		expect(at('(@doc')).toEqual({start: 1, query: 'doc'});
		expect(at('read @"my fi')).toBeUndefined();
		expect(at('read @"my')).toEqual({start: 5, query: 'my'});
	});

	it('not an e-mail address, a !command, a word the cursor is inside of, or a word Esc closed', () => {
		expect(at('me@exa')).toBeUndefined();
		expect(at('!git log @')).toBeUndefined();
		expect(at('look @src now', 7)).toBeUndefined();
		expect(pickerQuery({text: 'x @src', cursor: 6}, 2)).toBeUndefined();
	});
});

describe('what a pick inserts', () => {
	it('a file with a space after it; a folder open by Tab, closed by Enter; a path with spaces quoted', () => {
		expect(pickText({path: 'src/app.ts', folder: false, positions: []}, 'tab')).toBe('@src/app.ts ');
		expect(pickText({path: 'src/', folder: true, positions: []}, 'tab')).toBe('@src/');
		expect(pickText({path: 'src/', folder: true, positions: []}, 'enter')).toBe('@src/ ');
		expect(pickText({path: 'my docs/a "b".md', folder: false, positions: []}, 'tab')).toBe('@"my docs/a b.md" ');
		expect([moveSelection(0, -1, 3), moveSelection(2, 1, 3), moveSelection(0, 1, 0)]).toEqual([2, 0, 0]);
	});
});

describe('the picker\'s rows', () => {
	const view = {query: 'ev', selected: 1, indexed: 12_345, indexing: true, picks: [
		{path: 'src/event.ts', folder: false, positions: [4, 5]},
		{path: 'evil\u001B[2J\u001B]0;pwned\u0007.ts', folder: false, positions: [0, 1]},
	]};

	it('marks the selected pick, says how far the index is, and shows a hostile name escaped', () => {
		const rows = pickerRows(view, colorTheme, 100, 10).map(row => lineText(row));
		expect(rows[0]).toBe('  src/event.ts');
		expect(rows[1]!.startsWith('› evil')).toBe(true);
		expect(rows.join('\n')).not.toMatch(/[\u001B\u0007]/u);
		expect(rows[2]).toBe('  @ 12 345 files and folders (indexing…) · ↑↓ choose · Tab/Enter insert · Esc closes');
	});

	it('gives way to the screen: the footer stays, picks go first', () => {
		expect(pickerRows(view, colorTheme, 80, 2).map(row => lineText(row))).toHaveLength(2);
		expect(pickerRows(view, colorTheme, 80, 1).map(row => lineText(row))[0]).toMatch(/^ {2}@ 12 345/u);
		expect(pickerRows(view, colorTheme, 80, 0)).toEqual([]);
		expect(lineText(pickerRows({...view, picks: []}, colorTheme, 80, 5)[0]!)).toContain('no match for "ev"');
	});
});
