import {useEffect} from 'react';
import {useStdout} from 'ink';
import {controlSequence, writeOutput} from '../../src/layout/terminal/terminal-sink.js';

/** DEC private mode 2004: the terminal wraps pasted text in CSI 200~ … 201~. */
export const BRACKETED_PASTE_ON = controlSequence('\u001B[?2004h');
export const BRACKETED_PASTE_OFF = controlSequence('\u001B[?2004l');

/**
Bracketed paste while the screen is mounted, so a paste is text and never runs lines. Ink unmounts
on every way out (exit, a signal, an uncaught error); a process that ends without unmounting still
turns the mode off from its `exit` handler, so the shell after it never sees pastes wrapped.
*/
export function useBracketedPaste(): void {
	const {stdout} = useStdout();
	useEffect(() => {
		let on = true;
		const off = (): void => {
			if (on) {
				on = false;
				void writeOutput(stdout, BRACKETED_PASTE_OFF);
			}
		};

		void writeOutput(stdout, BRACKETED_PASTE_ON);
		process.once('exit', off);
		return () => {
			process.off('exit', off);
			off();
		};
	}, [stdout]);
}
