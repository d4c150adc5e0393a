import React from 'react';
import {Text} from 'ink';
import type {LineState} from './input/line-editor.js';
import {sanitizeInline} from '../src/layout/sanitize.js';
import {displayWidth, graphemes, truncateToWidth} from '../src/layout/text-width.js';

type Props = {
	readonly line: LineState;
	readonly width: number;
	/** Shown before the text: `> ` normally, `… ` while collecting multi-line text. */
	readonly marker: string;
	readonly hint?: string;
};

/**
The one-row prompt: the text around an inverse cursor cell, scrolled so the cursor stays visible.
The line holds what the user typed or pasted (sent as is when submitted); it is drawn sanitized, so a
pasted control character or bidi override shows escaped instead of acting on the terminal.
*/
export function Prompt({line, width, marker, hint}: Props) {
	const room = Math.max(1, width - marker.length - 1);
	const codePoint = line.text.codePointAt(line.cursor);
	const under = codePoint === undefined ? '' : String.fromCodePoint(codePoint);
	const at = under === '' ? ' ' : sanitizeInline(under);
	const before = lastColumns(sanitizeInline(line.text.slice(0, line.cursor)), Math.max(0, room - displayWidth(at)));
	const after = truncateToWidth(sanitizeInline(line.text.slice(line.cursor + under.length)), Math.max(0, room - displayWidth(before) - displayWidth(at)), '');
	return (
		<Text wrap="truncate-end">
			<Text bold>{marker}</Text>
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
