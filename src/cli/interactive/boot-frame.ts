/**
@module The interactive session's first frame, drawn before the live screen's modules load (Ink,
React, the tools and their presenters: most of a launch's time): the prompt row with its cursor
cell, and a status row saying the session is starting. Ink's first frame takes its place — `clear`
erases it just before — and so does any message printed before that (a usage error, `--continue`'s
line). While it is up the terminal is in raw mode and the frame reads the keys itself: printable ASCII
is echoed on the prompt row (Backspace takes one back), so typing works from the first frame; every
byte is held and handed back to stdin when the frame goes, and the live prompt takes them all
(anything else — Enter, arrows, a paste, wide text — stops the echo there and simply waits).
Ctrl+C, or Ctrl+D on an empty prompt, also aborts `quit`: a start-up wait that would hold the keys
(a plugin's apply) gives up on it and the session does not start.

It imports nothing but the sink's types: loading it must cost nothing the frame waits for.
*/
import {controlSequence} from '../../layout/terminal/terminal-sink.js';
import type {CliIo} from '../environment/cli-io.js';

/** What the status row says until the session's own status line replaces it. */
export const BOOT_STATUS = 'starting…';

/** The frame's rows, as Ink's first frame draws them: a bold marker, an inverse cursor cell; a dim status row. */
const FRAME = `\u001B[?25l\u001B[1m> \u001B[0m\u001B[7m \u001B[0m\r\n\u001B[2m${BOOT_STATUS}\u001B[0m\u001B[1A\r`;
/** Back on the frame's first row (where the cursor waits): erase to the end of the screen, show the cursor. */
const ERASE = '\r\u001B[J\u001B[?25h';

export type BootFrame = {
	/** Erase the frame (once; later calls do nothing) so the next output lands where it was. */
	clear(): Promise<void>;
	/** Erase the frame if it is still up and give the terminal its line mode back (the session ended, or never started). */
	release(): Promise<void>;
	/** Aborted by Ctrl+C, or Ctrl+D on an empty prompt, typed while the frame is up. */
	readonly quit: AbortSignal;
};

/** The terminal's input as the frame uses it: raw mode, and (when it can) the keys typed meanwhile. */
type RawModeInput = {
	readonly isTTY?: boolean;
	setRawMode?(mode: boolean): unknown;
	on?(event: 'readable', listener: () => void): unknown;
	off?(event: 'readable', listener: () => void): unknown;
	read?(): Buffer | string | null;
	unshift?(chunk: Buffer): unknown;
	unref?(): unknown;
};

/** The prompt row with `typed` on it: the bold marker, the text, the inverse cursor cell; the cursor back at its start. */
function promptRow(typed: string): string {
	return `\r\u001B[1m> \u001B[0m${typed}\u001B[7m \u001B[0m\u001B[K\r`;
}

/** Draw the frame on the terminal of `io` (`rows` high) and hold the keys typed in `stdin`. */
export async function drawBootFrame(io: Pick<CliIo, 'write' | 'columns'>, rows: number | undefined, stdin: RawModeInput): Promise<BootFrame> {
	// Too small a screen to be sure the two rows do not wrap: no frame, Ink draws the first.
	if ((io.columns ?? 0) < BOOT_STATUS.length + 2 || (rows ?? 0) < 3) {
		return {clear: async () => undefined, release: async () => undefined, quit: new AbortController().signal};
	}

	// Raw mode stays on for Ink, which sets it again; Node restores the terminal's mode at exit.
	stdin.setRawMode?.(true);
	await io.write(controlSequence(FRAME));
	let drawn = true;
	const held: Buffer[] = [];
	let typed = '';
	let echoing = true;
	const room = (io.columns ?? 0) - 3;
	const quit = new AbortController();
	const onBytes = (bytes: Buffer): void => {
		held.push(bytes);
		const before = typed;
		for (const byte of bytes) {
			if (byte === 0x03 || (byte === 0x04 && typed === '' && echoing)) {
				quit.abort(new Error('quit while the session was starting'));
			}

			if (!echoing) {
				break;
			}

			if (byte === 0x7F || byte === 0x08) {
				typed = typed.slice(0, -1);
			} else if (byte >= 0x20 && byte < 0x7F && typed.length < room) {
				typed += String.fromCharCode(byte);
			} else {
				echoing = false;
			}
		}

		if (typed !== before && drawn) {
			void io.write(controlSequence(promptRow(typed)));
		}
	};

	// The `readable` API, as Ink reads: a `data` listener would need a pause() to stop the flow, and a
	// paused stdin stops reading when Ink later drops and re-adds its own listener.
	const onReadable = (): void => {
		let chunk: Buffer | string | null | undefined;
		while ((chunk = stdin.read?.()) !== null && chunk !== undefined) {
			onBytes(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
		}
	};

	stdin.on?.('readable', onReadable);
	const clear = async (): Promise<void> => {
		if (drawn) {
			drawn = false;
			stdin.off?.('readable', onReadable);
			// The live prompt reads what was typed, in order, as if it had just arrived.
			if (held.length > 0) {
				stdin.unshift?.(Buffer.concat(held));
				held.length = 0;
			}

			await io.write(controlSequence(ERASE));
		}
	};

	return {
		clear,
		quit: quit.signal,
		async release() {
			await clear();
			stdin.setRawMode?.(false);
			// A session that never started (quit at start-up) must not be kept alive by the terminal: once a
			// `readable` listener has been on stdin, neither removing it nor pause() lets the process end.
			stdin.unref?.();
		},
	};
}
