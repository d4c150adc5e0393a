/**
@module What the command line reads from the environment about the terminal: colour, its depth,
width, hyperlinks. The only place that looks at `NO_COLOR`, `FORCE_COLOR`, `COLORTERM` and `isTTY`;
everything below gets plain values.
*/
import type {ColorDepth} from '../../layout/terminal/color-depth.js';
import type {AttentionTerminal} from '../../layout/terminal/attention-output.js';

/** Colour on or off: `--color`/`--no-color` win, then `NO_COLOR`, then `FORCE_COLOR`, then whether stdout is a TTY. */
export function colorEnabled(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
	if (flag !== undefined) {
		return flag;
	}

	if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') {
		return false;
	}

	if (env.FORCE_COLOR !== undefined) {
		return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
	}

	return isTTY && env.TERM !== 'dumb';
}

/**
How many colours to write, once colour is on (`colorEnabled`): `FORCE_COLOR=1|2|3` says 16 / 256 /
truecolor outright (chalk's convention); else `COLORTERM=truecolor|24bit` or a `TERM` ending in
`-direct` means truecolor, a `TERM` naming 256 colours (`xterm-256color`, `tmux-256color`) means 256;
anything else the 16. Tool output's extended colours are mapped down to this depth (color-depth.ts).
*/
export function colorDepth(color: boolean, env: NodeJS.ProcessEnv): ColorDepth {
	if (!color) {
		return 'none';
	}

	const forced = env.FORCE_COLOR;
	if (forced === '1' || forced === '2' || forced === '3') {
		return forced === '1' ? 'ansi16' : (forced === '2' ? 'ansi256' : 'truecolor');
	}

	const term = env.TERM ?? '';
	if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit' || term.endsWith('-direct')) {
		return 'truecolor';
	}

	return /256(?:col)?/.test(term) ? 'ansi256' : 'ansi16';
}

/** Whether to write OSC 8 links: only on a TTY with colour, and not where the terminal is known to print them raw. */
export function hyperlinksEnabled(color: boolean, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
	if (!color || !isTTY || env.CARDTERM_HYPERLINKS === '0') {
		return false;
	}

	if (env.CARDTERM_HYPERLINKS === '1') {
		return true;
	}

	return env.TERM !== 'linux' && env.TERM !== 'dumb' && env.TERM_PROGRAM !== 'Apple_Terminal';
}

/** The print width: `--width`, else the TTY's columns, else 80. */
export function printWidth(flag: number | undefined, columns: number | undefined): number {
	return flag ?? (columns !== undefined && columns > 0 ? columns : 80);
}

/**
How print mode lays out and writes rows: to a terminal, as wide as it is (its own wrapping continues
soft-wrapped rows); to a pipe or file without `--width`, laid out at the print width but with every
wrapped line joined back whole (`unwrap`), so `grep` on the output works; with `--width N`, rows of N.
*/
export function printRows(flag: number | undefined, columns: number | undefined, isTTY: boolean): {readonly width: number; readonly unwrap: boolean} {
	return {width: printWidth(flag, columns), unwrap: !isTTY && flag === undefined};
}

/**
Whether the live region may animate (a running card's spinner): only with colour on (so `NO_COLOR`,
`--no-color` and a dumb terminal turn it off too) and unless `CARDTERM_REDUCED_MOTION` is set to
anything but `0` or empty.
*/
export function motionEnabled(color: boolean, env: NodeJS.ProcessEnv): boolean {
	const reduced = env.CARDTERM_REDUCED_MOTION;
	return color && (reduced === undefined || reduced === '' || reduced === '0');
}

/**
The terminal a live session calls the person back on (`attention-output.ts`). Inside tmux,
`TERM_PROGRAM` names tmux, so the terminal outside is told by the variables it exports that tmux
keeps (`KITTY_WINDOW_ID`, `LC_TERMINAL`, `VTE_VERSION`…). OSC 9: iTerm2, WezTerm, Ghostty, kitty;
OSC 777: VTE terminals (GNOME Terminal, Tilix…) and foot; anything else gets the bell.
*/
export function attentionTerminal(env: NodeJS.ProcessEnv): AttentionTerminal {
	const term = env.TERM ?? '';
	const program = env.TERM_PROGRAM ?? '';
	const set = (name: string): boolean => env[name] !== undefined && env[name] !== '';
	const osc9 = ['iTerm.app', 'WezTerm', 'ghostty'].includes(program) || env.LC_TERMINAL === 'iTerm2'
		|| term === 'xterm-kitty' || term === 'xterm-ghostty'
		|| ['KITTY_WINDOW_ID', 'ITERM_SESSION_ID', 'WEZTERM_PANE', 'GHOSTTY_RESOURCES_DIR'].some(name => set(name));
	const osc777 = set('VTE_VERSION') || term === 'foot' || term.startsWith('foot-');
	return {
		signal: osc9 ? 'osc9' : (osc777 ? 'osc777' : 'bel'),
		tmux: set('TMUX'),
		title: term !== 'dumb' && term !== 'linux',
	};
}
