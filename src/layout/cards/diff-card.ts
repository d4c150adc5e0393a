/**
@module The diff card body: per file its path, then `-`/`+` lines with the changed words
highlighted, unchanged context in the body tone, and a `+A −R · K files` footer.

Layout per file group (consecutive entries with the same path are hunks of one file):
- the path in `theme.path`, as `Created <path>` when every entry of the group has `oldText: null`;
  while the call runs (a preview, before approval or result) `Will create <path>` / `Will edit <path>`;
  for a call refused or cancelled before it ran, the preview it was asked with: `Not created <path>` /
  `Not applied to <path>`;
- per hunk: `- text` (`theme.removed`), `+ text` (`theme.added`), `  text` (`theme.body`); long
  unchanged runs as a muted `⋯ N unchanged lines` row; hunks of one file separated by a muted `⋯`;
  an approximate hunk (a diff bound was hit) starts with a muted `[exact line diff omitted: …]`;
- groups separated by one empty row.
The footer `+A −R · K files` (K = distinct paths, context lines not counted), with ` · approximate`
when any bound was hit, is muted and pinned at the bottom; the first path is pinned at the top.

No line-number gutter: `FileDiff` carries no hunk start line, and numbers relative to the hunk
would read as file line numbers. Rows are also what a user copies, so they carry no gutter anyway.

Colour rules: the word-level changed parts use `theme.removedWord` / `theme.addedWord` alone.
With a colour theme and a known language (from the path's extension), added and context lines that
a fold can show at the expansion (see `visibleRows`) get syntax colours over their base style (`{...added, ...token}`), while the `+`
marker and any uncoloured token keep the added colour; removed lines stay wholly `theme.removed`,
so the old side never reads as new code. Highlighting runs only on those displayed lines, per
contiguous range of a hunk, under the highlighter's size limit, and never on an approximate hunk.
In `bounded` only those rows are built at all: the rest are counted into the body's `omitted` gap
(`DiffRows`), which the fold reads as it reads a terminal card's.
*/
import {assertNever} from '../../presentation/assert-never.js';
import {langFromPath} from '../../presentation/lang-from-path.js';
import type {FileDiff} from '../../tools/views.js';
import type {CardBody} from './card-body.js';
import {composeSpans, mergeSpans, sanitizeSpans, textRows} from '../diff/diff-spans.js';
import {FAILURE_ROW_BUDGET, OK_ROW_BUDGET} from './fold-body.js';
import {highlightLines} from '../highlight/highlight.js';
import type {Expansion} from '../text/layout-options.js';
import {computeLineDiff, type DiffApproximation, type DiffLimits, type DiffRow, type LineDiff} from '../diff/line-diff.js';
import {sanitizeInline, sanitizeLine, TAB_STOP} from '../text/sanitize.js';
import {wrapSpans} from '../text/spans.js';
import {pushAll} from '../text/push-all.js';
import type {Span, Style, StyledLine} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';
import {rowWordHighlights, type WordRange} from '../diff/word-diff.js';

/** What the diff body depends on besides the diffs. */
export type DiffLayoutContext = {
	readonly width: number;
	readonly theme: Theme;
	readonly expansion: Expansion;
	/** The change has not happened yet (a running call's preview, awaiting approval or its result). */
	readonly pending?: boolean;
	/** The change never happened (the call was refused or cancelled before it ran): the preview it was asked with. */
	readonly notApplied?: boolean;
};

/** A file group's header: what happened to the file, what will (`pending`), or what did not (`notApplied`). */
function diffPathHeader(path: string, created: boolean, pending: boolean, notApplied = false): string {
	if (notApplied) {
		return created ? `Not created ${path}` : `Not applied to ${path}`;
	}

	if (pending) {
		return created ? `Will create ${path}` : `Will edit ${path}`;
	}

	return created ? `Created ${path}` : path;
}

/**
Rows at each end of a body that a `bounded` fold can show (the largest row budget of the fold).
Only rows this close to either end are syntax-coloured in `bounded`: highlight only what is visible.
*/
const BOUNDED_VISIBLE_ROWS = Math.max(OK_ROW_BUDGET, FAILURE_ROW_BUDGET);

/** The marker columns before a line's text. */
const markers = {context: '  ', removed: '- ', added: '+ '} as const;

type SyntaxRows = ReadonlyMap<number, readonly Span[]>;

/** A half-open range of row indexes of one hunk. */
type RowRange = readonly [from: number, to: number];

const syntaxCache = new WeakMap<LineDiff, Map<string, SyntaxRows | null>>();

