/**
@module The pager's viewport as pure functions over an entry source: which rows are visible from a
top position, and how positions move. Only the entries a step walks over are laid out, so a step
costs the same at 100 and 100 000 entries.
*/
import type {Expansion, LayoutOptions} from '../../src/layout/text/layout-options.js';
import type {StyledLine} from '../../src/layout/text/styled-line.js';
import type {TranscriptEntry} from '../../src/presentation/entry.js';
import type {EntrySource} from '../../src/transcript/entry-source.js';

/** A scroll position: the entry at the top of the screen (`card`) and how many of its rows are above it. */
export type PagerTop = {readonly card: number; readonly row: number};

/** Lays out one entry of the source (cached by the layout itself). */
export type CardRows = (entry: TranscriptEntry, index: number) => readonly StyledLine[];

/** The rows visible from `top`, with which card each row belongs to. */
export function visibleRows(source: EntrySource, top: PagerTop, height: number, rowsOf: CardRows): Array<{readonly line: StyledLine; readonly card: number; readonly row: number}> {
	const rows: Array<{line: StyledLine; card: number; row: number}> = [];
	const count = source.count();
	for (let index = top.card; index < count && rows.length < height; index++) {
		const card = source.entry(index);
		if (card === undefined) {
			continue;
		}

		const lines = rowsOf(card, index);
		for (let row = index === top.card ? top.row : 0; row < lines.length && rows.length < height; row++) {
			rows.push({line: lines[row]!, card: index, row});
		}
	}

	return rows;
}

/** `top` moved by `delta` rows (negative: up), clamped to the start and to the last full page. */
export function scrollBy(source: EntrySource, top: PagerTop, delta: number, height: number, rowsOf: CardRows): PagerTop {
	let {card, row} = top;
	const count = source.count();
	if (delta > 0) {
		let left = delta;
		while (left > 0) {
			const lines = heightOf(source, card, rowsOf);
			const remaining = lines - row;
			if (left < remaining) {
				row += left;
				left = 0;
			} else if (card + 1 < count) {
				left -= remaining;
				card++;
				row = 0;
			} else {
				row = Math.max(0, lines - 1);
				left = 0;
			}
		}

		return clampToEnd(source, {card, row}, height, rowsOf);
	}

	let left = -delta;
	while (left > 0) {
		if (left <= row) {
			row -= left;
			left = 0;
		} else if (card > 0) {
			left -= row + 1;
			card--;
			row = heightOf(source, card, rowsOf) - 1;
		} else {
			row = 0;
			left = 0;
		}
	}

	return {card, row: Math.max(0, row)};
}

/** The top that shows the last `height` rows of the source. */
export function lastPage(source: EntrySource, height: number, rowsOf: CardRows): PagerTop {
	const count = source.count();
	if (count === 0) {
		return {card: 0, row: 0};
	}

	let left = height;
	for (let index = count - 1; index >= 0; index--) {
		const lines = heightOf(source, index, rowsOf);
		if (lines >= left) {
			return {card: index, row: lines - left};
		}

		left -= lines;
	}

	return {card: 0, row: 0};
}

function clampToEnd(source: EntrySource, top: PagerTop, height: number, rowsOf: CardRows): PagerTop {
	const end = lastPage(source, height, rowsOf);
	return top.card > end.card || (top.card === end.card && top.row > end.row) ? end : top;
}

function heightOf(source: EntrySource, index: number, rowsOf: CardRows): number {
	const card = source.entry(index);
	return card === undefined ? 0 : rowsOf(card, index).length;
}

/** The next expansion level when the user cycles a card: summary → bounded → full → summary. */
export function nextExpansion(current: Expansion): Expansion {
	return current === 'summary' ? 'bounded' : (current === 'bounded' ? 'full' : 'summary');
}

/** Layout options for one entry in the pager at the expansion chosen for it (undefined: the layout's default). */
export function pagerLayoutOptions(base: LayoutOptions, expansion: Expansion | undefined): LayoutOptions {
	return expansion === undefined ? base : {...base, expansion};
}
