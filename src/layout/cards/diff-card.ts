/**
@module The diff card body: per file its path, then its lines numbered old and new, `-`/`+` lines
with the changed words highlighted, unchanged context in the body tone, and a `+A −R · K files`
footer.

Layout per file group (consecutive entries with the same path are hunks of one file):
- the path in `theme.path`, as `Created <path>` when every entry of the group has `oldText: null`;
  while the call runs (a preview, before approval or result) `Will create <path>` / `Will edit <path>`;
  for a call refused or cancelled before it ran, the preview it was asked with: `Not created <path>` /
  `Not applied to <path>`;
- per line: a muted number gutter (a removed line's old number, an added or context line's new
  one; see diff-plan.ts), then `- text` (`theme.removed`), `+ text` (`theme.added`), `  text`
  (`theme.body`); a wrapped line continues under its text. A hunk without starts (a pending edit:
  its presenter cannot know where the text is) has no numbers, and a body with none has no gutter;
- unchanged lines not shown as a muted `⋯ N unchanged lines` row (between hunks of a numbered file
  too; a bare `⋯` where the count is unknown); an approximate hunk (a diff bound was hit) starts
  with a muted `[exact line diff omitted: …]`;
- groups separated by one empty row.
The footer `+A −R · K files` (K = distinct paths, context lines not counted), with ` · approximate`
when any bound was hit, is muted and pinned at the bottom; the first path is pinned at the top.

A `bounded` body is fitted to the fold's row budget here (diff-fit.ts): context is hidden before
any changed line, and a `-`/`+` run is not cut, so the fold never hides the fix while showing the
lines around it.

Colour rules: the word-level changed parts use `theme.removedWord` / `theme.addedWord` alone.
With a colour theme and a known language (from the path's extension), the shown added and context
lines get syntax colours over their base style (`{...added, ...token}`), while the `+` marker and
any uncoloured token keep the added colour; removed lines stay wholly `theme.removed`, so the old
side never reads as new code. Only the lines shown are highlighted (a line a fold or a gap hides never
is), each run of them that follows each other in the file by itself, after the opener of any comment
or string open above it (found by a cheap scan, open-constructs.ts); a hunk whose shown lines pass
the highlighter's size limit, and an approximate hunk, are not coloured.
*/
import {assertNever} from '../../presentation/assert-never.js';
import {langFromPath} from '../../presentation/lang-from-path.js';
import type {FileDiff} from '../../tools/views.js';
import type {CardBody} from './card-body.js';
import {fitDiff, type DiffFit} from '../diff/diff-fit.js';
import {FULL_CONTEXT, planDiff, planHunk, type DiffPosition, type FileGroup, type PlannedHunk} from '../diff/diff-plan.js';
import {composeSpans, mergeSpans, sanitizeSpans, textRows} from '../diff/diff-spans.js';
import {OK_ROW_BUDGET} from './fold-body.js';
import {formatCount, plural} from '../text/format.js';
import {HIGHLIGHT_MAX_CHARS, HIGHLIGHT_MAX_LINES, highlightLines} from '../highlight/highlight.js';
import {grammarFor} from '../highlight/highlight-lang.js';
import {OpenConstructs} from '../highlight/open-constructs.js';
import type {Expansion} from '../text/layout-options.js';
import {computeLineDiff, type DiffApproximation, type DiffLimits, type DiffRow, type LineDiff} from '../diff/line-diff.js';
import {numberedRows} from '../text/numbered-rows.js';
import {sanitizeInline, sanitizeLine, TAB_STOP} from '../text/sanitize.js';
import {span, truncateSpans, wrapSpans} from '../text/spans.js';
import {maxOf, pushAll} from '../text/push-all.js';
import type {Span, Style, StyledLine} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';
import {rowWordHighlights, type RowWords} from '../diff/word-diff.js';

