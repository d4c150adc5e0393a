/**
@module The work that waits for the running turn, as rows above the prompt (Codex and pi show queued
messages there too): one `↳` row per piece in the order it will run, each on one row as typed, then
the keys that take the newest back — Alt+↑ to edit it at the prompt, Alt+↓ to drop it — and, after a
cancel held the queue, that Enter runs it and Ctrl+C drops it. A long queue shows its first piece,
how many more wait, and its newest (the one the keys take). The images attached for the next
message are rows here too.
*/
import {Text} from 'ink';
import {sanitizeInline} from '../src/layout/text/sanitize.js';
import {truncateToWidth} from '../src/layout/text/text-width.js';
import {fitFacts, type Fact} from './fit-facts.js';
import type {QueuedRow} from './session-model.js';

/** Pieces of work shown as rows; past it, the middle ones are counted on one row. */
const SHOWN_PIECES = 3;

/** The rows' text: the queued pieces (as many as `maxRows` leaves room for, newest kept) and the key hint. */
export function queueRowTexts(queue: readonly QueuedRow[], held: boolean, width: number, maxRows: number): string[] {
	if (queue.length === 0 || maxRows <= 0) {
		return [];
	}

	const pieces = queue.length <= SHOWN_PIECES
		? queue.map(item => pieceRow(item.label, width))
		: [pieceRow(queue[0]!.label, width), truncateToWidth(`  … ${queue.length - 2} more queued`, width), pieceRow(queue.at(-1)!.label, width)];
	const keys: Fact = [{text: 'Alt+↑ edit · Alt+↓ drop', rank: 2}, {text: 'Alt+↑ edit · Alt+↓ drop the newest', rank: 3}];
	const hold: Fact = [{text: 'held: Enter runs, Ctrl+C drops', rank: 1}, {text: 'held after the cancel: Enter runs all, Ctrl+C drops all', rank: 4}];
	const hint = fitFacts(held ? [hold, keys] : [keys], Math.max(0, width - 2));
	return [...pieces, `  ${hint}`].slice(-maxRows);
}

/**
One piece on one row, as typed: its first line (sanitized: a queued line is the person's, but may be
pasted from anywhere) and how many lines follow it. Only the start of a long text is read.
*/
function pieceRow(label: string, width: number): string {
	const newline = label.indexOf('\n');
	const first = newline === -1 ? label : label.slice(0, newline);
	const more = newline === -1 ? 0 : countLines(label, newline);
	const suffix = more === 0 ? '' : ` (+${more} line${more === 1 ? '' : 's'})`;
	// Each character takes at least one column once sanitized (or is cut anyway): read no more than fits.
	const line = truncateToWidth(sanitizeInline(first.slice(0, width * 2)), Math.max(1, width - 2 - suffix.length));
	return `↳ ${line}${suffix}`;
}

/** Lines after the first of `text` (whose first line end is at `newline`); a final line end starts no line. */
function countLines(text: string, newline: number): number {
	let count = 0;
	for (let at = newline; at !== -1 && at < text.length - 1; at = text.indexOf('\n', at + 1)) {
		count++;
	}

	return count;
}

/**
The images attached for the next message, under the queue and over the prompt: one row each (its
name sanitized: a file's name may hold anything), then how to take one off.
*/
export function attachmentRowTexts(attachments: readonly string[], width: number): string[] {
	if (attachments.length === 0) {
		return [];
	}

	const rows = attachments.map((text, index) => truncateToWidth(`[${index + 1}] ${sanitizeInline(text.slice(0, width * 2))}`, width));
	return [...rows, truncateToWidth('  sent with the next message · Backspace on an empty prompt takes the last off', width)];
}

/** The queue's rows, dim: what waits is not the conversation yet. */
export function QueueRows({rows}: {readonly rows: readonly string[]}) {
	return rows.map((row, index) => <Text key={index} dimColor wrap="truncate-end">{row}</Text>);
}
