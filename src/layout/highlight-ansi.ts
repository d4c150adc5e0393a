/**
@module A small SGR parser for the highlighter's own output: ANSI text to styled spans per line.

It reads only what `highlight.ts` makes cli-highlight write (the 16 foregrounds, bold, dim, italic,
underline, inverse, strikethrough, their resets and `0`), and drops any other escape sequence. It is
not a terminal emulator: tool output goes through the terminal-output line emulator instead (which
also parses SGR; the two overlap only in the SGR code table).
*/
import type {AnsiColor, Span, Style} from './styled-line.js';

const foregrounds: readonly AnsiColor[] = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];
const brightForegrounds: readonly AnsiColor[] = [
	'gray', 'brightRed', 'brightGreen', 'brightYellow', 'brightBlue', 'brightMagenta', 'brightCyan', 'brightWhite',
];

type MutableStyle = {-readonly [Key in keyof Style]: Style[Key]};

/** Attribute codes and their resets. Anything else (backgrounds, blink, fonts) is not ours to draw. */
const attributeCodes: ReadonlyMap<number, (style: MutableStyle) => void> = new Map([
	[1, style => {
		style.bold = true;
	}],
	[2, style => {
		style.dim = true;
	}],
	[3, style => {
		style.italic = true;
	}],
	[4, style => {
		style.underline = true;
	}],
	[7, style => {
		style.inverse = true;
	}],
	[9, style => {
		style.strikethrough = true;
	}],
	[22, style => {
		delete style.bold;
		delete style.dim;
	}],
	[23, style => {
		delete style.italic;
	}],
	[24, style => {
		delete style.underline;
	}],
	[27, style => {
		delete style.inverse;
	}],
	[29, style => {
		delete style.strikethrough;
	}],
	[39, style => {
		delete style.fg;
	}],
]);

/** Apply one SGR parameter list (the text between `ESC [` and `m`) to `style`. */
function applySgr(style: MutableStyle, parameters: string): MutableStyle {
	const codes = parameters === '' ? [0] : parameters.split(';').map(Number);
	let next: MutableStyle = {...style};
	for (let index = 0; index < codes.length; index++) {
		const code = codes[index]!;
		if (code === 38 || code === 48 || code === 58) {
			// Extended colours carry their own parameters (`5;n` or `2;r;g;b`): skip them whole.
			index += codes[index + 1] === 5 ? 2 : (codes[index + 1] === 2 ? 4 : 0);
		} else if (code === 0) {
			next = {};
		} else if (code >= 30 && code <= 37) {
			next.fg = foregrounds[code - 30];
		} else if (code >= 90 && code <= 97) {
			next.fg = brightForegrounds[code - 90];
		} else {
			attributeCodes.get(code)?.(next);
		}
	}

	return next;
}

function sameStyle(a: Style, b: Style): boolean {
	return a.fg === b.fg && a.bold === b.bold && a.dim === b.dim && a.italic === b.italic
		&& a.underline === b.underline && a.inverse === b.inverse && a.strikethrough === b.strikethrough;
}

function pushSpan(line: Span[], text: string, style: Style): void {
	if (text === '') {
		return;
	}

	const last = line.at(-1);
	const lastStyle = last?.style ?? {};
	if (last !== undefined && sameStyle(lastStyle, style)) {
		line[line.length - 1] = Object.keys(style).length === 0 ? {text: last.text + text} : {text: last.text + text, style};
		return;
	}

	line.push(Object.keys(style).length === 0 ? {text} : {text, style: {...style}});
}

/** Any CSI sequence (SGR is the one with final byte `m`), or a lone ESC with what follows it. */
const escapePattern = /\u001B\[([0-9;]*)([\u0040-\u007E])|\u001B./gsu;

/**
Split ANSI text at `\n` into lines of spans. SGR state carries across lines (a comment spanning
lines stays styled); adjacent runs with the same style merge; an empty line is an empty array.
*/
export function parseSgrLines(text: string): Span[][] {
	const lines: Span[][] = [[]];
	let style: MutableStyle = {};
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
			style = applySgr(style, match[1]!);
		}
	}

	pushText(text.slice(position));
	return lines;
}
