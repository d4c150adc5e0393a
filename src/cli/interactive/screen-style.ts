/**
@module How a live screen draws, decided once for both kinds of session (native and ACP): colour
(`--color`/`--no-color`, then the environment), its depth, hyperlinks, and motion (a running card's
spinner; off under `CARDTERM_REDUCED_MOTION` or without colour). No React here: a continued
session's history is written with this style before the screen loads.
*/
import type {CliIo} from '../environment/cli-io.js';
import {outputColors, type OutputColors} from '../print/output-options.js';
import {motionEnabled} from '../environment/terminal-env.js';

export type ScreenStyle = OutputColors & {readonly motion: boolean};

/** The colours as every command's output takes them (`output-options.ts`), and motion. */
export function screenStyle(colorFlag: boolean | undefined, io: Pick<CliIo, 'env' | 'isTTY'>): ScreenStyle {
	const colors = outputColors(colorFlag, io);
	return {...colors, motion: motionEnabled(colors.color, io.env)};
}
