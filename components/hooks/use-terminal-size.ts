import {useStdout} from 'ink';
import {useEffect, useState} from 'react';

/** The real row count of a stdout while Ink is being shown a taller one (see useShrinkGuard). */
const realRows = new WeakMap<object, number>();

/** The terminal's columns and rows, updated on resize. */
export function useTerminalSize(): {readonly columns: number; readonly rows: number} {
	const {stdout} = useStdout();
	const read = () => ({columns: Math.max(1, stdout.columns || 80), rows: Math.max(2, realRows.get(stdout) ?? (stdout.rows || 24))});
	const [size, setSize] = useState(read);
	useEffect(() => {
		const onResize = () => {
			setSize(read());
		};

		stdout.on('resize', onResize);
		return () => {
			stdout.off('resize', onResize);
		};
	// eslint-disable-next-line react-hooks/exhaustive-deps -- read depends on stdout alone
	}, [stdout]);
	return size;
}

/**
Keep ink 6.8 from clearing the screen and the user's scrollback when the window gets shorter.

Ink writes `ESC[2J ESC[3J` and replays everything once its last frame is at least as tall as the
terminal, and a shrinking window makes that true before the app can draw a shorter frame. On such a
resize (this listener runs before Ink's), Ink is shown a terminal one row taller than the frame on
screen until a frame that fits the real size has been drawn; `useTerminalSize` keeps reporting the
real size meanwhile. `frameHeight` is the height of the frame on screen; `onFrame` hears Ink's renders
(without it, the real size comes back after 200 ms, well past Ink's 32 ms render throttle).
*/
export function useShrinkGuard(frameHeight: () => number, onFrame?: (listener: () => void) => () => void): void {
	const {stdout} = useStdout();
	useEffect(() => {
		let release: (() => void) | undefined;
		const onResize = (): void => {
			const rows = stdout.rows;
			const height = frameHeight();
			if (rows === undefined || rows > height) {
				return;
			}

			release?.();
			realRows.set(stdout, rows);
			stdout.rows = height + 1;
			const restore = (): void => {
				release = undefined;
				realRows.delete(stdout);
				stdout.rows = rows;
			};

			if (onFrame === undefined) {
				const timer = setTimeout(restore, 200);
				release = () => {
					clearTimeout(timer);
					restore();
				};
				return;
			}

			const unsubscribe = onFrame(() => {
				// After Ink's render has finished and recorded the new frame's height.
				queueMicrotask(() => {
					if (release !== undefined && frameHeight() < rows) {
						unsubscribe();
						restore();
					}
				});
			});
			release = () => {
				unsubscribe();
				restore();
			};
		};

		stdout.prependListener('resize', onResize);
		return () => {
			stdout.off('resize', onResize);
			release?.();
		};
	}, [stdout, frameHeight, onFrame]);
}