/** What the diff body depends on besides the diffs. */
export type DiffLayoutContext = {
	readonly width: number;
	readonly theme: Theme;
	readonly expansion: Expansion;
	/** The change has not happened yet (a running call's preview, awaiting approval or its result). */
	readonly pending?: boolean;
	/** Rows a `bounded` fold shows, footer and path included (default `OK_ROW_BUDGET`). */
	readonly budget?: number;
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

/** The marker columns before a line's text. */
const markers = {context: '  ', removed: '- ', added: '+ '} as const;

type SyntaxRows = ReadonlyMap<number, readonly Span[]>;

/** A run of rows of one hunk whose added and context lines follow each other in its new side: `[from, to)`. */
type RowRange = readonly [from: number, to: number];

const syntaxCache = new WeakMap<LineDiff, Map<string, SyntaxRows | null>>();

/**
Syntax spans of the added and context rows in `range` of one hunk (by row index), highlighted as one
sequence of new-side lines after the line `openerOf()` gives (the constructs open above them, whose
colours are dropped); null when not highlightable. Cached per `LineDiff` (so per `FileDiff`) and range:
a redraw neither scans nor highlights.
*/
function syntaxRows(lineDiff: LineDiff, lang: string, range: RowRange, openerOf: () => string | undefined): SyntaxRows | null {
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

	const opener = openerOf();
	const indexes: number[] = [];
	const texts: string[] = opener === undefined ? [] : [opener];
	for (let index = range[0]; index < range[1]; index++) {
		const row = lineDiff.rows[index]!;
		if (onNewSide(row)) {
			indexes.push(index);
			texts.push(row.text);
		}
	}

	const spans = highlightLines(texts, lang);
	const first = opener === undefined ? 0 : 1;
	const result = spans === undefined ? null : new Map(indexes.map((rowIndex, index) => [rowIndex, spans[first + index]!]));
	byRange.set(key, result);
	return result;
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
stop from the text's start, as it expands them), or undefined for any other text: whether a line is
one row, without building its text.
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

/** What the rows of one body share: the context, the gutter's width, each hunk's words and syntax colours. */
type RowBuilder = {
	readonly ctx: DiffLayoutContext;
	readonly groups: readonly FileGroup[];
	/** Columns of the line-number gutter, its space included (0: no hunk is numbered, no gutter). */
	readonly gutter: number;
	readonly words: Map<LineDiff, Pick<RowWords, 'get'>>;
	/** Syntax spans per hunk and row, for the rows shown (filled by `colourShown`). */
	readonly syntax: Map<LineDiff, Map<number, readonly Span[]>>;
};

/** A hunk whose rows carry no word highlights (rows written plain). */
const noWords: Pick<RowWords, 'get'> = {get: () => undefined};

function wordsOf(builder: RowBuilder, lineDiff: LineDiff): Pick<RowWords, 'get'> {
	let words = builder.words.get(lineDiff);
	if (words === undefined) {
		// Word highlights are only a style: rows written plain skip the word diff (most of a diff's cost).
		words = builder.ctx.theme.name === 'plain' ? noWords : rowWordHighlights(lineDiff);
		builder.words.set(lineDiff, words);
	}

	return words;
}

/** The gutter spans of a line: its number right-aligned in the gutter (blank for an unnumbered hunk), then the marker. */
function gutterSpans(builder: RowBuilder, number: number | undefined, marker: string, base: Style): Span[] {
	const digits = number === undefined ? '' : String(number);
	return [span(`${digits.padStart(builder.gutter - 1)} `, builder.ctx.theme.muted), span(marker, base)];
}

/** The rows of one diff line. */
function lineRows(builder: RowBuilder, position: Extract<DiffPosition, {kind: 'line'}>): StyledLine[] {
	const {ctx} = builder;
	const {theme, width} = ctx;
	const {lineDiff} = position.hunk;
	const row = lineDiff.rows[position.row]!;
	if (row.kind === 'gap') {
		return [];
	}

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
			return assertNever(row, 'diff lineRows');
		}
	}

	const rowWords = wordsOf(builder, lineDiff).get(position.row);
	// Removed lines never take syntax colours (see the module comment).
	const rowSyntax = row.kind === 'removed' ? undefined : builder.syntax.get(lineDiff)?.get(position.row);
	const marker = markers[row.kind];
	if (builder.gutter > 0) {
		const content = rowSyntax === undefined && rowWords === undefined ? [span(sanitizeLine(row.text), base)] : mergeSpans(sanitizeSpans(composeSpans(row.text, base, rowSyntax, rowWords, wordStyle)));
		const rows = numberedRows(gutterSpans(builder, position.number, marker, base), content, builder.gutter + marker.length, width);
		rows[0] = {spans: mergeSpans(rows[0]!.spans)};
		return rows;
	}

	// Fast path for the common row (whole-side fallbacks can have tens of thousands): one style.
	if (rowSyntax === undefined && rowWords === undefined) {
		// The marker is printable ASCII: testing the line alone spares flattening the joined string.
		const line = sanitizeLine(row.text);
		const text = marker + line;
		return text.length <= width && printableAscii.test(line) ? [{spans: [{text, style: base}]}] : wrapSpans([{text, style: base}], width);
	}

	const content = composeSpans(row.text, base, rowSyntax, rowWords, wordStyle);
	return wrapSpans(mergeSpans([{text: marker, style: base}, ...sanitizeSpans(content)]), width);
}