/**
Syntax spans of the added and context rows in `range` of one hunk (by row index), highlighted as one
sequence of new-side lines so multi-line constructs keep their colour; null when not highlightable.
Cached per `LineDiff` (so per `FileDiff`) and range.
*/
function syntaxRows(lineDiff: LineDiff, lang: string, range: RowRange): SyntaxRows | null {
	let byRange = syntaxCache.get(lineDiff);
	if (byRange === undefined) {
		byRange = new Map();
		syntaxCache.set(lineDiff, byRange);
	}

	const key = `${lang}:${range[0]}:${range[1]}`;
	const hit = byRange.get(key);
	if (hit !== undefined) {
		return hit;
	}

	const indexes: number[] = [];
	const texts: string[] = [];
	for (let index = range[0]; index < range[1]; index++) {
		const row = lineDiff.rows[index]!;
		if (row.kind === 'context' || row.kind === 'added') {
			indexes.push(index);
			texts.push(row.text);
		}
	}

	const spans = highlightLines(texts, lang);
	const result = spans === undefined ? null : new Map(indexes.map((rowIndex, index) => [rowIndex, spans[index]!]));
	byRange.set(key, result);
	return result;
}

function plural(count: number, one: string, many: string): string {
	return `${count} ${count === 1 ? one : many}`;
}

function approximationNotice(approximation: DiffApproximation): string {
	switch (approximation.reason) {
		case 'edit-length': {
			return `[exact line diff omitted: over ${approximation.maxEditLength} changed lines]`;
		}

		case 'comparisons': {
			return `[exact line diff omitted: over ${approximation.maxComparisons} line comparisons]`;
		}

		default: {
			return assertNever(approximation.reason, 'diff approximationNotice');
		}
	}
}

const printableAscii = /^[\x20-\x7e]*$/;

const printableAsciiWithTabs = /^[\t\x20-\x7e]*$/;

/**
The columns `sanitizeLine(text)` takes when `text` is printable ASCII and tabs (tabs to the next
stop from the text's start, as it expands them), or undefined for any other text: whether a hidden
row is one row, without building its text.
*/
function asciiColumns(text: string): number | undefined {
	if (!printableAsciiWithTabs.test(text)) {
		return undefined;
	}

	let column = 0;
	let from = 0;
	for (let tab = text.indexOf('\t'); tab !== -1; tab = text.indexOf('\t', from)) {
		column += tab - from;
		column += TAB_STOP - (column % TAB_STOP);
		from = tab + 1;
	}

	return column + text.length - from;
}

/** Append one diff row as wrapped styled rows. */
function appendRow(
	lines: StyledLine[],
	row: Exclude<DiffRow, {kind: 'gap'}>,
	syntax: readonly Span[] | undefined,
	words: readonly WordRange[] | undefined,
	ctx: DiffLayoutContext,
): void {
	const {theme} = ctx;
	let base: Style;
	let wordStyle: Style;
	switch (row.kind) {
		case 'context': {
			base = theme.body;
			wordStyle = theme.body;
			break;
		}

		case 'removed': {
			base = theme.removed;
			wordStyle = theme.removedWord;
			break;
		}

		case 'added': {
			base = theme.added;
			wordStyle = theme.addedWord;
			break;
		}

		default: {
			return assertNever(row.kind, 'diff appendRow');
		}
	}

	// Removed lines never take syntax colours (see the module comment).
	const rowSyntax = row.kind === 'removed' ? undefined : syntax;
	// Fast path for the common row (whole-side fallbacks can have tens of thousands): one style.
	if (rowSyntax === undefined && words === undefined) {
		const text = markers[row.kind] + sanitizeLine(row.text);
		if (text.length <= ctx.width && printableAscii.test(text)) {
			lines.push({spans: [{text, style: base}]});
		} else {
			pushAll(lines, wrapSpans([{text, style: base}], ctx.width));
		}

		return;
	}

	const content = composeSpans(row.text, base, rowSyntax, words, wordStyle);
	pushAll(lines, wrapSpans(mergeSpans([{text: markers[row.kind], style: base}, ...sanitizeSpans(content)]), ctx.width));
}

