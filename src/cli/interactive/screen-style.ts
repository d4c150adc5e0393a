/**
@module How a live screen draws, decided once for both kinds of session (native and ACP): colour
(`--color`/`--no-color`, then the environment), its depth, hyperlinks, and motion (a running card's
spinner; off under `CARDTERM_REDUCED_MOTION` or without colour). No React here: a continued
session's history is written with this style before the screen loads.
*/
import type {ColorDepth} from '../../layout/terminal/color-depth.js';
import {colorTheme, monochromeTheme, type Theme} from '../../layout/text/theme.js';
import type {CliIo} from '../environment/cli-io.js';
import {colorDepth, colorEnabled, hyperlinksEnabled, motionEnabled} from '../environment/terminal-env.js';

export type ScreenStyle = {
	readonly theme: Theme;
	readonly color: boolean;
	readonly depth: ColorDepth;
	readonly hyperlinks: boolean;
	readonly motion: boolean;
};

export function screenStyle(colorFlag: boolean | undefined, io: Pick<CliIo, 'env' | 'isTTY'>): ScreenStyle {
	const color = colorEnabled(colorFlag, io.env, io.isTTY);
	return {
		theme: color ? colorTheme : monochromeTheme,
		color,
		depth: colorDepth(color, io.env),
		hyperlinks: hyperlinksEnabled(color, io.env, io.isTTY),
		motion: motionEnabled(color, io.env),
	};
}