/** `⋯ N unchanged lines`, or a bare `⋯` when the count is not known. */
function gapText(count: number | undefined): string {
	return count === undefined || count <= 0 ? '⋯' : `⋯ ${plural(count, 'unchanged line')}`;
}

/** The rows of one position. */
function positionRows(builder: RowBuilder, position: DiffPosition): StyledLine[] {
	const {theme, width} = builder.ctx;
	switch (position.kind) {
		case 'blank': {
			return [{spans: []}];
		}

		case 'header': {
			const {diffs} = builder.groups[position.group]!;
			const created = diffs.every(diff => diff.oldText === null);
			return textRows(diffPathHeader(sanitizeInline(diffs[0]!.path), created, builder.ctx.pending === true, builder.ctx.notApplied === true), theme.path, width);
		}

		case 'notice': {
			return textRows(approximationNotice(position.hunk.lineDiff.approximate!), theme.muted, width);
		}

		case 'gap': {
			// Under the markers when lines are numbered, so the gutter reads as numbers only.
			return textRows(`${' '.repeat(builder.gutter)}${gapText(position.count)}`, theme.muted, width);
		}

		case 'line': {
			return lineRows(builder, position);
		}

		default: {
			return assertNever(position, 'diff positionRows');
		}
	}
}

/** Rows of a position without building them when a line is surely one row. */
function rowCount(builder: RowBuilder, position: DiffPosition): number {
	if (position.kind === 'line') {
		const row = position.hunk.lineDiff.rows[position.row]!;
		// Word highlights change a row's styles, not its columns: they are not compared for a row only counted.
		if (row.kind !== 'gap') {
			const columns = asciiColumns(row.text);
			if (columns !== undefined && builder.gutter + markers[row.kind].length + columns <= builder.ctx.width) {
				return 1;
			}
		}
	}

	return positionRows(builder, position).length;
}

/** Whether a row is a line of its hunk's new side (the lines syntax colours are for). */
function onNewSide(row: DiffRow): row is {readonly kind: 'context' | 'added'; readonly text: string} {
	return row.kind === 'context' || row.kind === 'added';
}

/** Whether every row strictly between `from` and `to` is a removed line: no new-side line lies between them. */
function onlyRemovedBetween(lineDiff: LineDiff, from: number, to: number): boolean {
	for (let row = from + 1; row < to; row++) {
		if (lineDiff.rows[row]!.kind !== 'removed') {
			return false;
		}
	}

	return true;
}

/** The runs of shown new-side rows of each hunk, in order; runs break wherever a new-side line is not shown. */
function shownRuns(positions: readonly DiffPosition[]): Map<PlannedHunk, Array<[number, number]>> {
	const runs = new Map<PlannedHunk, Array<[number, number]>>();
	for (const position of positions) {
		if (position.kind !== 'line' || !onNewSide(position.hunk.lineDiff.rows[position.row]!)) {
			continue;
		}

		let hunkRuns = runs.get(position.hunk);
		if (hunkRuns === undefined) {
			hunkRuns = [];
			runs.set(position.hunk, hunkRuns);
		}

		const last = hunkRuns.at(-1);
		if (last !== undefined && position.row >= last[1] && onlyRemovedBetween(position.hunk.lineDiff, last[1] - 1, position.row)) {
			last[1] = position.row + 1;
		} else {
			hunkRuns.push([position.row, position.row + 1]);
		}
	}

	return runs;
}