function appendHunk(out: DiffRows, hunk: PlannedHunk, ctx: DiffLayoutContext): void {
	const {theme, width} = ctx;
	const {diff, lineDiff} = hunk;
	if (lineDiff.approximate !== undefined) {
		out.add(textRows(approximationNotice(lineDiff.approximate), theme.muted, width));
	}

	const words = rowWordHighlights(lineDiff);
	const lang = theme.name === 'color' && lineDiff.approximate === undefined ? langFromPath(diff.path) : undefined;
	const syntax = new Map<number, readonly Span[]>();
	if (lang !== undefined) {
		for (const range of hunk.visible) {
			for (const [index, spans] of syntaxRows(lineDiff, lang, range) ?? []) {
				syntax.set(index, spans);
			}
		}
	}

	const {rows} = lineDiff;
	for (let index = 0; index < rows.length; index++) {
		const row = rows[index]!;
		const rowWords = words.size === 0 ? undefined : words.get(index);
		// A row no fold shows (never syntax-coloured) is only counted when it is surely one row.
		if (!out.showing && row.kind !== 'gap' && rowWords === undefined && (asciiColumns(row.text) ?? width) + markers[row.kind].length <= width) {
			out.skipOneRow();
		} else if (row.kind === 'gap') {
			out.add(textRows(`⋯ ${plural(row.count, 'unchanged line', 'unchanged lines')}`, theme.muted, width));
		} else {
			const built: StyledLine[] = [];
			appendRow(built, row, syntax.size === 0 ? undefined : syntax.get(index), rowWords, ctx);
			out.add(built);
		}
	}
}

/**
The rows of a diff body as they are built, one position (an unwrapped row: a header, a diff row, a
gap row…) at a time. Positions in `hidden` — those no `bounded` fold can show (see `visibleRows`) —
are counted, not kept: their rows become the body's `omitted` gap, so a 40 000-row body folds
without building 40 000 rows, and the fold's `… N lines hidden (of M)` stays exact.
*/
class DiffRows {
	readonly lines: StyledLine[] = [];
	readonly #hidden: RowRange;
	#position = 0;
	#omittedAt = 0;
	#omitted = 0;
	#omittedStarts = 0;

	constructor(hidden: RowRange) {
		this.#hidden = hidden;
	}

	/** Whether the next position may be shown (its rows are kept). */
	get showing(): boolean {
		return this.#position < this.#hidden[0] || this.#position >= this.#hidden[1];
	}

	/** The next position's rows. */
	add(rows: readonly StyledLine[]): void {
		if (this.showing) {
			pushAll(this.lines, rows);
		} else {
			this.#omittedAt = this.lines.length;
			this.#omitted += rows.length;
			for (const row of rows) {
				this.#omittedStarts += row.softWrap === true ? 0 : 1;
			}
		}

		this.#position++;
	}

	/** The next position, hidden, as one row that begins a line. */
	skipOneRow(): void {
		this.#omittedAt = this.lines.length;
		this.#omitted++;
		this.#omittedStarts++;
		this.#position++;
	}

	/** The rows not kept, as `CardBody.omitted` (undefined when every row was kept). */
	omitted(): CardBody['omitted'] {
		return this.#omitted === 0 ? undefined : {at: this.#omittedAt, count: this.#omitted, starts: this.#omittedStarts};
	}
}

/** One hunk to draw, with the row ranges that may be visible at the expansion. */
type PlannedHunk = {readonly diff: FileDiff; readonly lineDiff: LineDiff; visible: readonly RowRange[]};

/** What the body holds, in order, before wrapping. */
type PlannedItem =
	| {readonly kind: 'blank'}
	| {readonly kind: 'header'; readonly text: string; readonly first: boolean}
	| {readonly kind: 'separator'}
	| {readonly kind: 'hunk'; readonly hunk: PlannedHunk};

/**
The hunk rows that may be visible at `expansion`, given where the hunk starts among `total` body rows
(counted before wrapping: wrapping only moves rows away from the ends, so this is a superset).
`summary` shows no hunk row; `bounded` the rows near either end; `full` all of them.
*/
function visibleRows(expansion: Expansion, start: number, length: number, total: number): RowRange[] {
	switch (expansion) {
		case 'summary': {
			return [];
		}

		case 'bounded': {
			const head = Math.min(length, Math.max(0, BOUNDED_VISIBLE_ROWS - start));
			const tailFrom = Math.max(head, total - BOUNDED_VISIBLE_ROWS - start);
			const ranges: RowRange[] = [];
			if (head > 0) {
				ranges.push([0, head]);
			}

			if (tailFrom < length) {
				ranges.push([tailFrom, length]);
			}

			return ranges;
		}

		case 'full': {
			return length === 0 ? [] : [[0, length]];
		}

		default: {
			return assertNever(expansion, 'diff visibleRows');
		}
	}
}

/**
The body positions (unwrapped rows, counted as `visibleRows` counts them; `total` includes the
footer) that no fold at `expansion` can show: in `bounded`, those past `BOUNDED_VISIBLE_ROWS` from
either end. Only `bounded` leaves rows out: `full` shows them all, and a `summary` card lays out only
its footer (`layoutDiffFooterBody`), so a `summary` here keeps every row for callers that read them.
*/
function hiddenPositions(expansion: Expansion, total: number): RowRange {
	return expansion === 'bounded' && total > 2 * BOUNDED_VISIBLE_ROWS ? [BOUNDED_VISIBLE_ROWS, total - BOUNDED_VISIBLE_ROWS] : [0, 0];
}

