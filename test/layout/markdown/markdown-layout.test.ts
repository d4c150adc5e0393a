import fc from 'fast-check';
import {beforeEach, describe, expect, test} from 'vitest';
import {clearMarkdownCache, layoutMarkdown, markdownCacheSize, markdownCopyText, MARKDOWN_MESSAGE_CACHE_LIMIT} from '../../../src/layout/markdown/markdown-layout.js';
import {MARKDOWN_MAX_DEPTH} from '../../../src/layout/markdown/markdown-lex.js';
import {safeLinkTarget} from '../../../src/layout/text/link-target.js';
import {sanitizeLine} from '../../../src/layout/text/sanitize.js';
import {lineText, spansWidth} from '../../../src/layout/text/spans.js';
import type {Span, StyledLine} from '../../../src/layout/text/styled-line.js';
import {colorTheme, monochromeTheme} from '../../../src/layout/text/theme.js';

const color = {width: 80, theme: colorTheme};

function texts(lines: readonly StyledLine[]): string[] {
	return lines.map(line => lineText(line));
}

function md(text: string, width = 80, theme = colorTheme): readonly StyledLine[] {
	return layoutMarkdown(text, {width, theme});
}

/** The first span whose text contains `needle`. */
function spanWith(lines: readonly StyledLine[], needle: string): Span {
	const found = lines.flatMap(line => line.spans).find(item => item.text.includes(needle));
	expect(found, `a span containing ${JSON.stringify(needle)}`).toBeDefined();
	return found!;
}

beforeEach(() => {
	clearMarkdownCache();
});

describe('layoutMarkdown: blocks', () => {
	test('a heading drops its # marker (issue 16 item 18): bold, the first two levels coloured, the first underlined', () => {
		expect(md('## Install it')).toEqual([{spans: [{text: 'Install it', style: {bold: true, fg: 'magenta'}}]}]);
		expect(md('# Title')).toEqual([{spans: [{text: 'Title', style: {bold: true, fg: 'magenta', underline: true}}]}]);
		expect(md('### Step *one*')).toEqual([{spans: [{text: 'Step ', style: {bold: true}}, {text: 'one', style: {bold: true, italic: true}}]}]);
		expect(md('#### Notes', 80, monochromeTheme)).toEqual([{spans: [{text: 'Notes', style: {bold: true}}]}]);
		expect(md('# Title', 80, monochromeTheme)).toEqual([{spans: [{text: 'Title', style: {bold: true, underline: true}}]}]);
	});

	test('blocks are separated by one blank row; soft line breaks are spaces', () => {
		expect(texts(md('one\ntwo\n\n\n\nthree'))).toEqual(['one two', '', 'three']);
	});

	test('a long paragraph wraps between words, continuation rows are soft wraps without indent', () => {
		const lines = md('word '.repeat(20).trim(), 30);
		expect(texts(lines)).toEqual(['word word word word word word ', 'word word word word word word ', 'word word word word word word ', 'word word']);
		expect(lines.every(line => spansWidth(line.spans) <= 30)).toBe(true);
		expect(lines.slice(1).every(line => line.softWrap === true)).toBe(true);
		expect(texts(lines).join('')).toBe('word '.repeat(20).trim());
	});

	test('no word is cut (issue 12): each row ends with the space it broke at, at 8 and at 120 columns', () => {
		expect(texts(md('tick1z tick2z', 8))).toEqual(['tick1z ', 'tick2z']);
		const ticks = Array.from({length: 40}, (_, index) => `tick${index + 1}z`).join(' ');
		const rows = texts(md(ticks, 120));
		expect(rows.length).toBeGreaterThan(1);
		expect(rows.slice(0, -1).every(row => row.endsWith('z '))).toBe(true);
		expect(rows.every(row => /^tick\d+z/.test(row))).toBe(true);
		expect(rows.join('')).toBe(ticks);
	});

	test('headings, list items, quotes and styled runs wrap between words, keeping their styles', () => {
		expect(texts(md('## alpha beta gamma', 12))).toEqual(['alpha beta ', 'gamma']);
		expect(texts(md('- alpha beta gamma', 12))).toEqual(['• alpha ', 'beta gamma']);
		expect(texts(md('> alpha beta gamma', 12))).toEqual(['│ alpha ', 'beta gamma']);
		const lines = md('plain **bold words here**', 12);
		expect(texts(lines)).toEqual(['plain bold ', 'words here']);
		expect(lines[1]!.spans).toEqual([{text: 'words here', style: {bold: true}}]);
	});

	test('a hard break starts a new row that is not a soft wrap', () => {
		const lines = md('one  \ntwo');
		expect(texts(lines)).toEqual(['one', 'two']);
		expect(lines[1]!.softWrap).toBeUndefined();
	});

	test('unordered lists nest with indentation and a bullet per depth; ordered lists keep their start and align numbers', () => {
		expect(texts(md('- a\n  - b\n    - c\n      - d'))).toEqual(['• a', '  ◦ b', '    ▪ c', '      • d']);
		expect(texts(md('9. nine\n10. ten'))).toEqual([' 9. nine', '10. ten']);
	});

	test('task list items show a glyph instead of the checkbox text', () => {
		expect(texts(md('- [ ] todo\n- [x] done\n1. [x] first'))).toEqual(['☐ todo', '☒ done', '', '1. ☒ first']);
	});

	test('a wrapped list item continues as a soft wrap from column 0, so it copies as one line', () => {
		const lines = md(`- ${'x'.repeat(50)}`, 20);
		expect(texts(lines)).toEqual([`• ${'x'.repeat(18)}`, 'x'.repeat(20), 'x'.repeat(12)]);
		expect(lines.slice(1).every(line => line.softWrap === true)).toBe(true);
	});

	test('a loose list puts a blank row between items and keeps each item\'s paragraphs under it', () => {
		expect(texts(md('- a\n\n  more a\n- b'))).toEqual(['• a', '', '  more a', '', '• b']);
	});

	test('a block quote draws a muted gutter per nesting level, and its text in the quote style', () => {
		const lines = md('> outer\n>\n> > inner');
		expect(texts(lines)).toEqual(['│ outer', '│', '│ │ inner']);
		expect(spanWith(lines, 'outer').style).toEqual(colorTheme.markdownQuote);
		expect(lines[2]!.spans[0]).toEqual({text: '│ ', style: colorTheme.muted});
	});

	test('a horizontal rule fills the width (inside a quote, the width after the gutter)', () => {
		expect(texts(md('---', 12))).toEqual(['─'.repeat(12)]);
		expect(texts(md('> ***', 12))).toEqual([`│ ${'─'.repeat(10)}`]);
	});

	test(`nesting deeper than ${MARKDOWN_MAX_DEPTH} is shown flat: rows never indent past the cap`, () => {
		const deepQuote = `${'> '.repeat(40)}deep`;
		const quoteRow = texts(md(deepQuote, 200)).find(row => row.includes('deep'))!;
		expect(quoteRow).toBe(`${'│ '.repeat(MARKDOWN_MAX_DEPTH)}deep`);
		const deepList = Array.from({length: 30}, (_, index) => `${'  '.repeat(index)}- level ${index}`).join('\n');
		const rows = texts(md(deepList, 200));
		expect(rows.filter(row => row.includes('level'))).toHaveLength(30);
		const indents = rows.map(row => row.length - row.trimStart().length);
		expect(Math.max(...indents)).toBeLessThanOrEqual(2 * MARKDOWN_MAX_DEPTH);
	});

	test('raw HTML is shown as its text, never interpreted', () => {
		expect(texts(md('<div onclick="x()">\n<script>alert(1)</script>\n</div>'))).toEqual(['<div onclick="x()">', '<script>alert(1)</script>', '</div>']);
		expect(texts(md('a <b>bold?</b> c'))).toEqual(['a <b>bold?</b> c']);
	});
});

