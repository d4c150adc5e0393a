/**
@module A Markdown code block as logical lines, as the peers draw one: no fence rows (the fences are
markup, not content), the code indented by `CODE_INDENT` so its extent shows without colour,
sanitized, and syntax-coloured by its info string's language through `highlightLines` (within that
function's limits, in the colour theme only). A block still streaming (no closing fence) is not
coloured: it would be highlighted again on every delta. Copying the message gives its Markdown
source, fences included (`markdownCopyText`).
*/
import {highlightLines} from '../highlight/highlight.js';
import {sanitizeLine} from '../text/sanitize.js';
import {span} from '../text/spans.js';
import type {Span} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';

/** What a code block is drawn from. */
export type CodeBlock = {
	/** The code, lines joined by `\n`. */
	readonly code: string;
	/** The info string's first word ('' for none). */
	readonly lang: string;
	/** Whether it has a closing fence. */
	readonly closed: boolean;
};

/** Columns code lines are indented by. */
export const CODE_INDENT = '  ';

/** The code block as logical lines: its code, indented (an empty line stays empty). */
export function codeBlockLines(block: CodeBlock, theme: Theme): Span[][] {
	const texts = block.code === '' ? [] : block.code.split('\n').map(line => sanitizeLine(line.endsWith('\r') ? line.slice(0, -1) : line));
	const colours = block.closed && block.lang !== '' && theme.name === 'color' ? highlightLines(texts, block.lang) : undefined;
	const indent = span(CODE_INDENT);
	return texts.map((text, index) => (text === '' ? [] : [indent, ...(colours?.[index] ?? [span(text)])]));
}

/** A top-level fence block's source (opening line, code, closing line) as a `CodeBlock`. */
export function fencedCode(text: string, lang: string, closed: boolean): CodeBlock {
	const lines = text.split('\n');
	const body = lines.slice(1, closed ? -1 : undefined);
	return {code: body.join('\n'), lang, closed};
}