/** Consecutive entries with the same path. */
function groupByPath(diffs: readonly FileDiff[]): FileDiff[][] {
	const groups: FileDiff[][] = [];
	for (const diff of diffs) {
		const last = groups.at(-1);
		if (last !== undefined && last[0]!.path === diff.path) {
			last.push(diff);
		} else {
			groups.push([diff]);
		}
	}

	return groups;
}

/**
The body of a diff card: every file's path, hunks and changed lines wrapped to `ctx.width`, and the
summary footer. Line diffs are bounded (`limits`, defaults in `line-diff.ts`) and cached per
`FileDiff` object, so calling this on every frame costs only the wrapping.
*/
export function layoutDiffBody(diffs: readonly FileDiff[], ctx: DiffLayoutContext, limits?: DiffLimits): CardBody {
	const {theme, width} = ctx;
	// Plan first: the row count decides which hunk rows a fold can show, hence what to highlight.
	const items: PlannedItem[] = [];
	const hunks: Array<{readonly hunk: PlannedHunk; readonly start: number}> = [];
	let rows = 0;
	let added = 0;
	let removed = 0;
	let approximate = false;
	for (const [groupIndex, group] of groupByPath(diffs).entries()) {
		if (groupIndex > 0) {
			items.push({kind: 'blank'});
			rows++;
		}

		const path = sanitizeInline(group[0]!.path);
		const created = group.every(diff => diff.oldText === null);
		items.push({kind: 'header', text: diffPathHeader(path, created, ctx.pending === true, ctx.notApplied === true), first: groupIndex === 0});
		rows++;
		for (const [hunkIndex, diff] of group.entries()) {
			if (hunkIndex > 0) {
				items.push({kind: 'separator'});
				rows++;
			}

			const lineDiff = computeLineDiff(diff, limits);
			added += lineDiff.added;
			removed += lineDiff.removed;
			approximate ||= lineDiff.approximate !== undefined;
			if (lineDiff.approximate !== undefined) {
				rows++;
			}

			const hunk: PlannedHunk = {diff, lineDiff, visible: []};
			items.push({kind: 'hunk', hunk});
			hunks.push({hunk, start: rows});
			rows += lineDiff.rows.length;
		}
	}

	const total = rows + 1;
	for (const {hunk, start} of hunks) {
		hunk.visible = visibleRows(ctx.expansion, start, hunk.lineDiff.rows.length, total);
	}

	const out = new DiffRows(hiddenPositions(ctx.expansion, total));
	let pinnedTop = 0;
	for (const item of items) {
		switch (item.kind) {
			case 'blank': {
				out.add([{spans: []}]);
				break;
			}

			case 'header': {
				const header = textRows(item.text, theme.path, width);
				pinnedTop = item.first ? header.length : pinnedTop;
				out.add(header);
				break;
			}

			case 'separator': {
				out.add(textRows('⋯', theme.muted, width));
				break;
			}

			case 'hunk': {
				appendHunk(out, item.hunk, ctx);
				break;
			}

			default: {
				assertNever(item, 'diff layoutDiffBody');
			}
		}
	}

	const footer = diffFooter(diffs, {added, removed, approximate}, ctx);
	const {lines} = out;
	pushAll(lines, footer);
	const omitted = out.omitted();
	return {lines, pinnedTop, pinnedBottom: footer.length, ...(omitted === undefined ? {} : {omitted})};
}

/** The footer a diff body ends in: `+A −R · N files`, and `· approximate` when a line diff was. */
function diffFooter(diffs: readonly FileDiff[], counts: {readonly added: number; readonly removed: number; readonly approximate: boolean}, ctx: DiffLayoutContext): StyledLine[] {
	const files = new Set(diffs.map(diff => diff.path)).size;
	const summary = `+${counts.added} −${counts.removed} · ${plural(files, 'file', 'files')}${counts.approximate ? ' · approximate' : ''}`;
	return textRows(summary, ctx.theme.muted, ctx.width);
}

/** A diff body's footer alone (what a summary shows): the line diffs counted, no row laid out. */
export function layoutDiffFooterBody(diffs: readonly FileDiff[], ctx: DiffLayoutContext, limits?: DiffLimits): CardBody {
	let added = 0;
	let removed = 0;
	let approximate = false;
	for (const diff of diffs) {
		const lineDiff = computeLineDiff(diff, limits);
		added += lineDiff.added;
		removed += lineDiff.removed;
		approximate ||= lineDiff.approximate !== undefined;
	}

	const footer = diffFooter(diffs, {added, removed, approximate}, ctx);
	return {lines: footer, pinnedBottom: footer.length};
}