describe('layoutMarkdown: inline', () => {
	test('emphasis, strong, strikethrough and inline code each have their own style, nesting merges them', () => {
		const lines = md('*i* **b** ~~s~~ `c` ***bi***');
		expect(texts(lines)).toEqual(['i b s c bi']);
		expect(spanWith(lines, 'i').style).toEqual({italic: true});
		expect(spanWith(lines, 'b').style).toEqual({bold: true});
		expect(spanWith(lines, 's').style).toEqual({strikethrough: true});
		expect(spanWith(lines, 'c').style).toEqual(colorTheme.markdownCode);
		expect(spanWith(lines, 'bi').style).toEqual({italic: true, bold: true});
	});

	test('inline code is distinct in monochrome too', () => {
		const style = spanWith(md('`c`', 80, monochromeTheme), 'c').style;
		expect(style).toEqual(monochromeTheme.markdownCode);
		expect(style).not.toEqual({});
	});

	test('an http(s) link is linked and shows its URL after text that differs from it', () => {
		const lines = md('[docs](https://example.com/a) and <https://example.com/b>');
		expect(texts(lines)).toEqual(['docs (https://example.com/a) and https://example.com/b']);
		expect(spanWith(lines, 'docs')).toEqual({text: 'docs', style: colorTheme.link, link: 'https://example.com/a'});
		expect(spanWith(lines, 'example.com/b').link).toBe('https://example.com/b');
	});

	test('a link to anything but http(s) is shown, never linked', () => {
		for (const href of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x', './relative.md']) {
			const lines = md(`[click](${href})`);
			expect(texts(lines)).toEqual([`click (${href})`]);
			expect(lines.flatMap(line => line.spans).every(item => item.link === undefined)).toBe(true);
		}
	});

	test('reference links resolve against definitions in other blocks, and definitions are not shown', () => {
		const lines = md('See [the docs][d].\n\nMore text.\n\n[d]: https://example.com/docs');
		expect(texts(lines)).toEqual(['See the docs (https://example.com/docs).', '', 'More text.']);
		expect(spanWith(lines, 'the docs').link).toBe('https://example.com/docs');
	});

	test('an image is a placeholder with its alt text', () => {
		expect(texts(md('![a diagram](x.png) and ![](y.png)'))).toEqual(['[image a diagram] and [image]']);
	});

	test('character references are decoded, then sanitized like any text', () => {
		expect(texts(md('a &amp; b &lt;c&gt; &#65; &#x1b;[31m &unknown;'))).toEqual(['a & b <c> A \\x1b[31m &unknown;']);
	});

	test('escape sequences and invisible characters in any construct are escaped visibly', () => {
		const hostile = '\u001B]0;title\u0007 \u202Eevil';
		const text = `# ${hostile}\n\n*${hostile}* \`${hostile}\` [${hostile}](https://x.y/${hostile})\n\n| ${hostile} |\n|-|\n| ${hostile} |\n\n\`\`\`ts\n${hostile}\n\`\`\``;
		for (const line of md(text, 60)) {
			for (const item of line.spans) {
				expect(item.text).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u202E]/);
			}
		}
	});
});

