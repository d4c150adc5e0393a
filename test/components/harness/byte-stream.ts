/**
@module Reading Ink's byte stream: frames are DEC 2026 synchronized updates, and each begins by
erasing the previous frame line by line, which tells how tall that frame was.
*/

/** `ESC[2J` (erase screen) or `ESC[3J` (erase scrollback): never allowed in the live transcript. */
export function screenClears(bytes: string): string[] {
	return bytes.match(/\u001B\[[23]J/g) ?? [];
}

/**
The height of every frame Ink replaced, from the erase that opens each synchronized update:
log-update erases `height + 1` lines with `height` cursor-ups (`ESC[2K ESC[1A` … `ESC[2K ESC[G`).
*/
export function erasedFrameHeights(bytes: string): number[] {
	const heights: number[] = [];
	for (const block of bytes.split('\u001B[?2026h').slice(1)) {
		const erase = /^(?:\u001B\[2K\u001B\[1A)*\u001B\[2K\u001B\[G/.exec(block);
		if (erase !== null) {
			heights.push(erase[0].split('\u001B[1A').length - 1);
		}
	}

	return heights;
}
