/**
@module The SGR parser of the highlighter's cli-highlight era (src/layout/highlight-ansi.ts until
issue 16), kept as half of the reference the token-tree walk is tested against
(`cli-highlight-reference.ts`): ANSI text to styled spans per line.

It reads only what the reference makes cli-highlight write (the 16 foregrounds, bold, dim, italic,
underline, inverse, strikethrough, their resets and `0`), and drops any other escape sequence. It
applies SGR with the one code table in src/layout/terminal/sgr.ts.
*/
import {applySgr, blankStyle, sameStyle} from '../../../src/layout/terminal/sgr.js';
import type {Span, Style} from '../../../src/layout/text/styled-line.js';

function pushSpan(line: Span[], text: string, style: Style): void {
	if (text === '') {
		return;
	}

	const last = line.at(-1);
	if (last !== undefined && sameStyle(last.style, style)) {
		line[line.length - 1] = style === blankStyle ? {text: last.text + text} : {text: last.text + text, style};
		return;
	}

	line.push(style === blankStyle ? {text} : {text, style});
}

/** Any CSI sequence (SGR is the one with final byte `m`), or a lone ESC with what follows it. */
const escapePattern = /\u001B\[([0-9;]*)([\u0040-\u007E])|\u001B./gsu;

/**
`applySgr` results by the style they apply to (by identity: `applySgr` returns frozen, normalized
styles, and the highlighter writes the same few parameter lists for every token). Bounded, since the
parser is exported and could be handed any text.
*/
const appliedStyles = new Map<Style, Map<string, Style>>();
const APPLIED_STYLES_LIMIT = 4096;
let appliedCount = 0;

function applied(current: Style, parameters: string): Style {
	let byParameters = appliedStyles.get(current);
	const hit = byParameters?.get(parameters);
	if (hit !== undefined) {
		return hit;
	}

	const style = applySgr(current, parameters, {extendedColors: false});
	if (appliedCount >= APPLIED_STYLES_LIMIT) {
		appliedStyles.clear();
		appliedCount = 0;
		byParameters = undefined;
	}

	if (byParameters === undefined) {
		byParameters = new Map();
		appliedStyles.set(current, byParameters);
	}

	byParameters.set(parameters, style);
	appliedCount++;
	return style;
}

/**
Split ANSI text at `\n` into lines of spans. SGR state carries across lines (a comment spanning
lines stays styled); adjacent runs with the same style merge; an empty line is an empty array.
*/
export function parseSgrLines(text: string): Span[][] {
	let line: Span[] = [];
	const lines: Span[][] = [line];
	let style: Style = blankStyle;
	// The next `\n` at or after the text being pushed: one forward scan for the whole input.
	let newline = text.indexOf('\n');
	const pushText = (from: number, to: number): void => {
		let start = from;
		while (newline !== -1 && newline < to) {
			if (newline >= start) {
				pushSpan(line, text.slice(start, newline), style);
				line = [];
				lines.push(line);
				start = newline + 1;
			}

			newline = text.indexOf('\n', newline + 1);
		}

		pushSpan(line, text.slice(start, to), style);
	};

	let position = 0;
	escapePattern.lastIndex = 0;
	for (let match = escapePattern.exec(text); match !== null; match = escapePattern.exec(text)) {
		pushText(position, match.index);
		position = match.index + match[0].length;
		if (match[2] === 'm') {
			style = applied(style, match[1]!);
		}
	}

	pushText(position, text.length);
	return lines;
}