describe('layoutMarkdown: code blocks', () => {
	test('a fenced block shows no fence rows (issue 16 item 18): its code indented two columns and syntax-coloured by its language', () => {
		const lines = md('```ts\nconst a = 1;\n\n  return a;\n```');
		expect(texts(lines)).toEqual(['  const a = 1;', '', '    return a;']);
		expect(lines[0]!.spans[0]).toEqual({text: '  '});
		expect(spanWith(lines, 'const')).toEqual({text: 'const', style: {fg: 'magenta'}});
		expect(md('```\n```')).toEqual([]);
	});

	test('no colours in monochrome or for an unknown language, and tabs are expanded', () => {
		expect(md('```ts\nconst a = 1;\n```', 80, monochromeTheme)[0]!.spans).toEqual([{text: '  '}, {text: 'const a = 1;'}]);
		expect(md('```nolang\n\tx\n```')[0]!.spans).toEqual([{text: '  '}, {text: '        x'}]);
	});

	test('a code block inside a list item is indented with the item, and a blank line in it splits nothing', () => {
		expect(texts(md('1. step\n\n   ```sh\n   a\n\n   b\n   ```\n2. next'))).toEqual(['1. step', '', '     a', '', '     b', '', '2. next']);
	});

	test('code keeps the column cut (it copies exactly as is), fenced at the top level or inside a list item', () => {
		expect(texts(md('```\nalpha beta gamma\n```', 12))).toEqual(['  alpha beta', ' gamma']);
		expect(texts(md('- item\n\n  ```\n  alpha beta gamma\n  ```', 12))).toEqual(['• item', '', '    alpha be', 'ta gamma']);
		// The item's first line is code, drawn after the marker: still cut at the column.
		expect(texts(md('- ```\n  alpha beta gamma\n  ```', 12))).toEqual(['•   alpha be', 'ta gamma']);
		expect(texts(md('- ```abcdefgh\n  x\n  ```', 12))).toEqual(['•   x']);
	});

	test('an unclosed fence (a message still streaming) runs to the end, uncoloured', () => {
		const lines = md('text\n```ts\nconst a = 1;\n\nmore');
		expect(texts(lines)).toEqual(['text', '', '  const a = 1;', '', '  more']);
		expect(lines[2]!.spans).toEqual([{text: '  '}, {text: 'const a = 1;'}]);
	});
});

