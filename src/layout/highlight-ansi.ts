/**
@module A small SGR parser for the highlighter's own output: ANSI text to styled spans per line.

It reads only what `highlight.ts` makes cli-highlight write (the 16 foregrounds, bold, dim, italic,
underline, inverse, strikethrough, their resets and `0`), and drops any other escape sequence. It is
not a terminal emulator: tool output goes through the terminal-output line emulator instead. Both
apply SGR with the one code table in sgr.ts.
*/
import {applySgr, blankStyle, sameStyle} from './sgr.js';
import type {Span, Style} from './styled-line.js';

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
Split ANSI text at `\n` into lines of spans. SGR state carries across lines (a comment spanning
lines stays styled); adjacent runs with the same style merge; an empty line is an empty array.
*/
export function parseSgrLines(text: string): Span[][] {
	const lines: Span[][] = [[]];
	let style: Style = blankStyle;
	let position = 0;
	const pushText = (chunk: string): void => {
		const parts = chunk.split('\n');
		for (const [index, part] of parts.entries()) {
			if (index > 0) {
				lines.push([]);
			}

			pushSpan(lines.at(-1)!, part, style);
		}
	};

	for (const match of text.matchAll(escapePattern)) {
		pushText(text.slice(position, match.index));
		position = match.index + match[0].length;
		if (match[2] === 'm') {
			style = applySgr(style, match[1]!, {extendedColors: false});
		}
	}

	pushText(text.slice(position));
	return lines;
}
