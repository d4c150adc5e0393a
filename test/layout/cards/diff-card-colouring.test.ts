import {beforeEach, describe, expect, test, vi} from 'vitest';
import {layoutDiffBody, type DiffLayoutContext} from '../../../src/layout/cards/diff-card.js';
import {highlightLines} from '../../../src/layout/highlight/highlight.js';
import type {StyledLine} from '../../../src/layout/text/styled-line.js';
import {colorTheme} from '../../../src/layout/text/theme.js';

// The real highlighter, watched: which lines the diff card asks it to colour.
vi.mock('../../../src/layout/highlight/highlight.js', async importOriginal => {
	const actual = await importOriginal<typeof import('../../../src/layout/highlight/highlight.js')>();
	return {...actual, highlightLines: vi.fn(actual.highlightLines)};
});

const highlighted = vi.mocked(highlightLines);

beforeEach(() => {
	highlighted.mockClear();
});

const ctx: DiffLayoutContext = {width: 100, theme: colorTheme, expansion: 'bounded'};

/** Every line given to the highlighter since the last clear. */
const linesHighlighted = (): string[] => highlighted.mock.calls.flatMap(([texts]) => [...texts]);

// These whole-file diffs are not numbered: a row is its two marker columns, then its code.

/** A row's text after its marker (`+ text` → `text`). */
const rowCode = (line: StyledLine): string => line.spans.map(span => span.text).join('').slice(2);

/** A row's spans after its marker. */
const codeSpans = (line: StyledLine) => line.spans.slice(1);

/** 2 000 lines, 20 of them edited far apart: the bench's bounded case (bench/diff-layout.mjs). */
function scatteredEdits(): {oldText: string; newText: string; edited: number[]} {
	const before = Array.from({length: 2000}, (_, index) => `const value${index} = compute(${index * 7919 % 1000}, 'key ${index}'); // step ${index}`);
	const edited = Array.from({length: 20}, (_, index) => 50 + index * 97);
	const after = before.map((line, index) => (edited.includes(index) ? line.replace('compute(', 'recompute(') : line));
	return {oldText: `${before.join('\n')}\n`, newText: `${after.join('\n')}\n`, edited};
}

describe('diff card syntax colours', () => {
	test('in bounded, only the lines shown reach the highlighter: none a fold or a gap hides, and no removed line', () => {
		const {oldText, newText} = scatteredEdits();
		const {lines} = layoutDiffBody([{path: 'src/file.ts', oldText, newText}], ctx);
		const shownAdded = lines.map(rowCode).filter(code => code.includes('recompute('));
		expect(shownAdded.length).toBeGreaterThan(0);
		expect(shownAdded.length).toBeLessThan(20);
		// Each shown run is given after one line standing for what is above it (here empty: nothing is open).
		expect(linesHighlighted().filter(text => text !== '')).toEqual(shownAdded);
		expect(linesHighlighted()).toHaveLength(2 * shownAdded.length);
	});

	test('a redraw of the same diff (another width) highlights nothing again', () => {
		const {oldText, newText} = scatteredEdits();
		const diffs = [{path: 'src/file.ts', oldText, newText}];
		layoutDiffBody(diffs, ctx);
		highlighted.mockClear();
		layoutDiffBody(diffs, {...ctx, width: 60});
		expect(highlighted).not.toHaveBeenCalled();
	});

	test('a line shown inside a block comment opened far above it is coloured as the comment, as highlighting the whole file colours it', () => {
		const file = ['/**', ...Array.from({length: 40}, (_, index) => ` * const value${index} = 'note ${index}';`), ' */', 'export const answer = 42;'];
		const edited = file.map((line, index) => (index === 30 ? ' * const value29 = \'changed\';' : line));
		const {lines} = layoutDiffBody([{path: 'src/notes.ts', oldText: `${file.join('\n')}\n`, newText: `${edited.join('\n')}\n`}], ctx);
		const addedRow = lines.find(line => rowCode(line) === ' * const value29 = \'changed\';')!;
		const given = linesHighlighted();
		const whole = highlightLines(edited, 'ts')!;
		expect(whole[30]).toEqual([{text: ' * const value29 = \'changed\';', style: {fg: 'gray', italic: true}}]);
		expect(codeSpans(addedRow)).toEqual([{text: ' * const value29 = \'', style: {fg: 'gray', italic: true}}, {text: 'changed', style: {fg: 'green', inverse: true}}, {text: '\';', style: {fg: 'gray', italic: true}}]);
		// The hidden comment lines were not highlighted to learn it: the shown lines (one run: a removed line does not break it) after one opener line.
		expect(given.filter(text => text.includes('note'))).toEqual(lines.slice(1).map(rowCode).filter(code => code.includes('note') && !code.includes('29')));
		expect(given.filter(text => !text.includes('note') && !text.includes('changed'))).toEqual(['/**']);
	});

	test('a Python docstring and a template literal open above the shown lines keep their string colour', () => {
		const python = ['def f():', '    """Docs.', ...Array.from({length: 30}, (_, index) => `    import os ${index}`), '    """', '    return 1'];
		const pythonEdited = python.map((line, index) => (index === 20 ? '    import sys 18' : line));
		const pythonBody = layoutDiffBody([{path: 'f.py', oldText: `${python.join('\n')}\n`, newText: `${pythonEdited.join('\n')}\n`}], ctx);
		const pythonRow = pythonBody.lines.find(line => rowCode(line) === '    import sys 18')!;
		expect(codeSpans(pythonRow).every(span => span.style?.fg === 'yellow' || span.style?.inverse === true)).toBe(true);

		const script = ['const page = `', ...Array.from({length: 30}, (_, index) => `<p>if (x) return ${index};</p>`), '`;'];
		const scriptEdited = script.map((line, index) => (index === 20 ? '<p>if (y) return 19;</p>' : line));
		const scriptBody = layoutDiffBody([{path: 'page.js', oldText: `${script.join('\n')}\n`, newText: `${scriptEdited.join('\n')}\n`}], ctx);
		const scriptRow = scriptBody.lines.find(line => rowCode(line) === '<p>if (y) return 19;</p>')!;
		expect(codeSpans(scriptRow).every(span => span.style?.fg === 'yellow' || span.style?.inverse === true)).toBe(true);
	});
});
