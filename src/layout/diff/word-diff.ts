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

const cache = new WeakMap<LineDiff, ReadonlyMap<number, readonly WordRange[]>>();

/**
Word highlights for the rows of a line diff, by row index (rows without highlights are absent).
Computed once per `LineDiff` object; an approximate diff gets none (its sides are not paired).
*/
export function rowWordHighlights(diff: LineDiff): ReadonlyMap<number, readonly WordRange[]> {
	const hit = cache.get(diff);
	if (hit !== undefined) {
		return hit;
	}

	const result = new Map<number, readonly WordRange[]>();
	if (diff.approximate === undefined) {
		pairRows(diff.rows, result);
	}

	cache.set(diff, result);
	return result;
}

function pairRows(rows: readonly DiffRow[], result: Map<number, readonly WordRange[]>): void {
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
			const oldRow = rows[removedStart + offset]!;
			const newRow = rows[addedStart + offset]!;
			if (oldRow.kind === 'gap' || newRow.kind === 'gap') {
				continue;
			}

			const highlights = wordHighlights(oldRow.text, newRow.text);
			if (highlights !== undefined) {
				result.set(removedStart + offset, highlights.old);
				result.set(addedStart + offset, highlights.new);
			}
		}
	}
}
