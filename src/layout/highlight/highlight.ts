/**
@module Syntax colours for lines of code with an explicit language, as spans on the 16 ANSI colours.

highlight.js (CommonJS, and loading every grammar costs ~150 ms) is required lazily on first use.
Its result's token tree is walked into spans (`highlight-tree.ts`), each token class styled by the
table below; red and green are left out of the palette because they mean removed and added in a
diff. Until issue 16 cli-highlight rendered that tree as HTML, parsed it back and wrote SGR codes
that were parsed into spans again; the walk gives the very same spans (tested against it) at a
quarter of the cost, so its reading rules are kept: a token class is read up to its first character
that is not a word character (`meta-keyword` reads as `meta`), styles nest (an inner token's
colour over an outer token's attributes), and input the HTML step would have altered is not coloured.

Highlighting never changes the text: input holding an escape byte, a newline, a CR or a NUL is not
highlighted (an HTML parser turns a CR into a newline and drops a NUL), and the spans of every line
are checked to join back to the line exactly.
*/
import {isAnsiColor} from '../terminal/color-depth.js';
import {createRequire} from 'node:module';
import {grammarFor} from './highlight-lang.js';
import {tokenTreeLines, type TokenBranch, type TokenNode} from './highlight-tree.js';
import {applySgr, blankStyle} from '../terminal/sgr.js';
import type {AnsiColor, Span, Style} from '../text/styled-line.js';

/** Larger inputs are not highlighted (cost grows linearly: ~75 µs a line). */
export const HIGHLIGHT_MAX_LINES = 400;

/** Larger inputs are not highlighted (UTF-16 units of all lines together). */
export const HIGHLIGHT_MAX_CHARS = 64 * 1024;

/**
highlight.js token class to style. Tokens not listed stay unstyled. A class is read up to its first
non-word character, so `meta-keyword`, `selector-tag` or `template-variable` read as `meta`,
`selector` and `template`, as cli-highlight read them.
*/
const tokenStyles: ReadonlyMap<string, Style> = new Map<string, Style>([
	['keyword', {fg: 'magenta'}],
	['built_in', {fg: 'cyan'}],
	['type', {fg: 'cyan'}],
	['literal', {fg: 'blue'}],
	['number', {fg: 'blue'}],
	['regexp', {fg: 'yellow'}],
	['string', {fg: 'yellow'}],
	['title', {fg: 'blue'}],
	['comment', {fg: 'gray', italic: true}],
	['doctag', {fg: 'gray'}],
	['meta', {fg: 'gray'}],
	['section', {fg: 'blue', bold: true}],
	['tag', {fg: 'gray'}],
	['name', {fg: 'blue'}],
	['attr', {fg: 'cyan'}],
	['attribute', {fg: 'cyan'}],
	['bullet', {fg: 'yellow'}],
	['emphasis', {italic: true}],
	['strong', {bold: true}],
	['link', {underline: true}],
	['quote', {fg: 'gray'}],
]);

const foregroundCodes: Readonly<Record<AnsiColor, number>> = {
	black: 30, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, white: 37,
	gray: 90, brightRed: 91, brightGreen: 92, brightYellow: 93, brightBlue: 94, brightMagenta: 95, brightCyan: 96, brightWhite: 97,
};

/** A token style as SGR parameters: nesting applies them over the outer style, as a terminal would. */
function sgrParameters(style: Style): string {
	const codes: number[] = [];
	// The highlighter's palette is the 16 colours.
	if (style.fg !== undefined && isAnsiColor(style.fg)) {
		codes.push(foregroundCodes[style.fg]);
	}

	if (style.bold === true) {
		codes.push(1);
	}

	if (style.italic === true) {
		codes.push(3);
	}

	if (style.underline === true) {
		codes.push(4);
	}

	return codes.join(';');
}

const tokenClassPattern = /hljs-(\w+)/;

/** The SGR parameters of a node kind (undefined: it styles nothing), once per kind. */
const kindParameters = new Map<string, string | undefined>();

