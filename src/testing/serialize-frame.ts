/**
@module The frame format of card snapshots: text and style in one readable file, so a colour
regression shows in the same diff as a text one.

```
<header>
0| "● bash npm test · 1.2s"
  style 0-0 fg=green
  style 2-5 bold
1~| "continued row"
2-4| <blank>
```

One row per line: `<n>| <JSON text>` (`<n>~|` for a soft-wrapped row), then one
`  style <start>-<end> <labels>` line per maximal run of identical non-default style, columns
0-based, inclusive and counted in display cells (a wide character covers two). Labels come in a
fixed order: `fg=<colour> bg=<colour> bold dim italic underline inverse strike link=<url>`. Empty unstyled rows
merge into `<n>| <blank>` or `<n>-<m>| <blank>`.
*/
import {lineText} from '../layout/text/spans.js';
import type {Span, StyledLine} from '../layout/text/styled-line.js';
import {displayWidth, graphemes} from '../layout/text/text-width.js';

/** The labels of a span's style and link, in the fixed order; '' for the default style. */
export function styleLabels(item: Span): string {
	const style = item.style ?? {};
	const labels: string[] = [];
	if (style.fg !== undefined) {
		labels.push(`fg=${style.fg}`);
	}

	if (style.bg !== undefined) {
		labels.push(`bg=${style.bg}`);
	}

	if (style.bold) {
		labels.push('bold');
	}

	if (style.dim) {
		labels.push('dim');
	}

	if (style.italic) {
		labels.push('italic');
	}

	if (style.underline) {
		labels.push('underline');
	}

	if (style.inverse) {
		labels.push('inverse');
	}

	if (style.strikethrough) {
		labels.push('strike');
	}

	if (item.link !== undefined) {
		labels.push(`link=${item.link}`);
	}

	return labels.join(' ');
}

/** The style runs of one row as `  style a-b labels` lines. */
function styleRuns(line: StyledLine): string[] {
	const runs: string[] = [];
	let column = 0;
	let open: {start: number; end: number; labels: string} | undefined;
	const close = () => {
		if (open !== undefined) {
			runs.push(`  style ${open.start}-${open.end} ${open.labels}`);
			open = undefined;
		}
	};

	for (const item of line.spans) {
		const labels = styleLabels(item);
		const width = item.text === '' ? 0 : displayWidth(item.text);
		if (width === 0) {
			continue;
		}

		if (labels === '') {
			close();
		} else if (open !== undefined && open.labels === labels && open.end === column - 1) {
			open.end = column + width - 1;
		} else {
			close();
			open = {start: column, end: column + width - 1, labels};
		}

		column += width;
	}

	close();
	return runs;
}

function isBlank(line: StyledLine): boolean {
	return line.softWrap !== true && line.spans.every(item => item.text === '');
}

/** Rows as the frame format, after an optional header line; ends with a newline. */
export function serializeFrame(lines: readonly StyledLine[], header?: string): string {
	const out: string[] = [];
	if (header !== undefined) {
		out.push(header);
	}

	let index = 0;
	while (index < lines.length) {
		const line = lines[index]!;
		if (isBlank(line)) {
			let end = index;
			while (end + 1 < lines.length && isBlank(lines[end + 1]!)) {
				end++;
			}

			out.push(end === index ? `${index}| <blank>` : `${index}-${end}| <blank>`);
			index = end + 1;
			continue;
		}

		out.push(`${index}${line.softWrap === true ? '~' : ''}| ${JSON.stringify(lineText(line))}`);
		for (const run of styleRuns(line)) {
			out.push(run);
		}
		index++;
	}

	return `${out.join('\n')}\n`;
}

/** Display cells of a row, for callers that check a frame against a width. */
export function rowWidth(line: StyledLine): number {
	let width = 0;
	for (const item of line.spans) {
		for (const grapheme of graphemes(item.text)) {
			width += displayWidth(grapheme);
		}
	}

	return width;
}
