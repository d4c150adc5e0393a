// What the harness reads out of the bytes a program wrote to its terminal.

// ED 2 (erase the display), ED 3 (erase the scrollback) and RIS (full reset): each wipes what the person saw.
const clearScreenPattern = /\x1b\[2J|\x1b\[3J|\x1bc/g;

/** How many clear-screens (`\e[2J`, `\e[3J`, `\ec`) `text` holds. */
export function countClearScreens(text) {
	return text.match(clearScreenPattern)?.length ?? 0;
}

// DEC mode 2026 on: a program that marks its frames (Ink does) opens each one with it.
const frameStartPattern = /\x1b\[\?2026h/g;

/** How many synchronized-output frames (`\e[?2026h`) `text` opens: the frames a program that marks them drew; 0 for one that does not. */
export function countMarkedFrames(text) {
	return text.match(frameStartPattern)?.length ?? 0;
}

// CSI, OSC (ended by BEL or ST), DCS/APC/PM/SOS strings, then any other two-byte escape.
const escapePattern = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[P_^X][^\x1b]*\x1b\\|\x1b[^[\]P_^X]/g;

/** `text` without terminal escape sequences, so a search for printed text cannot match a sequence's final byte. */
export function stripEscapes(text) {
	return text.replace(escapePattern, '');
}
