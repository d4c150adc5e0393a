import {useStdout} from 'ink';
import {useEffect, useState} from 'react';

/** The terminal's columns and rows, updated on resize. */
export function useTerminalSize(): {readonly columns: number; readonly rows: number} {
	const {stdout} = useStdout();
	const read = () => ({columns: Math.max(1, stdout.columns || 80), rows: Math.max(2, stdout.rows || 24)});
	const [size, setSize] = useState(read);
	useEffect(() => {
		const onResize = () => {
			setSize(read());
		};

		stdout.on('resize', onResize);
		return () => {
			stdout.off('resize', onResize);
		};
	}, [stdout]);
	return size;
}
