/**
@module The SGR code table: one parameter list (`ESC [ … m`) applied to a span style. Shared by the
terminal-output line emulator (tool output) and the syntax highlighter (nested token styles, highlight.ts).
Tool output keeps the 16 foregrounds and backgrounds, 256-colour (`38;5;n`, `48;5;n`) and truecolor
(`38;2;r;g;b`, `48;2;r;g;b`, colon forms too) colours and the attributes cardterm draws; writers map
the colours to the terminal's depth (color-depth.ts). Blink, conceal and fonts are dropped.
*/
import {ANSI_PALETTE} from './color-depth.js';
import type {Color, Style} from '../text/styled-line.js';

type MutableStyle = {-readonly [K in keyof Style]: Style[K]};

/** The style of plain text; `applySgr` returns this very object for no attributes, so callers may compare by identity. */
export const blankStyle: Style = Object.freeze({});

/** How `applySgr` reads colours. */
export type SgrOptions = {
	/**
	Whether extended colours and backgrounds change the style. Default true (tool output asked for
	them). The highlighter's parser turns it off: its palette is the 16 foregrounds, so anything else
	is skipped whole and leaves the style as it was.
	*/
	readonly extendedColors?: boolean;
};

/** An extended colour from its SGR sub-parameters (`5;n` or `2;r;g;b`); undefined when malformed. */
function extendedColor(mode: string | undefined, values: readonly (string | undefined)[]): Color | undefined {
	if (mode === '5') {
		const index = Number(values[0]);
		if (!Number.isInteger(index) || index < 0 || index > 255 || values[0] === '') {
			return undefined;
		}

		return index < 16 ? ANSI_PALETTE[index] : index;
	}

	if (mode === '2') {
		const channels = values.slice(0, 3).map(value => Number(value));
		if (channels.length < 3 || channels.some(value => !Number.isInteger(value) || value < 0 || value > 255) || values.slice(0, 3).some(value => value === '' || value === undefined)) {
			return undefined;
		}

		return `#${channels.map(value => value.toString(16).padStart(2, '0')).join('')}`;
	}

	return undefined;
}

/**
Apply one SGR parameter list (the text between `ESC [` and `m`: `1;31`, `38;5;9`, `4:3`) to a style.
The result is frozen and normalized (no `undefined` keys), `blankStyle` when nothing is set.
*/
export function applySgr(current: Style, parameters: string, options: SgrOptions = {}): Style {
	const extended = options.extendedColors ?? true;
	const style: MutableStyle = {...current};
	const parts = parameters === '' ? ['0'] : parameters.split(';');
	for (let index = 0; index < parts.length; index++) {
		const part = parts[index]!;
		if (part.includes(':')) {
			// Colon sub-parameters: `4:0` underline off, `4:n` underline style, `38:5:n` / `38:2::r:g:b` / `38:2:r:g:b`.
			const [head, ...rest] = part.split(':');
			if (head === '4') {
				style.underline = rest[0] !== '0' ? true : undefined;
			} else if ((head === '38' || head === '48') && extended) {
				// `38:2::r:g:b` carries an empty colour-space id before the channels.
				const values = rest[0] === '2' && rest.length >= 5 ? rest.slice(2) : rest.slice(1);
				setColor(style, head === '38' ? 'fg' : 'bg', extendedColor(rest[0], values));
			}

			continue;
		}

		const code = part === '' ? 0 : Number(part);
		if (code === 38 || code === 48 || code === 58) {
			// Extended colour: `5;n` or `2;r;g;b` (58, the underline colour, is read and dropped).
			const mode = parts[index + 1];
			const width = mode === '5' ? 1 : (mode === '2' ? 3 : 0);
			if (code !== 58 && extended && width > 0) {
				setColor(style, code === 38 ? 'fg' : 'bg', extendedColor(mode, parts.slice(index + 2, index + 2 + width)));
			}

			index += width === 0 ? 0 : width + 1;
			continue;
		}

		if (!extended && ((code >= 40 && code <= 49) || (code >= 100 && code <= 107))) {
			continue;
		}

		applySgrCode(style, code);
	}

	return normalize(style);
}

/** An extended colour the command asked for; a malformed one resets that colour to the default. */
function setColor(style: MutableStyle, which: 'fg' | 'bg', color: Color | undefined): void {
	style[which] = color;
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
		style.fg = ANSI_PALETTE[code - 30];
	} else if (code === 39) {
		style.fg = undefined;
	} else if (code >= 90 && code <= 97) {
		style.fg = ANSI_PALETTE[code - 90 + 8];
	} else if (code >= 40 && code <= 47) {
		style.bg = ANSI_PALETTE[code - 40];
	} else if (code === 49) {
		style.bg = undefined;
	} else if (code >= 100 && code <= 107) {
		style.bg = ANSI_PALETTE[code - 100 + 8];
	}
	// Blink, conceal and fonts are dropped.
}

/** A style without `undefined`/`false` keys, so equal styles compare equal key by key. */
function normalize(style: MutableStyle): Style {
	const out: MutableStyle = {};
	if (style.fg !== undefined) {
		out.fg = style.fg;
	}

	if (style.bg !== undefined) {
		out.bg = style.bg;
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
	return left.fg === right.fg && left.bg === right.bg && left.bold === right.bold && left.dim === right.dim && left.italic === right.italic
		&& left.underline === right.underline && left.inverse === right.inverse && left.strikethrough === right.strikethrough;
}
