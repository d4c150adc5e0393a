/**
@module The SGR code table: one parameter list (`ESC [ … m`) applied to a span style. Shared by the
terminal-output line emulator (tool output) and the highlighter's ANSI parser (highlight-ansi.ts).
Only the 16 foregrounds and the attributes cardterm draws are kept; backgrounds, 256-colour and RGB
foregrounds beyond the 16, blink, conceal and fonts are dropped.
*/
import type {AnsiColor, Style} from './styled-line.js';

/** The 16 colours in SGR index order (30–37 then 90–97). */
const palette: readonly AnsiColor[] = [
	'black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white',
	'gray', 'brightRed', 'brightGreen', 'brightYellow', 'brightBlue', 'brightMagenta', 'brightCyan', 'brightWhite',
];

type MutableStyle = {-readonly [K in keyof Style]: Style[K]};

/** The style of plain text; `applySgr` returns this very object for no attributes, so callers may compare by identity. */
export const blankStyle: Style = Object.freeze({});

/** How `applySgr` reads extended foregrounds. */
export type SgrOptions = {
	/**
	Whether an extended foreground (`38;5;n`, `38:5:n`, `38;2;r;g;b`) changes the style: indexes 0–15
	map onto the 16 colours, anything else clears the foreground. Default true (tool output asked for
	a colour). The highlighter's parser turns it off: its palette is the 16 basic codes, so anything
	else is skipped whole and leaves the style as it was.
	*/
	readonly extendedForeground?: boolean;
};

/**
Apply one SGR parameter list (the text between `ESC [` and `m`: `1;31`, `38;5;9`, `4:3`) to a style.
The result is frozen and normalized (no `undefined` keys), `blankStyle` when nothing is set.
*/
export function applySgr(current: Style, parameters: string, options: SgrOptions = {}): Style {
	const extendedForeground = options.extendedForeground ?? true;
	const style: MutableStyle = {...current};
	const parts = parameters === '' ? ['0'] : parameters.split(';');
	for (let index = 0; index < parts.length; index++) {
		const part = parts[index]!;
		if (part.includes(':')) {
			// Colon sub-parameters: `4:0` underline off, `4:n` underline style, `38:5:n` / `38:2::r:g:b`.
			const [head, ...rest] = part.split(':');
			if (head === '4') {
				style.underline = rest[0] !== '0' ? true : undefined;
			} else if (head === '38' && rest[0] === '5' && extendedForeground) {
				setIndexedColor(style, Number(rest[1]));
			}

			continue;
		}

		const code = part === '' ? 0 : Number(part);
		if (code === 38 || code === 48 || code === 58) {
			// Extended colour: `5;n` or `2;r;g;b`. Only foreground indexes 0–15 map onto the 16 colours.
			const mode = parts[index + 1];
			if (mode === '5') {
				if (code === 38 && extendedForeground) {
					setIndexedColor(style, Number(parts[index + 2]));
				}

				index += 2;
			} else if (mode === '2') {
				if (code === 38 && extendedForeground) {
					style.fg = undefined;
				}

				index += 4;
			}

			continue;
		}

		applySgrCode(style, code);
	}

	return normalize(style);
}

function setIndexedColor(style: MutableStyle, index: number): void {
	style.fg = Number.isInteger(index) && index >= 0 && index < 16 ? palette[index] : undefined;
}

function applySgrCode(style: MutableStyle, code: number): void {
	if (code === 0) {
		for (const key of Object.keys(style) as Array<keyof Style>) {
			style[key] = undefined;
		}
	} else if (code === 1) {
		style.bold = true;
	} else if (code === 2) {
		style.dim = true;
	} else if (code === 3) {
		style.italic = true;
	} else if (code === 4) {
		style.underline = true;
	} else if (code === 7) {
		style.inverse = true;
	} else if (code === 9) {
		style.strikethrough = true;
	} else if (code === 22) {
		style.bold = undefined;
		style.dim = undefined;
	} else if (code === 23) {
		style.italic = undefined;
	} else if (code === 24) {
		style.underline = undefined;
	} else if (code === 27) {
		style.inverse = undefined;
	} else if (code === 29) {
		style.strikethrough = undefined;
	} else if (code >= 30 && code <= 37) {
		style.fg = palette[code - 30];
	} else if (code === 39) {
		style.fg = undefined;
	} else if (code >= 90 && code <= 97) {
		style.fg = palette[code - 90 + 8];
	}
	// Backgrounds (40–49, 100–107), blink, conceal and fonts are dropped: cardterm draws no backgrounds.
}

/** A style without `undefined`/`false` keys, so equal styles compare equal key by key. */
function normalize(style: MutableStyle): Style {
	const out: MutableStyle = {};
	if (style.fg !== undefined) {
		out.fg = style.fg;
	}

	for (const key of ['bold', 'dim', 'italic', 'underline', 'inverse', 'strikethrough'] as const) {
		if (style[key] === true) {
			out[key] = true;
		}
	}

	return Object.keys(out).length === 0 ? blankStyle : Object.freeze(out);
}

/** Whether two styles are equal. */
export function sameStyle(a: Style | undefined, b: Style | undefined): boolean {
	if (a === b) {
		return true;
	}

	const left = a ?? blankStyle;
	const right = b ?? blankStyle;
	return left.fg === right.fg && left.bold === right.bold && left.dim === right.dim && left.italic === right.italic
		&& left.underline === right.underline && left.inverse === right.inverse && left.strikethrough === right.strikethrough;
}
