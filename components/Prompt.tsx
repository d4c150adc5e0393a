import React from 'react';
import {Text} from 'ink';
import type {LineState} from '../src/cli/interactive/line-editor.js';
import {truncateToWidth} from '../src/layout/text-width.js';

type Props = {
	readonly line: LineState;
	readonly width: number;
	/** Shown before the text: `> ` normally, `… ` while collecting multi-line text. */
	readonly marker: string;
	readonly hint?: string;
};

/** The one-row prompt: the text around an inverse cursor cell, scrolled so the cursor stays visible. */
export function Prompt({line, width, marker, hint}: Props) {
	const room = Math.max(1, width - marker.length - 1);
	const start = Math.max(0, line.cursor - room + 1);
	const before = line.text.slice(start, line.cursor);
	const at = line.text[line.cursor] ?? ' ';
	const after = truncateToWidth(line.text.slice(line.cursor + 1), Math.max(0, room - before.length - 1), '');
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
