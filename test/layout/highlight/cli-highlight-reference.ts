/**
@module The highlighter as it was until issue 16, kept as the reference the token-tree walk is tested
against: cli-highlight renders highlight.js's result as HTML, parses it back and writes SGR codes
through a theme of ours, which `cli-highlight-sgr.ts` parses into spans. Same limits as the real
one; its own style table (the hyphenated classes included, which cli-highlight never reached).
*/
import {createRequire} from 'node:module';
import {isAnsiColor} from '../../../src/layout/terminal/color-depth.js';
import {grammarFor} from '../../../src/layout/highlight/highlight-lang.js';
import {HIGHLIGHT_MAX_CHARS, HIGHLIGHT_MAX_LINES} from '../../../src/layout/highlight/highlight.js';
import type {AnsiColor, Span, Style} from '../../../src/layout/text/styled-line.js';
import {parseSgrLines} from './cli-highlight-sgr.js';

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

const cliHighlight = createRequire(import.meta.url)('cli-highlight') as CliHighlight;

/** `highlightLines` through cli-highlight's HTML round trip (the code of src/layout/highlight/highlight.ts before issue 16). */
export function referenceHighlightLines(texts: readonly string[], lang: string): Span[][] | undefined {
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

	if (!cliHighlight.supportsLanguage(grammar)) {
		return undefined;
	}

	let ansi: string;
	try {
		ansi = cliHighlight.highlight(texts.join('\n'), {language: grammar, ignoreIllegals: true, theme: sgrTheme});
	} catch {
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