function parametersOf(node: TokenBranch): string | undefined {
	const {kind} = node;
	if (kind === undefined || kind === '') {
		return undefined;
	}

	// The class the HTML carried: a sub-language's is its name alone, so it reads as no token.
	const key = node.sublanguage === true ? `language:${kind}` : kind;
	if (kindParameters.has(key)) {
		return kindParameters.get(key);
	}

	const token = tokenClassPattern.exec(node.sublanguage === true ? kind : `hljs-${kind}`)?.[1];
	const style = token === undefined ? undefined : tokenStyles.get(token);
	const parameters = style === undefined ? undefined : sgrParameters(style);
	kindParameters.set(key, parameters);
	return parameters;
}

/** Nested styles by outer style (identity) and parameters: few distinct ones, built once each. */
const nestedStyles = new Map<Style, Map<string, Style>>();

function nodeStyle(outer: Style, node: TokenBranch): Style {
	const parameters = parametersOf(node);
	if (parameters === undefined) {
		return outer;
	}

	let byParameters = nestedStyles.get(outer);
	if (byParameters === undefined) {
		byParameters = new Map();
		nestedStyles.set(outer, byParameters);
	}

	let style = byParameters.get(parameters);
	if (style === undefined) {
		style = applySgr(outer, parameters, {extendedColors: false});
		byParameters.set(parameters, style);
	}

	return style;
}

type HighlightResult = {readonly illegal?: boolean; readonly errorRaised?: unknown; readonly emitter: {readonly rootNode: TokenNode}};

type HighlightJs = {
	highlight(code: string, options: {language: string; ignoreIllegals: boolean}): HighlightResult;
	getLanguage(name: string): unknown;
};

let loaded: HighlightJs | undefined;

function highlightJs(): HighlightJs {
	loaded ??= createRequire(import.meta.url)('highlight.js') as HighlightJs;
	return loaded;
}

/** Text an HTML parser alters (a CR becomes a newline, a NUL is dropped), or an escape or newline. */
const unhighlightable = /[\n\r\0\u001B]/;

const surrogate = /[\uD800-\uDFFF]/;

/**
Syntax colours for `texts` (one line each, no newlines) in the explicit language `lang` (a read
card's `lang` such as `ts`, or a highlight.js grammar name). Returns one span list per line whose
texts join to exactly that line (an empty line is an empty list), or undefined for an unknown
language, input over `HIGHLIGHT_MAX_LINES` / `HIGHLIGHT_MAX_CHARS`, or input it cannot colour
without changing it.
*/
export function highlightLines(texts: readonly string[], lang: string): Span[][] | undefined {
	const grammar = grammarFor(lang);
	if (grammar === undefined || texts.length > HIGHLIGHT_MAX_LINES) {
		return undefined;
	}

	let chars = 0;
	for (const text of texts) {
		chars += text.length;
		if (unhighlightable.test(text)) {
			return undefined;
		}
	}

	if (chars > HIGHLIGHT_MAX_CHARS) {
		return undefined;
	}

	if (texts.length === 0) {
		return [];
	}

	const library = highlightJs();
	if (library.getLanguage(grammar) === undefined) {
		return undefined;
	}

	const code = texts.join('\n');
	let lines: Span[][] | undefined;
	try {
		const result = library.highlight(code, {language: grammar, ignoreIllegals: true});
		// A grammar that failed part way yields its text as one plain string (the tree is partial).
		lines = result.illegal === true || result.errorRaised !== undefined
			? texts.map(text => (text === '' ? [] : [{text}]))
			: tokenTreeLines(result.emitter.rootNode, nodeStyle, blankStyle, surrogate.test(code));
	} catch {
		// A grammar bug on odd input: show the text unhighlighted rather than fail the card.
		return undefined;
	}

	if (lines?.length !== texts.length) {
		return undefined;
	}

	for (const [index, spans] of lines.entries()) {
		if (spans.map(span => span.text).join('') !== texts[index]) {
			return undefined;
		}
	}

	return lines;
}
