import {Text} from 'ink';
import type {LineState} from './input/line-editor.js';
import {sanitizeInline} from '../src/layout/text/sanitize.js';
import {displayWidth, graphemes, truncateToWidth} from '../src/layout/text/text-width.js';

type Props = {
	readonly line: LineState;
	readonly width: number;
	/** Shown before the text: `> ` normally, `… ` while collecting multi-line text. */
	readonly marker: string;
	readonly hint?: string;
};

/** What the prompt shows of the line: each pasted block as its chip, the cursor where it is among them. */
export function shownLine(line: LineState): {readonly text: string; readonly cursor: number} {
	if (line.pastes === undefined) {
		return line;
	}

	let text = '';
	let cursor = line.cursor;
	let from = 0;
	for (const block of line.pastes) {
		text += line.text.slice(from, block.start) + block.label;
		if (block.end <= line.cursor) {
			cursor += block.label.length - (block.end - block.start);
		}

		from = block.end;
	}

	return {text: text + line.text.slice(from), cursor};
}

/**
Where a text of several lines is: the line the cursor is on, the text before it in that line, and a
dim note naming the others (`[line 2 of 3]`). Pasted blocks are chips by then, so only lines the
person started (Shift+Enter) count.
*/
function cursorLine(whole: LineState): {readonly note: string; readonly state: {readonly text: string; readonly cursor: number}} {
	const line = shownLine(whole);
	const start = line.text.lastIndexOf('\n', line.cursor - 1) + 1;
	if (start === 0 && !line.text.includes('\n')) {
		return {note: '', state: line};
	}

	const end = line.text.indexOf('\n', line.cursor);
	const count = line.text.split('\n').length;
	const index = line.text.slice(0, start).split('\n').length;
	return {note: `[line ${index} of ${count}] `, state: {text: line.text.slice(start, end === -1 ? undefined : end), cursor: line.cursor - start}};
}

/** The prompt row's text without styles (for measuring the frame). */
export function promptRowText(line: LineState, marker: string, hint: string): string {
	const {note, state} = cursorLine(line);
	return `${marker} ${line.text === '' ? hint : note + sanitizeInline(state.text)}`;
}

/**
The one-row prompt: the text around an inverse cursor cell, scrolled so the cursor stays visible.
The line holds what the user typed or pasted (sent as is when submitted); it is drawn sanitized, so a
pasted control character or bidi override shows escaped instead of acting on the terminal. Input of
several lines shows the cursor's line after a note naming the others; a pasted block shows as its
chip (`[Pasted text #1 +3 lines]`).
*/
export function Prompt({line: whole, width, marker, hint}: Props) {
	const {note, state: line} = cursorLine(whole);
	const room = Math.max(1, width - marker.length - 1 - displayWidth(note));
	const codePoint = line.text.codePointAt(line.cursor);
	const under = codePoint === undefined ? '' : String.fromCodePoint(codePoint);
	const at = under === '' ? ' ' : sanitizeInline(under);
	const before = lastColumns(sanitizeInline(line.text.slice(0, line.cursor)), Math.max(0, room - displayWidth(at)));
	const after = truncateToWidth(sanitizeInline(line.text.slice(line.cursor + under.length)), Math.max(0, room - displayWidth(before) - displayWidth(at)), '');
	return (
		<Text wrap="truncate-end">
			<Text bold>{marker}</Text>
			{note === '' ? null : <Text dimColor>{note}</Text>}
			{before}
			<Text inverse>{at}</Text>
			{after}
			{line.text === '' && hint !== undefined ? <Text dimColor>{truncateToWidth(hint, Math.max(0, room - 1))}</Text> : null}
		</Text>
	);
}

/** The end of `text` that fits in `width` columns (the text left of the cursor, scrolled). */
function lastColumns(text: string, width: number): string {
	if (displayWidth(text) <= width) {
		return text;
	}

	const kept: string[] = [];
	let used = 0;
	for (const grapheme of graphemes(text).reverse()) {
		used += displayWidth(grapheme);
		if (used > width) {
			break;
		}

		kept.push(grapheme);
	}

	return kept.reverse().join('');
}
