/**
@module How a live screen draws, decided once for both kinds of session (native and ACP): colour
(`--color`/`--no-color`, then the environment), its depth, hyperlinks, motion (a running card's
spinner; off under `CARDTERM_REDUCED_MOTION` or without colour), and how it calls the person back
(the window title, notifications: the config's `notifications` and `terminalTitle`, the terminal
the environment names). No React here: a continued session's history is written with this style
before the screen loads.
*/
import type {AttentionOptions} from '../../../components/attention.js';
import type {CardtermConfig} from '../../config/load-config.js';
import type {CliIo} from '../environment/cli-io.js';
import {outputColors, type OutputColors} from '../print/output-options.js';
import {attentionTerminal, motionEnabled} from '../environment/terminal-env.js';

export type ScreenStyle = OutputColors & {readonly motion: boolean; readonly attention?: AttentionOptions};

/** The config's settings a screen reads. */
export type ScreenSettings = Pick<CardtermConfig, 'notifications' | 'terminalTitle'>;

/** The colours as every command's output takes them (`output-options.ts`), motion, and the calls back. */
export function screenStyle(colorFlag: boolean | undefined, io: Pick<CliIo, 'env' | 'isTTY'>, settings: ScreenSettings = {}): ScreenStyle {
	const colors = outputColors(colorFlag, io);
	const terminal = attentionTerminal(io.env);
	const attention: AttentionOptions = {terminal: {...terminal, title: terminal.title && settings.terminalTitle !== false}, notifications: settings.notifications ?? 'auto'};
	return {...colors, motion: motionEnabled(colors.color, io.env), ...(io.isTTY ? {attention} : {})};
}