describe('layoutMarkdown: tables', () => {
	const table = '| Name | Count | Notes |\n|:--|--:|:-:|\n| alpha | 1 | ok |\n| beta | 22 | fine |';

	test('a table that fits keeps natural column widths, aligns cells and bolds the header', () => {
		const lines = md(table);
		expect(texts(lines)).toEqual([
			'Name  │ Count │ Notes',
			'──────┼───────┼──────',
			'alpha │     1 │  ok',
			'beta  │    22 │ fine',
		]);
		expect(spanWith(lines, 'Name').style).toEqual({bold: true});
	});

	test('a table wider than the width shrinks its widest columns and wraps their cells, never exceeding the width', () => {
		const wide = `| key | description |\n|-|-|\n| a | ${'word '.repeat(30).trim()} |`;
		const lines = md(wide, 40);
		expect(lines.every(line => spansWidth(line.spans) <= 40)).toBe(true);
		expect(lines.every(line => line.softWrap === undefined)).toBe(true);
		// Cells wrap between words: the seventh word fits the 34 columns only without its space, so it moves down.
		expect(texts(lines).slice(0, 4)).toEqual(['key │ description', '────┼─' + '─'.repeat(34), `a   │ ${'word '.repeat(6).trim()}`, `    │ ${'word '.repeat(6).trim()}`]);
		expect(texts(lines).join(' ').replaceAll(/[│ ]+/g, ' ')).toContain('word word');
	});

	test('a wrapped cell row drops the space it broke at, so right- and centre-aligned rows keep their place', () => {
		expect(texts(md('| a | b |\n|-|--:|\n| x | 11 22 33 44 |', 14))).toEqual(['a │          b', '──┼───────────', 'x │   11 22 33', '  │         44']);
		expect(texts(md('| a | b |\n|-|:-:|\n| x | 1 22 333 4444 |', 14))).toEqual(['a │     b', '──┼───────────', 'x │  1 22 333', '  │    4444']);
	});

	test('when even narrow columns do not fit, each row becomes header: value lines', () => {
		const lines = md(table, 12);
		expect(texts(lines)).toEqual(['Name: alpha', 'Count: 1', 'Notes: ok', '', 'Name: beta', 'Count: 22', 'Notes: fine']);
	});

	test('CJK cells are measured in display columns', () => {
		const lines = md('| 名前 | 値 |\n|-|-|\n| 東京都 | 一 |', 40);
		expect(texts(lines)).toEqual(['名前   │ 値', '───────┼───', '東京都 │ 一']);
	});
});

describe('layoutMarkdown: caching and copy', () => {
	test('equal inputs return the same frozen rows; width and theme are part of the key', () => {
		const first = md('# a\n\nb');
		expect(md('# a\n\nb')).toBe(first);
		expect(Object.isFrozen(first)).toBe(true);
		expect(md('# a\n\nb', 40)).not.toBe(first);
		expect(md('# a\n\nb', 80, monochromeTheme)).not.toBe(first);
		expect(layoutMarkdown('x', {width: 0, theme: colorTheme})).toEqual([]);
	});

	test('the message cache is bounded', () => {
		for (let index = 0; index < MARKDOWN_MESSAGE_CACHE_LIMIT + 50; index++) {
			layoutMarkdown(`message ${index}`, color);
		}

		expect(markdownCacheSize().messages).toBe(MARKDOWN_MESSAGE_CACHE_LIMIT);
	});

	test('the copy text is the Markdown source, sanitized with newlines and tabs kept', () => {
		expect(markdownCopyText('# T\n\n- a\tb\r\n\u001B[2J')).toBe('# T\n\n- a\tb\n\\x1b[2J');
	});
});

describe('layoutMarkdown: any input', () => {
	const hostile = fc.constantFrom('\u001B[31m', '\u001B]8;;x\u0007', '\u202E', '\u200B', '\r', '\u0000', '\uD800', '\u0085', '\t', '&#27;', '&#x202e;', '東京', '😀', 'word', ' ');
	const payload = fc.array(fc.oneof(hostile, fc.string({maxLength: 4})), {minLength: 1, maxLength: 4}).map(parts => parts.join(''));
	const construct = payload.chain(text => fc.constantFrom(
		text, `\`${text}\``, `*${text}*`, `**${text}**`, `~~${text}~~`, `[${text}](https://x.y/${text})`, `[${text}](javascript:${text})`, `<https://x.y/${text}>`,
		`![${text}](x.png)`, `<b title="${text}">`, `# ${text}`, `> ${text}`, `- ${text}`, `1. [x] ${text}`, `| ${text} | b |\n|-|-|\n| ${text} | c |`,
		`\`\`\`ts\n${text}\n\`\`\``, `    ${text}`, `${text}  \n${text}`, `[${text}]: https://x.y/ref`, '\n', '\n\n',
	));

	test('every row fits the width, every span text is already sanitized, and every link is http(s)', () => {
		fc.assert(fc.property(fc.array(construct, {maxLength: 12}).map(parts => parts.join(' ')), fc.integer({min: 1, max: 50}), (text, width) => {
			clearMarkdownCache();
			for (const theme of [colorTheme, monochromeTheme]) {
				for (const line of layoutMarkdown(text, {width, theme})) {
					expect(spansWidth(line.spans)).toBeLessThanOrEqual(Math.max(width, 2));
					for (const item of line.spans) {
						expect(sanitizeLine(item.text)).toBe(item.text);
						if (item.link !== undefined) {
							expect(safeLinkTarget(item.link, {web: true})).toBe(item.link);
						}
					}
				}
			}
		}), {numRuns: 300, seed: 3});
	});
});
