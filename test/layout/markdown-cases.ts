/** The Markdown snapshot subjects: one per construct, plus the hard inputs. */

export type MarkdownCase = {
	readonly name: string;
	readonly text: string;
	/** Text the rows must contain at every width (joined without breaks): a readable failure before the file diff. */
	readonly contains: string;
};

const longCode = Array.from({length: 40}, (_, index) => `export function step${index}(value: number): number {\n\treturn value * ${index} + ${'"a long string literal that is wider than forty columns"'.length}; // step ${index}\n}`).join('\n');

export const markdownCases: readonly MarkdownCase[] = [
	{
		name: 'headings-and-inline',
		text: '# Release notes\n\n## What changed\n\nThe parser is *faster*, **stricter** and ~~slower~~ no longer slow; call `parse(text)` or read the [guide](https://example.com/guide). Raw <kbd>Ctrl</kbd>+<kbd>C</kbd> stays text, &amp; entities decode.\n\n### Details\nA hard break follows  \nthis line.',
		contains: 'The parser is faster',
	},
	{
		name: 'nested-lists',
		text: '1. Install\n   - run `npm install`\n   - check the lockfile\n     - [x] committed\n     - [ ] reviewed\n2. Configure\n\n   A second paragraph under item two, long enough to wrap at forty columns.\n3. Done\n\n- loose item one\n\n- loose item two',
		contains: 'check the lockfile',
	},
	{
		name: 'quote',
		text: '> **Note**\n> Quoted text that goes on long enough to wrap at the narrow width.\n>\n> > A nested quote with `code`.\n>\n> - a list in a quote',
		contains: 'A nested quote with code',
	},
	{
		name: 'links',
		text: 'Read [the docs](https://example.com/docs), see <https://example.com/auto>, mail <ops@example.com>, avoid [this](javascript:alert(1)) and [that](file:///etc/passwd); a relative [page](./other.md) and an image ![architecture diagram](diagram.png).\n\nA [reference link][ref] too.\n\n[ref]: https://example.com/ref',
		contains: 'the docs (https://example.com/docs)',
	},
	{
		name: 'code-block',
		text: `Here is the module:\n\n\`\`\`ts\n${longCode}\n\`\`\`\n\nAnd a shell line:\n\n\`\`\`sh\nnpm test -- --run\n\`\`\``,
		contains: 'export function step39',
	},
	{
		name: 'wide-table',
		text: '| Option | Type | Default | Description |\n|:--|:-:|--:|:--|\n| `width` | number | 80 | The layout width in terminal columns; rows never exceed it. |\n| `theme` | Theme | colour | Colour roles, or attributes only when `NO_COLOR` is set in the environment. |\n| `expand` | none \\| auto \\| all | auto | How much of each card is shown. |',
		contains: 'Option',
	},
	{
		name: 'cjk',
		text: '# 東京の天気\n\n今日は**晴れ**です。気温は二十五度で、風は弱いでしょう。明日は雨が降る予報なので、傘を忘れないでください。\n\n| 都市 | 天気 | 気温 |\n|-|-|-|\n| 東京 | 晴れ | 25℃ |\n| 大阪 | 曇り時々雨 | 23℃ |\n\n- 한국어 목록 항목\n- 中文列表项目',
		contains: '今日は晴れです',
	},
	{
		name: 'rule-and-html',
		text: 'Above the rule.\n\n---\n\n<details>\n<summary>Click</summary>\n\nHidden *text*.\n</details>\n\n***\n\nBelow.',
		contains: 'Above the rule.',
	},
	{
		name: 'hostile',
		text: '# Title \u001B]0;pwned\u0007 here\n\nText with \u001B[2J clear, bidi \u202Eevil\u202C, [link](https://example.com/\u001B[31m) and `code \u0007 bell`.\n\n```sh\necho \u001B[31mred\u001B[0m\n```',
		contains: 'Text with \\x1b[2J clear',
	},
];
