/**
@module Colours at the terminal's depth: how many colours the terminal shows (decided once, in
cli/environment/terminal-env.ts `colorDepth`) and the pure mapping of a colour down to it — truecolor → the
256-colour palette → the 16 — and the readability rule when mapping makes a foreground its own
background. Layout keeps the colour a command asked for; the writers (render-lines.ts, StyledRows)
map it here. A background is never dropped while its foreground is kept: without colour both go
(and the monochrome theme draws a background as inverse, terminal-card.ts).
*/
import type {AnsiColor, Color, Style} from '../text/styled-line.js';

/** Colours the terminal shows: none (no colour at all), the 16, the 256-colour palette, or 24-bit RGB. */
export type ColorDepth = 'none' | 'ansi16' | 'ansi256' | 'truecolor';

/** The 16 colours in SGR index order (30–37 then 90–97). */
export const ANSI_PALETTE: readonly AnsiColor[] = [
	'black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white',
	'gray', 'brightRed', 'brightGreen', 'brightYellow', 'brightBlue', 'brightMagenta', 'brightCyan', 'brightWhite',
];

type Rgb = readonly [number, number, number];

/** xterm's RGB for the 16 (what nearest-colour matching compares against). */
const ANSI_RGB: readonly Rgb[] = [
	[0, 0, 0], [205, 0, 0], [0, 205, 0], [205, 205, 0], [0, 0, 238], [205, 0, 205], [0, 205, 205], [229, 229, 229],
	[127, 127, 127], [255, 0, 0], [0, 255, 0], [255, 255, 0], [92, 92, 255], [255, 0, 255], [0, 255, 255], [255, 255, 255],
];

const CUBE_STEPS = [0, 95, 135, 175, 215, 255] as const;

/** The RGB of a 256-colour index (16–231 the 6×6×6 cube, 232–255 the grey ramp; 0–15 the 16). */
function indexRgb(index: number): Rgb {
	if (index < 16) {
		return ANSI_RGB[index]!;
	}

	if (index >= 232) {
		const level = 8 + ((index - 232) * 10);
		return [level, level, level];
	}

	const cube = index - 16;
	return [CUBE_STEPS[Math.floor(cube / 36)]!, CUBE_STEPS[Math.floor(cube / 6) % 6]!, CUBE_STEPS[cube % 6]!];
}

function hexRgb(hex: string): Rgb {
	return [Number.parseInt(hex.slice(1, 3), 16), Number.parseInt(hex.slice(3, 5), 16), Number.parseInt(hex.slice(5, 7), 16)];
}

function distance(a: Rgb, b: Rgb): number {
	return ((a[0] - b[0]) ** 2) + ((a[1] - b[1]) ** 2) + ((a[2] - b[2]) ** 2);
}

/** Whether a colour is one of the 16. */
export function isAnsiColor(color: Color): color is AnsiColor {
	return typeof color === 'string' && !color.startsWith('#');
}

/**
The SGR parameters that set `color` as foreground (`background` false) or background: `31`, `101`,
`38;5;208`, `48;2;255;0;128`. The colour is written as it is: map it to the depth first.
*/
export function colorParameters(color: Color, background: boolean): string {
	if (isAnsiColor(color)) {
		const index = ANSI_PALETTE.indexOf(color);
		return String((index < 8 ? 30 + index : 90 + index - 8) + (background ? 10 : 0));
	}

	const lead = background ? 48 : 38;
	if (typeof color === 'number') {
		return `${lead};5;${color}`;
	}

	const [red, green, blue] = hexRgb(color);
	return `${lead};2;${red};${green};${blue}`;
}

/** The RGB of any colour. */
export function colorRgb(color: Color): Rgb {
	if (typeof color === 'number') {
		return indexRgb(color);
	}

	return isAnsiColor(color) ? ANSI_RGB[ANSI_PALETTE.indexOf(color)]! : hexRgb(color);
}

/** The nearest of the 16 to an RGB. */
function nearestAnsi(rgb: Rgb): AnsiColor {
	let best = 0;
	for (let index = 1; index < ANSI_RGB.length; index++) {
		if (distance(rgb, ANSI_RGB[index]!) < distance(rgb, ANSI_RGB[best]!)) {
			best = index;
		}
	}

	return ANSI_PALETTE[best]!;
}

/** The nearest 256-colour index (cube or grey ramp, 16–255) to an RGB. */
function nearestIndex(rgb: Rgb): number {
	const step = (value: number) => {
		let best = 0;
		for (let index = 1; index < CUBE_STEPS.length; index++) {
			if (Math.abs(value - CUBE_STEPS[index]!) < Math.abs(value - CUBE_STEPS[best]!)) {
				best = index;
			}
		}

		return best;
	};

	const cube = 16 + (36 * step(rgb[0])) + (6 * step(rgb[1])) + step(rgb[2]);
	const average = (rgb[0] + rgb[1] + rgb[2]) / 3;
	const grey = 232 + Math.max(0, Math.min(23, Math.round((average - 8) / 10)));
	return distance(rgb, indexRgb(grey)) < distance(rgb, indexRgb(cube)) ? grey : cube;
}

/** `color` as the terminal at `depth` can show it (undefined at `none`). */
export function colorAtDepth(color: Color, depth: ColorDepth): Color | undefined {
	if (depth === 'none') {
		return undefined;
	}

	if (isAnsiColor(color) || depth === 'truecolor') {
		return color;
	}

	if (depth === 'ansi256') {
		return typeof color === 'number' ? color : nearestIndex(colorRgb(color));
	}

	return nearestAnsi(colorRgb(color));
}

/**
A style as the terminal at `depth` shows it: colours mapped down; at `none`, no colour at all. A
foreground that lands on the same colour as its background (two greens that were apart at 256
colours, black on a near-black grey) takes the default colour, so the text stays readable.
*/
export function styleAtDepth(style: Style, depth: ColorDepth): Style {
	if (style.fg === undefined && style.bg === undefined) {
		return style;
	}

	if (depth === 'none') {
		const {fg: _fg, bg: _bg, ...rest} = style;
		return rest;
	}

	const fg = style.fg === undefined ? undefined : colorAtDepth(style.fg, depth);
	const bg = style.bg === undefined ? undefined : colorAtDepth(style.bg, depth);
	if (fg === style.fg && bg === style.bg && (fg === undefined || fg !== bg)) {
		return style;
	}

	const {fg: _fg, bg: _bg, ...rest} = style;
	return {...rest, ...(fg === undefined || fg === bg ? {} : {fg}), ...(bg === undefined ? {} : {bg})};
}
