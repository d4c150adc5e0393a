/**
@module Bounded Markdown lexing. `marked`'s lexer (never its HTML renderer) turns one top-level
block into tokens, but only a bounded prefix of it: its emphasis and bracket matching is quadratic in
the number of delimiters (100 KB of `_a__` takes seconds) and nested containers recurse (a few
thousand `>` overflow the stack). So a block is lexed up to `MARKDOWN_LEX_CHARS` characters and
`MARKDOWN_LEX_DELIMITERS` delimiter characters (cut at a line break when there is one), the rest is
shown as plain text, and container nesting is clamped to `MARKDOWN_MAX_DEPTH` before lexing.
*/
import {Lexer, type Links, type Token} from 'marked';
import {fastLex} from './markdown-fast-lex.js';

/** Characters of one block given to the lexer at most. */
export const MARKDOWN_LEX_CHARS = 8 * 1024;

/** Inline delimiter characters (`*_~[]<>`` ` ``) of one block given to the lexer at most. */
export const MARKDOWN_LEX_DELIMITERS = 512;

/** Lists and quotes nest at most this deep; deeper ones are shown flat. */
export const MARKDOWN_MAX_DEPTH = 8;

/** Leading indentation kept on a line outside code: enough for `MARKDOWN_MAX_DEPTH` list levels and indented code. */
const MAX_INDENT = 4 * (MARKDOWN_MAX_DEPTH + 1);

/** A block's tokens and the part of its text past the lexing bound (shown plain; '' when none). */
export type LexedBlock = {readonly tokens: readonly Token[]; readonly rest: string};

/** Inline delimiters: `*_~[]<>` and the backtick. */
const delimiter = /[*_~[\]<>`]/g;

/** Where the lexed part of `text` ends: within both bounds, at a line break when one is there. */
export function lexCut(text: string): number {
	const limit = Math.min(text.length, MARKDOWN_LEX_CHARS);
	let index = limit;
	// A text no longer than the delimiter bound cannot pass it.
	if (text.length > MARKDOWN_LEX_DELIMITERS) {
		const head = text.length > limit ? text.slice(0, limit) : text;
		let delimiters = 0;
		delimiter.lastIndex = 0;
		for (let match = delimiter.exec(head); match !== null; match = delimiter.exec(head)) {
			if (++delimiters > MARKDOWN_LEX_DELIMITERS) {
				index = match.index;
				break;
			}
		}
	}

	if (index >= text.length) {
		return text.length;
	}

	const lineBreak = text.lastIndexOf('\n', index - 1);
	if (lineBreak > 0) {
		return lineBreak;
	}

	// One long line: cut inside it, never between the halves of a surrogate pair.
	const code = text.charCodeAt(index - 1);
	return code >= 0xd8_00 && code <= 0xdb_ff ? index - 1 : index;
}

const containerMarker = /^[ \t]*(?:>|[-+*][ \t]|\d{1,9}[.)][ \t])[ \t]*/;
const fenceLine = /^[ \t]*(`{3,}|~{3,})/;

/** Leading columns of whitespace (a tab to the next multiple of 4, as CommonMark counts). */
function clampIndent(line: string): string {
	let columns = 0;
	let index = 0;
	while (index < line.length && (line[index] === ' ' || line[index] === '\t')) {
		columns = line[index] === '\t' ? columns + 4 - (columns % 4) : columns + 1;
		index++;
	}

	return columns > MAX_INDENT ? ' '.repeat(MAX_INDENT) + line.slice(index) : line;
}

/** Keep at most `MARKDOWN_MAX_DEPTH` container markers (`>`, `-`, `1.`) at the start of a line. */
function clampMarkers(line: string): string {
	let rest = line;
	let prefix = '';
	for (let count = 0; count < MARKDOWN_MAX_DEPTH; count++) {
		const match = containerMarker.exec(rest);
		if (match === null) {
			return line;
		}

		prefix += match[0];
		rest = rest.slice(match[0].length);
	}

	while (true) {
		const match = containerMarker.exec(rest);
		if (match === null) {
			return prefix + rest;
		}

		rest = rest.slice(match[0].length);
	}
}

/**
Text with container nesting clamped, so the lexer's recursion stays shallow: lines outside code
fences lose container markers past `MARKDOWN_MAX_DEPTH` and indentation past what that depth needs.
Ordinary Markdown is returned unchanged.
*/
export function clampNesting(text: string): string {
	const lines = text.split('\n');
	let fence: string | undefined;
	for (const [index, line] of lines.entries()) {
		const opening = fenceLine.exec(line);
		if (fence !== undefined) {
			if (opening !== null && opening[1]![0] === fence[0] && opening[1]!.length >= fence.length) {
				fence = undefined;
			}

			continue;
		}

		if (opening !== null) {
			fence = opening[1]!;
		}

		lines[index] = clampMarkers(clampIndent(line));
	}

	return lines.join('\n');
}

/**
One block lexed within the bounds, with the message's other link reference definitions. When the
lexer fails (it should not, but it recurses), the whole block is shown plain. The commonest shapes
of prose get marked's very tokens without it (`fastLex`).
*/
export function lexBlock(text: string, links?: Links): LexedBlock {
	const cut = lexCut(text);
	const rest = cut >= text.length ? '' : text.slice(text[cut] === '\n' ? cut + 1 : cut);
	const fast = fastLex(text.slice(0, cut));
	if (fast !== undefined) {
		return {tokens: fast, rest};
	}

	try {
		const lexer = new Lexer();
		if (links !== undefined) {
			Object.assign(lexer.tokens.links, links);
		}

		return {tokens: lexer.lex(clampNesting(text.slice(0, cut))), rest};
	} catch {
		return {tokens: [], rest: text};
	}
}
