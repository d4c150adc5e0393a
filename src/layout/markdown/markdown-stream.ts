/**
@module A Markdown message that grows by deltas (an assistant's streamed text). It keeps its own block
split, so an append re-splits from the last block only, and lays out through the shared block cache,
so only blocks that changed are lexed and laid out again: the cost of a delta is the last block's.
*/
import {extendSplit, type MarkdownSplit, splitMarkdown} from './markdown-blocks.js';
import {type BlockMemo, layoutSplit, type MarkdownLayoutOptions} from './markdown-layout.js';
import type {StyledLine} from '../text/styled-line.js';

/** A growing message. */
export type MarkdownStream = {
	/** The text so far. */
	readonly text: string;
	/** Append a delta. */
	append(delta: string): void;
	/** The message's rows so far (same rows as `layoutMarkdown(text, options)`). */
	lines(options: MarkdownLayoutOptions): readonly StyledLine[];
};

/** A streaming message, optionally starting with `initial`. */
export function createMarkdownStream(initial = ''): MarkdownStream {
	let split: MarkdownSplit = splitMarkdown(initial);
	let text = initial;
	const memo: BlockMemo = new Map();
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
	};
}
