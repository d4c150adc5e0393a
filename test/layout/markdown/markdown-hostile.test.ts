/**
Hostile Markdown: inputs that make the lexer quadratic or recurse without end, and huge messages.
The bounds are counts (characters and delimiters handed to the lexer, rows, nesting), checked in
process; the pathological inputs also run on the built dist/ in a child process with a generous
hang detector (20 s each; they take milliseconds), since a hung synchronous loop cannot be timed out
inside the test worker. The child part needs dist/ (npm run build).
*/
import {spawnSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {Lexer} from 'marked';
import {afterEach, beforeEach, describe, expect, test, vi} from 'vitest';
import {MARKDOWN_MAX_BLOCKS, MARKDOWN_MAX_CHARS, PLAIN_CHUNK_CHARS, splitMarkdown} from '../../../src/layout/markdown/markdown-blocks.js';
import {clearMarkdownCache, layoutMarkdown} from '../../../src/layout/markdown/markdown-layout.js';
import {clampNesting, lexCut, MARKDOWN_LEX_CHARS, MARKDOWN_LEX_DELIMITERS, MARKDOWN_MAX_DEPTH} from '../../../src/layout/markdown/markdown-lex.js';
import {lineText, spansWidth} from '../../../src/layout/text/spans.js';
import {colorTheme} from '../../../src/layout/text/theme.js';

/** The pathological inputs, by name: each about 100 KB on one line or one block. */
const pathological: Readonly<Record<string, string>> = {
	'*a**a…': '*a**a'.repeat(20_000),
	'_a__…': '_a__'.repeat(25_000),
	'[[[[…': '['.repeat(100_000),
	'[a](…': '[a]('.repeat(25_000),
	'~a~~…': '~a~~'.repeat(25_000),
	'> > > …': '> '.repeat(50_000),
	'>>>>…': '>'.repeat(100_000),
	'1. 1. 1. …': '1. '.repeat(33_000),
	'> - > - …': '> - '.repeat(25_000),
	'indented list 1 000 deep': Array.from({length: 1000}, (_, index) => `${' '.repeat(index * 2)}- x`).join('\n'),
	'1 000 blocks of 512 delimiters': Array.from({length: 1000}, () => '_a__'.repeat(128)).join('\n\n'),
};

/** Characters and delimiters the lexer is handed, per call. */
let lexed: Array<{chars: number; delimiters: number}> = [];

beforeEach(() => {
	clearMarkdownCache();
	lexed = [];
	const original = Lexer.prototype.lex;
	vi.spyOn(Lexer.prototype, 'lex').mockImplementation(function (this: Lexer, source: string) {
		lexed.push({chars: source.length, delimiters: source.replaceAll(/[^*_~[\]<>`]/g, '').length});
		return original.call(this, source);
	});
});

afterEach(() => {
	vi.restoreAllMocks();
});

describe('hostile Markdown, in process', () => {
	test.each(Object.entries(pathological))('%s: the lexer is handed bounded input, every row fits, and no text is lost', (_name, text) => {
		const lines = layoutMarkdown(text, {width: 80, theme: colorTheme});
		expect(lexed.length).toBeGreaterThan(0);
		expect(lexed.length).toBeLessThanOrEqual(MARKDOWN_MAX_BLOCKS + 1);
		for (const call of lexed) {
			expect(call.chars).toBeLessThanOrEqual(MARKDOWN_LEX_CHARS);
			expect(call.delimiters).toBeLessThanOrEqual(MARKDOWN_LEX_DELIMITERS);
		}

		expect(lexed.reduce((sum, call) => sum + call.chars, 0)).toBeLessThanOrEqual(MARKDOWN_MAX_CHARS + MARKDOWN_MAX_BLOCKS * 2);
		expect(lines.every(line => spansWidth(line.spans) <= 80)).toBe(true);
		// Markers may be drawn as glyphs, but the text itself survives: count its letters and brackets.
		const shown = lines.map(line => lineText(line)).join('');
		for (const character of ['a', 'x', '[']) {
			expect(shown.split(character).length).toBeGreaterThanOrEqual(Math.min(text.split(character).length, 2));
		}
	});

	test(`nesting is clamped to ${MARKDOWN_MAX_DEPTH} container markers and the indentation that depth needs, code fences untouched`, () => {
		expect(clampNesting(`${'> '.repeat(20)}x`)).toBe(`${'> '.repeat(MARKDOWN_MAX_DEPTH)}x`);
		expect(clampNesting(`${' '.repeat(200)}- x`)).toBe(`${' '.repeat(4 * (MARKDOWN_MAX_DEPTH + 1))}- x`);
		expect(clampNesting(`\`\`\`\n${' '.repeat(200)}code\n\`\`\``)).toBe(`\`\`\`\n${' '.repeat(200)}code\n\`\`\``);
		expect(clampNesting('- a\n  - b\n    > c\n* * *')).toBe('- a\n  - b\n    > c\n* * *');
	});

	test('the lexed part of a long block ends at a line break, or inside one long line', () => {
		const long = `${'word '.repeat(1000)}\n${'more '.repeat(2000)}`;
		expect(lexCut(long)).toBe(long.indexOf('\n'));
		expect(lexCut('x'.repeat(100_000))).toBe(MARKDOWN_LEX_CHARS);
		expect(lexCut('😀'.repeat(MARKDOWN_LEX_CHARS))).toBe(MARKDOWN_LEX_CHARS);
		expect(lexCut('*'.repeat(1000))).toBe(MARKDOWN_LEX_DELIMITERS);
	});

	test('a message past the Markdown bound continues as plain chunks of whole lines, without blank rows between them', () => {
		const line = 'a *plain* line of text';
		const text = Array.from({length: 30_000}, () => line).join('\n');
		const {blocks} = splitMarkdown(text);
		expect(blocks[0]!.kind).toBe('markdown');
		expect(blocks.slice(1).every(block => block.kind === 'plain' && block.text.length <= PLAIN_CHUNK_CHARS + line.length)).toBe(true);
		const rows = layoutMarkdown(text, {width: 80, theme: colorTheme});
		// The lexed start is one paragraph; every later line is its own row, and no row is blank.
		expect(rows.length).toBeGreaterThan(29_000);
		expect(rows.filter(row => lineText(row) === '')).toEqual([]);
		expect(lineText(rows.at(-1)!)).toBe(line);
	});

	test('100 000 lines and 50 MB lay out to about one row per line, without a stack overflow', () => {
		const hundredThousand = Array.from({length: 100_000}, (_, index) => `line ${index}`).join('\n\n');
		const rows = layoutMarkdown(hundredThousand, {width: 80, theme: colorTheme});
		expect(lineText(rows.at(-1)!)).toBe('line 99999');
		expect(rows.length).toBeGreaterThan(190_000);
		const fiftyMegabytes = `${'x'.repeat(99)}\n`.repeat(500_000);
		const big = layoutMarkdown(fiftyMegabytes, {width: 100, theme: colorTheme});
		expect(big.length).toBeGreaterThan(499_000);
		expect(big.every(row => spansWidth(row.spans) <= 100)).toBe(true);
		const oneLine = 'y'.repeat(50 * 1024 * 1024);
		// The lexed start of the line ends inside a row, so the plain rest starts one row early.
		expect(layoutMarkdown(oneLine, {width: 100, theme: colorTheme}).length - oneLine.length / 100).toBeOneOf([0, 1]);
	}, 120_000);
});

describe('hostile Markdown, in a child process', () => {
	const built = fileURLToPath(new URL('../../../dist/src/layout/markdown/markdown-layout.js', import.meta.url));
	test.for(Object.entries(pathological))('%s lays out before a 20 s hang detector fires', {timeout: 30_000}, ([_name, text], context) => {
		if (!existsSync(built)) {
			context.skip('dist/ is not built (npm run build); the in-process cases above still ran');
		}

		const script = `
			const {layoutMarkdown} = await import(${JSON.stringify(built)});
			const {colorTheme} = await import(${JSON.stringify(built.replace('markdown-layout.js', 'theme.js'))});
			let text = '';
			for await (const chunk of process.stdin) text += chunk;
			const rows = layoutMarkdown(text, {width: 80, theme: colorTheme});
			process.stdout.write(String(rows.length));
		`;
		const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8', input: text, timeout: 20_000});
		expect({signal: child.signal, status: child.status, stderr: child.stderr}).toEqual({signal: null, status: 0, stderr: ''});
		expect(Number(child.stdout)).toBeGreaterThan(0);
	});
});