/**
The line a run of a hunk is highlighted after: undefined for a run at its new side's start, else the
openers of the constructs open above it (a comment, a template literal… see open-constructs.ts), or
an empty line when none is (a line break before it, as in the file: `key:` after one reads as a
property). Asked for runs in order, it scans the new side once.
*/
function openersOf(hunk: PlannedHunk, grammar: string | undefined): (row: number) => string | undefined {
	let constructs: OpenConstructs | undefined;
	let row = 0;
	let line = 0;
	return from => {
		if (from < row) {
			row = 0;
			line = 0;
		}

		const {rows} = hunk.lineDiff;
		for (; row < from; row++) {
			const current = rows[row]!;
			line += current.kind === 'gap' ? current.count : (current.kind === 'removed' ? 0 : 1);
		}

		if (line === 0) {
			return undefined;
		}

		constructs ??= grammar === undefined ? undefined : OpenConstructs.of(hunk.diff.newText, grammar);
		return constructs?.openerAt(line) ?? '';
	};
}

/**
Syntax colours for the shown lines of each hunk. Each run of shown lines that follow each other in
the file is highlighted by itself, after the opener of any construct open above it; a line not shown
(folded away, or in a gap) is never highlighted. A hunk whose shown lines together pass the
highlighter's size limit is not coloured, as one run of that size would not be.
*/
function colourShown(builder: RowBuilder, positions: readonly DiffPosition[]): void {
	if (builder.ctx.theme.name !== 'color' || builder.ctx.expansion === 'summary') {
		return;
	}

	for (const [hunk, runs] of shownRuns(positions)) {
		const lang = hunk.lineDiff.approximate === undefined ? langFromPath(hunk.diff.path) : undefined;
		if (lang === undefined || !withinHighlightLimits(hunk.lineDiff, runs)) {
			continue;
		}

		const openerAt = openersOf(hunk, grammarFor(lang));
		// One map per line diff: the same `FileDiff` given twice is one line diff, planned as two hunks.
		const rows = builder.syntax.get(hunk.lineDiff) ?? new Map<number, readonly Span[]>();
		for (const run of runs) {
			const spans = syntaxRows(hunk.lineDiff, lang, run, () => openerAt(run[0]));
			for (const [index, row] of spans ?? []) {
				rows.set(index, row);
			}
		}

		builder.syntax.set(hunk.lineDiff, rows);
	}
}

/** Whether the new-side lines of `runs` together are within the highlighter's line and character limits. */
function withinHighlightLimits(lineDiff: LineDiff, runs: ReadonlyArray<readonly [number, number]>): boolean {
	let lines = 0;
	let chars = 0;
	for (const [from, to] of runs) {
		for (let row = from; row < to; row++) {
			const current = lineDiff.rows[row]!;
			if (onNewSide(current)) {
				lines++;
				chars += current.text.length;
			}
		}
	}

	return lines <= HIGHLIGHT_MAX_LINES && chars <= HIGHLIGHT_MAX_CHARS;
}

/** Consecutive entries with the same path, each hunk's line diff computed (bounded, cached). */
function groupByPath(diffs: readonly FileDiff[], limits: DiffLimits | undefined): FileGroup[] {
	const groups: Array<{diffs: FileDiff[]; hunks: PlannedHunk[]}> = [];
	for (const diff of diffs) {
		const hunk = planHunk(diff, computeLineDiff(diff, limits));
		const last = groups.at(-1);
		if (last !== undefined && last.diffs[0]!.path === diff.path) {
			last.diffs.push(diff);
			last.hunks.push(hunk);
		} else {
			groups.push({diffs: [diff], hunks: [hunk]});
		}
	}

	return groups;
}

