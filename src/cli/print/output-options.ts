/**
@module How a command's output is drawn, from its flags and its terminal: the one place that turns
`--color`/`--no-color`, `--width`, `--expand` and `--json` (with what `terminal-env.ts` reads from the
environment) into colour, its depth, hyperlinks, the width, whether rows are joined back whole (a
pipe or a file) and the expansion. Every command that prints entries or cards (`replay --print`,
`-p`, `acp -p`, `call`, `run`) reads its options here and writes through `entry-output.ts`; the
screens (the live session, the pager, `watch`, the ACP screen) take their colours here. It loads
none of the row layout, so `replay --json` stays light.
*/
import type {ColorDepth} from '../../layout/terminal/color-depth.js';
import type {Expansion} from '../../layout/text/layout-options.js';
import {colorTheme, monochromeTheme, type Theme} from '../../layout/text/theme.js';
import {positiveInt, UsageError, type ParsedArgs} from '../environment/parse-args.js';
import {colorDepth, colorEnabled, hyperlinksEnabled, printRows} from '../environment/terminal-env.js';

/** The output flags of the commands that print (each adds its own; `replay` adds `--expand`). */
export const PRINT_FLAGS = [{name: 'json'}, {name: 'width', value: true}, {name: 'color'}, {name: 'no-color'}] as const;

/** The stream a command writes to, as the command line sees it (`CliIo`'s stdout, or its stderr). */
export type OutputTerminal = {readonly env: NodeJS.ProcessEnv; readonly isTTY: boolean; readonly columns: number | undefined};

/** How a screen or a stream is coloured. */
export type OutputColors = {
	readonly color: boolean;
	/** The terminal's colour depth (`colorDepth`): extended colours of tool output are mapped down to it. */
	readonly depth: ColorDepth;
	readonly hyperlinks: boolean;
	readonly theme: Theme;
};

/** Everything a printing command's output depends on besides the entries. */
export type OutputOptions = OutputColors & {
	/** One JSON object per entry (`--json`) instead of rows. */
	readonly json: boolean;
	readonly width: number;
	readonly isTTY: boolean;
	/** Join every soft-wrapped row back to its line (a pipe or a file without `--width`: `printRows`). */
	readonly unwrap: boolean;
	/**
	`-p`'s answer is written as the model wrote it (its Markdown), not laid out: to a pipe or a file,
	unless `--width` or `--color` asks for rows (prompt-output.ts).
	*/
	readonly answerAsWritten: boolean;
	/** The session's workspace (relative paths in cards). */
	readonly sessionCwd: string;
	/** `--expand`; absent: each card's default for its outcome. */
	readonly expansion?: Expansion;
	/** The clock relative times are shown against. */
	readonly now: number;
};

/** `--color` → true, `--no-color` → false, neither → undefined (the environment decides). */
export function colorFlagOf(parsed: ParsedArgs): boolean | undefined {
	return parsed.flags.has('color') ? true : (parsed.flags.has('no-color') ? false : undefined);
}

/** The colours of a stream or a screen: the flag wins, then `NO_COLOR`/`FORCE_COLOR`, then whether it is a terminal. */
export function outputColors(colorFlag: boolean | undefined, terminal: Pick<OutputTerminal, 'env' | 'isTTY'>): OutputColors {
	const color = colorEnabled(colorFlag, terminal.env, terminal.isTTY);
	return {color, depth: colorDepth(color, terminal.env), hyperlinks: hyperlinksEnabled(color, terminal.env, terminal.isTTY), theme: color ? colorTheme : monochromeTheme};
}

/** Expansion of `--expand`: none = header and one line, auto = by outcome, all = everything. */
export function expansionOf(value: string | true | undefined, command = 'replay'): Expansion | undefined {
	switch (value) {
		case undefined:
		case 'auto': {
			return undefined;
		}

		case 'none': {
			return 'summary';
		}

		case 'all': {
			return 'full';
		}

		default: {
			throw new UsageError(`${command}: --expand must be none, auto or all, got ${String(value)}`);
		}
	}
}

/** A command's output options from its flags (`PRINT_FLAGS`, `--expand` where it has one), written to `terminal`. */
export function outputOptions(parsed: ParsedArgs, terminal: OutputTerminal, command: string, sessionCwd: string): OutputOptions {
	const widthFlag = positiveInt(parsed, 'width', command);
	const expansion = expansionOf(parsed.flags.get('expand'), command);
	const colorFlag = colorFlagOf(parsed);
	return {
		json: parsed.flags.has('json'),
		...printRows(widthFlag, terminal.columns, terminal.isTTY),
		answerAsWritten: !terminal.isTTY && widthFlag === undefined && colorFlag !== true,
		...outputColors(colorFlag, terminal),
		isTTY: terminal.isTTY,
		sessionCwd,
		now: Date.now(),
		...(expansion === undefined ? {} : {expansion}),
	};
}
