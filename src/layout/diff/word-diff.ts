/**
@module Word-level highlights: which part of a changed line changed.

Within each changed region of a line diff, the i-th removed line is paired with the i-th added line
and the pair is compared with the `diff` package's word diff (`diffWordsWithSpace`, so whitespace is
kept in both sides' offsets). A range covers whole graphemes: a cut inside one would split what the
sanitizer reads together (a skin tone from its emoji, a mark from its letter), and a highlight
must never change a line's text. Every step is bounded (line length, pairs per file, edit length of the
word diff), and a pair that shares too little is left without highlights: when most of a line
changed, the line's own −/+ colour already says so and highlighting all of it is noise.
*/
import {diffPackage} from '../../presentation/diff-package.js';
import {wholeGraphemes} from '../text/text-width.js';
import type {DiffRow, LineDiff} from './line-diff.js';

/** Lines longer than this (UTF-16 units) get no word highlights. */
const WORD_DIFF_MAX_LINE_LENGTH = 1000;

/** Pairs compared per file diff; later pairs get no word highlights. */
const WORD_DIFF_MAX_PAIRS = 200;

/** Edit length (tokens) beyond which a pair gets no word highlights. */
const WORD_DIFF_MAX_EDIT_LENGTH = 100;

/** A pair whose unchanged non-blank characters are below this share of the longer side is not highlighted. */
const WORD_DIFF_MIN_SHARED = 0.4;

/** A half-open range `[start, end)` of UTF-16 offsets into a line's raw text. */
export type WordRange = readonly [start: number, end: number];

/** The changed ranges of a paired removed line and added line. */
export type WordHighlights = {readonly old: readonly WordRange[]; readonly new: readonly WordRange[]};

function nonBlankLength(text: string): number {
	let count = 0;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code !== 0x20 && code !== 0x09) {
			count++;
		}
	}

	return count;
}

function pushRange(ranges: WordRange[], start: number, end: number): void {
	const last = ranges.at(-1);
	if (last !== undefined && last[1] === start) {
		ranges[ranges.length - 1] = [last[0], end];
	} else {
		ranges.push([start, end]);
	}
}

/**
The changed parts of `oldLine` and `newLine`, or undefined when the pair is out of bounds, too
different to be worth highlighting, or identical.
*/
export function wordHighlights(oldLine: string, newLine: string): WordHighlights | undefined {
	if (oldLine.length > WORD_DIFF_MAX_LINE_LENGTH || newLine.length > WORD_DIFF_MAX_LINE_LENGTH || oldLine === newLine) {
		return undefined;
	}

	const changes = diffPackage().diffWordsWithSpace(oldLine, newLine, {maxEditLength: WORD_DIFF_MAX_EDIT_LENGTH});
	if (changes === undefined) {
		return undefined;
	}

	const oldRanges: WordRange[] = [];
	const newRanges: WordRange[] = [];
	let oldOffset = 0;
	let newOffset = 0;
	let shared = 0;
	for (const change of changes) {
		const length = change.value.length;
		if (change.removed) {
			pushRange(oldRanges, oldOffset, oldOffset + length);
			oldOffset += length;
		} else if (change.added) {
			pushRange(newRanges, newOffset, newOffset + length);
			newOffset += length;
		} else {
			shared += nonBlankLength(change.value);
			oldOffset += length;
			newOffset += length;
		}
	}

	const longer = Math.max(nonBlankLength(oldLine), nonBlankLength(newLine));
	if (shared < longer * WORD_DIFF_MIN_SHARED) {
		return undefined;
	}

	return {old: wholeGraphemes(oldLine, oldRanges), new: wholeGraphemes(newLine, newRanges)};
}

/**
Word highlights of a line diff's rows by row index: which rows pair is found for all of them in one
cheap pass, and a pair is compared only when one of its rows is asked for (a fold shows a few of a
file's pairs). An approximate diff has none (its sides are not paired).
*/
export class RowWords {
	/** Per row, the row it pairs with (-1: none). */
	private readonly partners: Int32Array;
	/** Per pair compared, by its removed row: its highlights, or null when it gets none. */
	private readonly compared = new Map<number, WordHighlights | null>();

	constructor(private readonly diff: LineDiff) {
		this.partners = new Int32Array(diff.rows.length).fill(-1);
		if (diff.approximate === undefined) {
			pairRows(diff.rows, this.partners);
		}
	}

	/** The changed ranges of row `row`, or undefined when it has none. */
	get(row: number): readonly WordRange[] | undefined {
		const partner = this.partners[row] ?? -1;
		if (partner === -1) {
			return undefined;
		}

		const removed = Math.min(row, partner);
		let highlights = this.compared.get(removed);
		if (highlights === undefined) {
			const oldRow = this.diff.rows[removed]!;
			const newRow = this.diff.rows[Math.max(row, partner)]!;
			highlights = oldRow.kind === 'gap' || newRow.kind === 'gap' ? null : wordHighlights(oldRow.text, newRow.text) ?? null;
			this.compared.set(removed, highlights);
		}

		return highlights === null ? undefined : (row === removed ? highlights.old : highlights.new);
	}
}

const cache = new WeakMap<LineDiff, RowWords>();

/** The word highlights of a line diff's rows, one `RowWords` per `LineDiff` object. */
export function rowWordHighlights(diff: LineDiff): RowWords {
	let words = cache.get(diff);
	if (words === undefined) {
		words = new RowWords(diff);
		cache.set(diff, words);
	}

	return words;
}

/** Pairs the i-th removed row of each changed region with its i-th added row, for the first `WORD_DIFF_MAX_PAIRS` pairs. */
function pairRows(rows: readonly DiffRow[], partners: Int32Array): void {
	let pairs = 0;
	let index = 0;
	while (index < rows.length && pairs < WORD_DIFF_MAX_PAIRS) {
		if (rows[index]!.kind !== 'removed') {
			index++;
			continue;
		}

		const removedStart = index;
		while (index < rows.length && rows[index]!.kind === 'removed') {
			index++;
		}

		const addedStart = index;
		while (index < rows.length && rows[index]!.kind === 'added') {
			index++;
		}

		const count = Math.min(addedStart - removedStart, index - addedStart);
		for (let offset = 0; offset < count && pairs < WORD_DIFF_MAX_PAIRS; offset++, pairs++) {
			partners[removedStart + offset] = addedStart + offset;
			partners[addedStart + offset] = removedStart + offset;
		}
	}
}
