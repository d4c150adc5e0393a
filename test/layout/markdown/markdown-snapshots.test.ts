/**
Frame snapshots of Markdown messages: every construct and the hard inputs (CJK, a long code block, a
table wider than the terminal, nested lists, quotes, links, hostile escapes), each at 40/80/120
columns with colour on and off, in the card frame format. File names: `<case>--w<width>--<color|plain>.frame`.
*/
import {readdirSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {layoutMarkdown} from '../../../src/layout/markdown/markdown-layout.js';
import {lineText, spansWidth} from '../../../src/layout/text/spans.js';
import {colorTheme, monochromeTheme} from '../../../src/layout/text/theme.js';
import {serializeFrame} from '../../../src/testing/serialize-frame.js';
import {markdownCases} from '../markdown-cases.js';
import {WIDTHS} from '../snapshot-cases.js';

const directory = fileURLToPath(new URL('../../../snapshots/markdown/', import.meta.url));
const expected = new Set<string>();

describe.each(markdownCases)('markdown snapshot $name', ({name, text, contains}) => {
	for (const width of WIDTHS) {
		for (const color of [true, false]) {
			const file = `${name}--w${width}--${color ? 'color' : 'plain'}.frame`;
			expected.add(file);
			it(`draws ${name} at ${width} columns ${color ? 'in colour' : 'without colour'}`, async () => {
				const lines = layoutMarkdown(text, {width, theme: color ? colorTheme : monochromeTheme});
				expect(lines.every(line => spansWidth(line.spans) <= width)).toBe(true);
				expect(lines.map(line => lineText(line)).join('')).toContain(contains);
				const header = `# markdown snapshot ${name} · width ${width} · ${color ? 'colour' : 'plain'}`;
				await expect(serializeFrame(lines, header)).toMatchFileSnapshot(`${directory}${file}`);
			});
		}
	}
});

describe('markdown snapshot inventory', () => {
	// vitest writes new frames when the file finishes: after adding a case, the first run reports it missing.
	it('holds exactly one committed frame per case, with no orphans', () => {
		const present = readdirSync(directory).filter(file => file.endsWith('.frame')).sort();
		expect({missing: [...expected].filter(file => !present.includes(file)), orphans: present.filter(file => !expected.has(file))}).toEqual({missing: [], orphans: []});
		expect(present).toHaveLength(markdownCases.length * WIDTHS.length * 2);
	});
});