/** The fold marker of a fitted body: the changed lines it hides, of all of them. */
function markerRow(marker: NonNullable<DiffFit['marker']>, ctx: DiffLayoutContext): StyledLine {
	const text = marker.hiddenChanges > 0
		? `… ${plural(marker.hiddenChanges, 'changed line')} hidden (of ${formatCount(marker.changes)})`
		: `… ${plural(marker.hiddenPositions, 'line')} hidden`;
	return {spans: truncateSpans([span(text, ctx.theme.muted)], ctx.width)};
}

/**
The body of a diff card: every file's path, hunks and changed lines wrapped to `ctx.width`, and the
summary footer; in `bounded`, fitted to the fold's budget (diff-fit.ts). Line diffs are bounded
(`limits`, defaults in `line-diff.ts`) and cached per `FileDiff` object, so calling this on every
frame costs only the planning and the wrapping of what is shown.
*/
export function layoutDiffBody(diffs: readonly FileDiff[], ctx: DiffLayoutContext, limits?: DiffLimits): CardBody {
	const groups = groupByPath(diffs, limits);
	const largest = maxOf(groups.flatMap(group => group.hunks.map(hunk => hunk.largestNumber)), 0);
	const numbered = groups.some(group => group.hunks.some(hunk => hunk.starts !== undefined));
	const builder: RowBuilder = {ctx, groups, gutter: numbered ? String(Math.max(1, largest)).length + 1 : 0, words: new Map(), syntax: new Map()};
	const footer = diffFooter(diffs, countsOf(groups.flatMap(group => group.hunks.map(hunk => hunk.lineDiff))), ctx);
	let fit: DiffFit;
	if (ctx.expansion === 'bounded') {
		fit = fitDiff(groups, ctx.budget ?? OK_ROW_BUDGET, footer.length, position => rowCount(builder, position));
	} else {
		const positions: DiffPosition[] = [];
		planDiff(groups, FULL_CONTEXT, positions);
		fit = {positions};
	}

	colourShown(builder, fit.positions);
	const lines: StyledLine[] = [];
	let pinnedTop = 0;
	const {positions} = fit;
	for (let index = 0; index < positions.length; index++) {
		if (index === fit.marker?.at) {
			lines.push(markerRow(fit.marker, ctx));
		}

		const rows = positionRows(builder, positions[index]!);
		pinnedTop = index === 0 ? rows.length : pinnedTop;
		pushAll(lines, rows);
	}

	if (fit.marker !== undefined && fit.marker.at >= positions.length) {
		lines.push(markerRow(fit.marker, ctx));
	}

	pushAll(lines, footer);
	return {lines, pinnedTop, pinnedBottom: footer.length};
}

type DiffCounts = {readonly added: number; readonly removed: number; readonly approximate: boolean};

function countsOf(lineDiffs: Iterable<LineDiff>): DiffCounts {
	let added = 0;
	let removed = 0;
	let approximate = false;
	for (const lineDiff of lineDiffs) {
		added += lineDiff.added;
		removed += lineDiff.removed;
		approximate ||= lineDiff.approximate !== undefined;
	}

	return {added, removed, approximate};
}

/** The footer a diff body ends in: `+A −R · N files`, and `· approximate` when a line diff was. */
function diffFooter(diffs: readonly FileDiff[], counts: DiffCounts, ctx: DiffLayoutContext): StyledLine[] {
	const files = new Set(diffs.map(diff => diff.path)).size;
	const summary = `+${counts.added} −${counts.removed} · ${plural(files, 'file')}${counts.approximate ? ' · approximate' : ''}`;
	return textRows(summary, ctx.theme.muted, ctx.width);
}

/** A diff body's footer alone (what a summary shows): the line diffs counted, no row laid out. */
export function layoutDiffFooterBody(diffs: readonly FileDiff[], ctx: DiffLayoutContext, limits?: DiffLimits): CardBody {
	const footer = diffFooter(diffs, countsOf(diffs.map(diff => computeLineDiff(diff, limits))), ctx);
	return {lines: footer, pinnedBottom: footer.length};
}
