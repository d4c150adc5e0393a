/**
@module What the live screen says of lines typed while a turn runs, once a cancel holds them (both
the native session's controller and the ACP one): they are kept, not run, until Enter runs them or
Ctrl+C drops them. A cancel must never lose what the person typed.
*/
import {sanitizeInline} from '../layout/text/sanitize.js';

/** `1 line`, `3 lines`. */
export function linesWord(count: number): string {
	return count === 1 ? '1 line' : `${count} lines`;
}

/** A queued line as the person typed it, on one row and cut short (it names the line in a notice). */
export function shortInline(text: string): string {
	const inline = sanitizeInline(text);
	return inline.length > 60 ? `${inline.slice(0, 59)}…` : inline;
}

/** The notice after a cancelled turn: what still waits, and the keys that decide. */
export function heldNotice(texts: readonly string[]): string {
	const them = texts.length === 1 ? 'it' : 'them';
	return `${linesWord(texts.length)} still queued, not run: ${texts.map(text => shortInline(text)).join(' · ')} — Enter runs ${them}, Ctrl+C drops ${them}`;
}

/** The notice when Ctrl+C drops the held lines. */
export function droppedNotice(texts: readonly string[]): string {
	return `dropped ${linesWord(texts.length)} that waited: ${texts.map(text => shortInline(text)).join(' · ')}`;
}
