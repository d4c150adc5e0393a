/**
@module A Markdown message that grows by deltas (an assistant's streamed text). It keeps its own block
split, so an append re-splits from the last block only, and lays out through the shared block cache,
so only blocks that changed are lexed and laid out again: the cost of a delta is the last block's.
Its end (`tail`) is laid out from the last block back, so a live view of a long answer costs the
rows it shows, however long the answer grows.
*/
import {extendSplit, type MarkdownSplit, splitMarkdown} from './markdown-blocks.js';
import {type BlockMemo, layoutSplit, layoutSplitTail, lineCounts, linesBefore, type MarkdownLayoutOptions} from './markdown-layout.js';
import {lastRows, type MessageTail} from '../entries/entry-rows.js';
import type {StyledLine} from '../text/styled-line.js';

/** A growing message. */
export type MarkdownStream = {
	/** The text so far. */
	readonly text: string;
	/** Append a delta. */
	append(delta: string): void;
	/** The message's rows so far (same rows as `layoutMarkdown(text, options)`). */
	lines(options: MarkdownLayoutOptions): readonly StyledLine[];
	/** Its last `count` rows, laid out from its end (a block past a window is laid out from the window: `layoutSplitTail`). */
	tail(options: MarkdownLayoutOptions, count: number): MessageTail;
};

/** A streaming message, optionally starting with `initial`. */
export function createMarkdownStream(initial = ''): MarkdownStream {
	let split: MarkdownSplit = splitMarkdown(initial);
	let text = initial;
	const memo: BlockMemo = new Map();
	// Lines of the blocks above a tail, counted once per block.
	const counts = lineCounts();
	let last: {readonly width: number; readonly theme: MarkdownLayoutOptions['theme']; readonly text: string; readonly lines: readonly StyledLine[]} | undefined;
	return {
		get text() {
			return text;
		},
		append(delta: string) {
			text += delta;
		},
		lines(options: MarkdownLayoutOptions) {
			if (last !== undefined && last.text === text && last.width === options.width && last.theme === options.theme) {
				return last.lines;
			}

			// Split lazily: deltas appended between two layouts are re-split once.
			split = extendSplit(split, text);
			const lines = layoutSplit(split, options, memo);
			last = {width: options.width, theme: options.theme, text, lines};
			return lines;
		},
		tail(options: MarkdownLayoutOptions, count: number) {
			split = extendSplit(split, text);
			const {rows, first, cut} = layoutSplitTail(split, options, count, memo);
			// Lines above the laid-out end: whole blocks as laid out, and the lines of a block above its window.
			const windowed = cut > 0 ? countBreaks(split.blocks[first]!.text.slice(0, cut)) + (split.blocks[first]!.text[cut - 1] === '\n' ? 0 : 1) : 0;
			return rows.length === 0 ? {rows, more: false, startsAbove: 0} : lastRows(rows, count, linesBefore(split, first, options, counts) + windowed, first > 0 || cut > 0);
		},
	};
}

/** How many `\n` `text` holds. */
export function countBreaks(text: string): number {
	let count = 0;
	for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
		count++;
	}

	return count;
}
