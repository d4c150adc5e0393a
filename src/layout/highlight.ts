/**
@module Syntax colours for lines of code with an explicit language, as spans on the 16 ANSI colours.

cli-highlight (CommonJS, and loading every highlight.js grammar costs ~150 ms) is required lazily
on first use. It is given a theme of our own for every token, so its output never depends on
chalk's colour detection (which reads the environment): the formatter writes plain SGR codes that
`highlight-ansi.ts` parses back into spans. Red and green are left out of the palette because they
mean removed and added in a diff.

Highlighting never changes the text: input holding an escape byte or a newline is not highlighted,
and the spans of every line are checked to join back to the line exactly (the HTML round trip
inside cli-highlight would otherwise turn a `\r` or NUL into something else).
*/
import {isAnsiColor} from './color-depth.js';
import {createRequire} from 'node:module';
import {grammarFor} from './highlight-lang.js';
import {parseSgrLines} from './highlight-ansi.js';
import type {AnsiColor, Span, Style} from './styled-line.js';

/** Larger inputs are not highlighted (cost grows linearly: ~75 µs a line). */
export const HIGHLIGHT_MAX_LINES = 400;

/** Larger inputs are not highlighted (UTF-16 units of all lines together). */
export const HIGHLIGHT_MAX_CHARS = 64 * 1024;

/** highlight.js token class to style. Tokens not listed stay unstyled. */
const tokenStyles: Readonly<Record<string, Style>> = {
	keyword: {fg: 'magenta'},
	built_in: {fg: 'cyan'},
	type: {fg: 'cyan'},
	literal: {fg: 'blue'},
	number: {fg: 'blue'},
	regexp: {fg: 'yellow'},
	string: {fg: 'yellow'},
	title: {fg: 'blue'},
	comment: {fg: 'gray', italic: true},
	doctag: {fg: 'gray'},
	meta: {fg: 'gray'},
	'meta-keyword': {fg: 'magenta'},
	'meta-string': {fg: 'yellow'},
	section: {fg: 'blue', bold: true},
	tag: {fg: 'gray'},
	name: {fg: 'blue'},
	attr: {fg: 'cyan'},
	attribute: {fg: 'cyan'},
	bullet: {fg: 'yellow'},
	emphasis: {italic: true},
	strong: {bold: true},
	link: {underline: true},
	quote: {fg: 'gray'},
	'selector-tag': {fg: 'magenta'},
	'selector-id': {fg: 'blue'},
	'selector-class': {fg: 'blue'},
	'selector-attr': {fg: 'cyan'},
	'selector-pseudo': {fg: 'cyan'},
	'template-tag': {fg: 'magenta'},
	'template-variable': {fg: 'cyan'},
};

const foregroundCodes: Readonly<Record<AnsiColor, number>> = {
	black: 30, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, white: 37,
	gray: 90, brightRed: 91, brightGreen: 92, brightYellow: 93, brightBlue: 94, brightMagenta: 95, brightCyan: 96, brightWhite: 97,
};

const reset = '\u001B[0m';

function openSequence(style: Style): string {
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

	return `\u001B[${codes.join(';')}m`;
}

type Formatter = (text: string) => string;

const plain: Formatter = text => text;

/**
A formatter that styles a token and restores it after any nested token's reset (nested tokens reset
to nothing, then the outer style is opened again).
*/
function formatterFor(style: Style): Formatter {
	const open = openSequence(style);
	return text => open + text.replaceAll(reset, reset + open) + reset;
}

/** One formatter per token key: cli-highlight looks the theme up for every token it colours. */
const formatters = new Map<string | symbol, Formatter>();

/** Every token key resolves here, so cli-highlight never falls back to its chalk-based defaults. */
const sgrTheme: Record<string, Formatter> = new Proxy({}, {
	get(_target, key) {
		let formatter = formatters.get(key);
		if (formatter === undefined) {
			const style = typeof key === 'string' ? tokenStyles[key] : undefined;
			formatter = style === undefined ? plain : formatterFor(style);
			formatters.set(key, formatter);
		}

		return formatter;
	},
});

type CliHighlight = {highlight(code: string, options: {language: string; ignoreIllegals: boolean; theme: unknown}): string; supportsLanguage(name: string): boolean};

let loaded: CliHighlight | undefined;

function cliHighlight(): CliHighlight {
	loaded ??= createRequire(import.meta.url)('cli-highlight') as CliHighlight;
	return loaded;
}

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
		if (text.includes('\n') || text.includes('\u001B')) {
			return undefined;
		}
	}

	if (chars > HIGHLIGHT_MAX_CHARS) {
		return undefined;
	}

	if (texts.length === 0) {
		return [];
	}

	const library = cliHighlight();
	if (!library.supportsLanguage(grammar)) {
		return undefined;
	}

	let ansi: string;
	try {
		ansi = library.highlight(texts.join('\n'), {language: grammar, ignoreIllegals: true, theme: sgrTheme});
	} catch {
		// A grammar bug on odd input: show the text unhighlighted rather than fail the card.
		return undefined;
	}

	const lines = parseSgrLines(ansi);
	if (lines.length !== texts.length) {
		return undefined;
	}

	for (const [index, spans] of lines.entries()) {
		if (spans.map(span => span.text).join('') !== texts[index]) {
			return undefined;
		}
	}

	return lines;
}
