/**
@module The bytes that call a person back to the terminal: a desktop notification (OSC 9, OSC 777)
or the bell, wrapped for tmux's passthrough when inside tmux, and the window title (OSC 0) with the
title stack around it (XTWINOPS 22/23). Which terminal takes which is read from the environment by
the CLI (`attentionTerminal` in src/cli/environment/terminal-env.ts); this file only composes.
Every text in them is sanitized and cut short here: a model's or an agent's words (a tool name, a
session title) must never end the control string early or start another one.
*/
import {assertNever} from '../../presentation/assert-never.js';
import {sanitizeInline} from '../text/sanitize.js';
import {controlSequence, type TerminalOutput} from './terminal-sink.js';

/** How the terminal shows a notification: OSC 9 (iTerm2, WezTerm, Ghostty, kitty), OSC 777 (VTE, foot), or only the bell. */
export type NotificationSignal = 'osc9' | 'osc777' | 'bel';

/** The terminal the notifications and the title are written for. */
export type AttentionTerminal = {
	readonly signal: NotificationSignal;
	/** Inside tmux: an OSC notification goes through tmux's passthrough to the terminal outside. */
	readonly tmux: boolean;
	/** Whether the terminal shows a window title at all (not the Linux console, not a dumb terminal). */
	readonly title: boolean;
};

/** The longest text written into one notification or title (a title bar shows less anyway). */
export const ATTENTION_TEXT_LIMIT = 120;

const BEL = '\u0007';
const ESC = '\u001B';

/**
Text safe inside an OSC string: sanitized to one row (controls become visible `\x1b` text), the
separators of OSC 777's fields taken out, and cut to `ATTENTION_TEXT_LIMIT` characters.
*/
export function oscText(text: string): string {
	const safe = sanitizeInline(text).replaceAll(';', ',');
	const characters = Array.from(safe);
	return characters.length <= ATTENTION_TEXT_LIMIT ? safe : `${characters.slice(0, ATTENTION_TEXT_LIMIT - 1).join('')}…`;
}

/** tmux's passthrough: `ESC Ptmux;` … `ESC \`, every ESC inside doubled (tmux needs `allow-passthrough on`). */
export function tmuxPassthrough(sequence: string): string {
	return `${ESC}Ptmux;${sequence.replaceAll(ESC, ESC + ESC)}${ESC}\\`;
}

/** A notification titled `title` saying `body`, as the terminal takes it. */
export function notificationOutput(terminal: AttentionTerminal, title: string, body: string): TerminalOutput {
	const {signal} = terminal;
	switch (signal) {
		case 'bel': {
			// tmux takes the bell itself (the window's bell flag, `bell-action`): never wrapped.
			return controlSequence(BEL);
		}

		case 'osc9': {
			// OSC 9 carries one text; it starts with a letter (the title), so no terminal reads it as ConEmu's `9;N` commands.
			return wrapped(terminal, `${ESC}]9;${oscText(`${title}: ${body}`)}${BEL}`);
		}

		case 'osc777': {
			return wrapped(terminal, `${ESC}]777;notify;${oscText(title)};${oscText(body)}${BEL}`);
		}

		default: {
			return assertNever(signal);
		}
	}
}

function wrapped(terminal: AttentionTerminal, sequence: string): TerminalOutput {
	return controlSequence(terminal.tmux ? tmuxPassthrough(sequence) : sequence);
}

/** XTWINOPS 22;0: push the window and icon title, to be popped on exit. Terminals without a title stack ignore it. */
export const PUSH_TITLE = controlSequence(`${ESC}[22;0t`);

/**
On exit: an empty title first (where there is no title stack the terminal's own default shows, not
cardterm's last state), then XTWINOPS 23;0 pops the title the session started with.
*/
export const RESTORE_TITLE = controlSequence(`${ESC}]0;${BEL}${ESC}[23;0t`);

/** OSC 0: the window and icon title. */
export function titleOutput(text: string): TerminalOutput {
	return controlSequence(`${ESC}]0;${oscText(text)}${BEL}`);
}
