/**
@module A Markdown code block as logical lines: its fences as muted rows (so a block's extent shows
without colour, and a block copied from the terminal is still Markdown), the code between them
unindented, sanitized, and syntax-coloured by its info string through `highlightLines` (within that
function's limits, in the colour theme only). A block still streaming (no closing fence) is not
coloured: it would be highlighted again on every delta.
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
	/** The opening fence as written (```` ``` ````, `~~~~`). */
	readonly marker: string;
	/** Whether it has a closing fence. */
	readonly closed: boolean;
};

/** The code block as logical lines (fences included). */
export function codeBlockLines(block: CodeBlock, theme: Theme): Span[][] {
	const texts = block.code === '' ? [] : block.code.split('\n').map(line => sanitizeLine(line.endsWith('\r') ? line.slice(0, -1) : line));
	const colours = block.closed && block.lang !== '' && theme.name === 'color' ? highlightLines(texts, block.lang) : undefined;
	const lines: Span[][] = [[span(sanitizeLine(`${block.marker}${block.lang}`), theme.muted)]];
	for (const [index, text] of texts.entries()) {
		lines.push(colours?.[index] ?? (text === '' ? [] : [span(text)]));
	}

	if (block.closed) {
		lines.push([span(sanitizeLine(block.marker), theme.muted)]);
	}

	return lines;
}

/** A top-level fence block's source (opening line, code, closing line) as a `CodeBlock`. */
export function fencedCode(text: string, marker: string, lang: string, closed: boolean): CodeBlock {
	const lines = text.split('\n');
	const body = lines.slice(1, closed ? -1 : undefined);
	return {code: body.join('\n'), lang, marker, closed};
}
