import {useEffect} from 'react';
import {useStdout} from 'ink';
import {controlSequence, writeOutput, type TerminalOutput} from '../../src/layout/terminal/terminal-sink.js';

/** DEC private mode 2004: the terminal wraps pasted text in CSI 200~ … 201~. */
export const BRACKETED_PASTE = {on: controlSequence('\u001B[?2004h'), off: controlSequence('\u001B[?2004l')};
/** DEC private mode 1004: the terminal reports gaining and losing focus (CSI I, CSI O). */
export const FOCUS_REPORTING = {on: controlSequence('\u001B[?1004h'), off: controlSequence('\u001B[?1004l')};

/**
A terminal mode (or any state with a sequence that undoes it) while the screen is mounted and
`enabled`. Ink unmounts on every way out (exit, a signal, an uncaught error); a process that ends
without unmounting still writes `off` from its `exit` handler, so the shell after it never sees
pastes wrapped or focus reports typed.
*/
export function useTerminalMode(mode: {readonly on: TerminalOutput; readonly off: TerminalOutput}, enabled = true): void {
	const {stdout} = useStdout();
	const {on: onSequence, off: offSequence} = mode;
	useEffect(() => {
		if (!enabled) {
			return;
		}

		let on = true;
		const off = (): void => {
			if (on) {
				on = false;
				void writeOutput(stdout, offSequence);
			}
		};

		void writeOutput(stdout, onSequence);
		process.once('exit', off);
		return () => {
			process.off('exit', off);
			off();
		};
	}, [stdout, onSequence, offSequence, enabled]);
}
