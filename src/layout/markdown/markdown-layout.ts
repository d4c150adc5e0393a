/**
@module Markdown messages (an assistant's text) as styled rows at a width.

Blocks are laid out as logical lines, each starting with its container prefix (list indent, quote
gutter `│ `), then wrapped: prose between words (`wrapProseSpans`), code at the column
(`wrapSpans`); a continuation row is a soft wrap with no prefix, so a paragraph copied from the
terminal comes out as one line. Headings drop their `#` marker for a style by level (bold, the
first two coloured, the first underlined); lists draw `•`/`◦`/`▪` by depth, `1.` numbers, and
`☐`/`☒` for tasks; code blocks drop their fence rows and are indented and syntax-coloured
(markdown-code.ts); a horizontal rule is a muted `─` line; tables fit the width (markdown-table.ts). Copying a
whole message gives its Markdown source (`markdownCopyText`).

The message is cut into top-level blocks (markdown-blocks.ts); each block's rows are cached by
(text, width, theme), and a message that grows by appending re-splits only its last block, so a
streamed message costs in proportion to its last block per delta. Only the first
`MARKDOWN_MAX_CHARS` of a message is lexed; blocks starting after that are plain text.
*/
import type {Links, Token, Tokens} from 'marked';
import {type CodeBlock, codeBlockLines, fencedCode} from './markdown-code.js';
import {extendSplit, type MarkdownBlock, type MarkdownSplit, splitMarkdown} from './markdown-blocks.js';
import {inlineLines} from './markdown-inline.js';
import {lexBlock, MARKDOWN_MAX_DEPTH} from './markdown-lex.js';
import {maxOf, pushAll} from '../text/push-all.js';
import {tableLines} from './markdown-table.js';
import {sanitizeLines, sanitizeText} from '../text/sanitize.js';
import {span, spansWidth, wrapProseSpans, wrapSpans} from '../text/spans.js';
import type {Span, StyledLine, Style} from '../text/styled-line.js';
import {LruCache} from '../text/lru-cache.js';
import type {RowsHead} from '../entries/entry-rows.js';
import type {Theme} from '../text/theme.js';

/** Laid-out blocks kept at most (least recently used evicted first). */
export const MARKDOWN_BLOCK_CACHE_LIMIT = 4096;

/** Laid-out messages kept at most. */
export const MARKDOWN_MESSAGE_CACHE_LIMIT = 256;

/** Characters of cache keys (block and message texts) kept at most, so huge messages cannot pin memory. */
const CACHE_CHARS_LIMIT = 64 * 1024 * 1024;

/** How a message is laid out; `cache: false` (rows drawn once, as LayoutOptions says) skips the caches. */
export type MarkdownLayoutOptions = {readonly width: number; readonly theme: Theme; readonly cache?: boolean};

type Context = {
	readonly theme: Theme;
	readonly width: number;
	/** Spans every logical line of this container starts with. */
	readonly prefix: readonly Span[];
	/** The inherited text style (quote text). */
	readonly style: Style;
	/** Containers (lists and quotes) around this one. */
	readonly depth: number;
};

const bullets = ['•', '◦', '▪'] as const;

/**
The logical lines of code blocks: cut at the column so they copy exactly as is, while every other
line is prose, wrapped between words. Marked by identity (lines are fresh arrays of one layout).
*/
const codeLines = new WeakSet<readonly Span[]>();

function asCode(lines: Span[][]): Span[][] {
	for (const line of lines) {
		codeLines.add(line);
	}

	return lines;
}

/** An empty line of a container: its prefix without trailing blanks (a quote keeps `│`). */
function blankLine(context: Context): Span[] {
	const line = [...context.prefix];
	while (line.length > 0) {
		const trimmed = line.at(-1)!.text.trimEnd();
		if (trimmed !== '') {
			line[line.length - 1] = span(trimmed, line.at(-1)!.style);
			break;
		}

		line.pop();
	}

	return line;
}

function withPrefix(context: Context, lines: readonly Span[][]): Span[][] {
	return lines.map(line => (line.length === 0 ? blankLine(context) : [...context.prefix, ...line]));
}

/** Display columns left after the prefix. */
function room(context: Context): number {
	return Math.max(1, context.width - spansWidth(context.prefix));
}

function codeOf(token: Tokens.Code): CodeBlock {
	const fenced = /^ {0,3}(?:`{3,}|~{3,})/.test(token.raw);
	const closed = !fenced || /(?:`{3,}|~{3,})[ \t]*\n*$/.test(token.raw.trimEnd().split('\n').slice(1).join('\n'));
	return {code: token.text, lang: (token.lang ?? '').split(/\s/)[0] ?? '', closed};
}

function listLines(token: Tokens.List, context: Context): Span[][] {
	const flat = context.depth >= MARKDOWN_MAX_DEPTH;
	const start = typeof token.start === 'number' ? token.start : 1;
	const numbers = token.items.map((_, index) => `${start + index}.`);
	const markerWidth = token.ordered ? maxOf(numbers.map(number => number.length), 0) : 1;
	const bullet = bullets[Math.min(context.depth, 64) % bullets.length]!;
	const lines: Span[][] = [];
	for (const [index, item] of token.items.entries()) {
		if (index > 0 && token.loose) {
			lines.push(blankLine(context));
		}

		let marker = token.ordered ? numbers[index]!.padStart(markerWidth) : bullet;
		if (item.task) {
			marker = token.ordered ? `${marker} ${item.checked ? '☒' : '☐'}` : (item.checked ? '☒' : '☐');
		}

		const hang = flat ? '' : ' '.repeat(marker.length + 1);
		const inner: Context = {...context, prefix: flat ? context.prefix : [...context.prefix, span(hang)], depth: context.depth + 1};
		// A task's checkbox token is drawn as the marker.
		const body = blockLines(item.tokens.filter(child => child.type !== 'checkbox'), inner, item.loose);
		const markerSpan = span(`${marker} `, context.theme.muted);
		if (body.length === 0) {
			lines.push([...context.prefix, span(marker, context.theme.muted)]);
			continue;
		}

		const [first, ...others] = body;
		// The first line's hanging indent becomes the marker (when flat, the marker goes in front).
		const marked = [...context.prefix, markerSpan];
		pushAll(marked, first!.slice(inner.prefix.length));
		if (codeLines.has(first!)) {
			// An item that starts with a code block: its first line is still code.
			codeLines.add(marked);
		}

		lines.push(marked);
		pushAll(lines, others);
	}

	return lines;
}

function quoteLines(token: Tokens.Blockquote, context: Context): Span[][] {
	const flat = context.depth >= MARKDOWN_MAX_DEPTH;
	const inner: Context = {
		...context,
		prefix: flat ? context.prefix : [...context.prefix, span('│ ', context.theme.muted)],
		style: {...context.style, ...context.theme.markdownQuote},
		depth: context.depth + 1,
	};
	return blockLines(token.tokens, inner, true);
}

/**
A heading's text style, without its `#` marker (as the peers draw one): a first-level heading
underlined, the first two levels in the heading colour, every level bold.
*/
function headingStyle(depth: number, theme: Theme): Style {
	if (depth === 1) {
		return {...theme.markdownHeading, underline: true};
	}

	return depth === 2 ? theme.markdownHeading : theme.markdownSubheading;
}

/** One block token as logical lines (prefix included). */
function tokenLines(token: Token, context: Context): Span[][] {
	const {theme} = context;
	switch (token.type) {
		case 'space':
		case 'def': {
			return [];
		}

		case 'heading': {
			const heading = token as Tokens.Heading;
			return withPrefix(context, inlineLines(heading.tokens, {...context.style, ...headingStyle(heading.depth, theme)}, theme));
		}

		case 'paragraph':
		case 'text': {
			const text = token as Tokens.Paragraph | Tokens.Text;
			const lines = text.tokens === undefined ? sanitizeLines(text.text).map(line => [span(line, context.style)]) : inlineLines(text.tokens, context.style, theme);
			return withPrefix(context, lines);
		}

		case 'code': {
			return asCode(withPrefix(context, codeBlockLines(codeOf(token as Tokens.Code), theme)));
		}

		case 'list': {
			return listLines(token as Tokens.List, context);
		}

		case 'blockquote': {
			return quoteLines(token as Tokens.Blockquote, context);
		}

		case 'hr': {
			return withPrefix(context, [[span('─'.repeat(room(context)), theme.muted)]]);
		}

		case 'table': {
			return withPrefix(context, tableLines(token as Tokens.Table, room(context), context.style, theme));
		}

		default: {
			// Raw HTML (shown as the text it is, never interpreted) and any block type a newer marked adds.
			const text = token.type === 'html' ? (token as Tokens.HTML).text : (token.raw ?? '');
			return withPrefix(context, plainLines(text.replace(/\n+$/, ''), context.style));
		}
	}
}

/** Sibling blocks, a blank line between them unless `separated` is false (a tight list item). */
function blockLines(tokens: readonly Token[], context: Context, separated: boolean): Span[][] {
	const lines: Span[][] = [];
	for (const token of tokens) {
		const next = tokenLines(token, context);
		if (next.length === 0) {
			continue;
		}

		if (separated && lines.length > 0) {
			lines.push(blankLine(context));
		}

		for (const line of next) {
			lines.push(line);
		}
	}

	return lines;
}

function plainLines(text: string, style: Style): Span[][] {
	return sanitizeLines(text).map(line => (line === '' ? [] : [span(line, style)]));
}

function wrapAll(lines: readonly Span[][], width: number): StyledLine[] {
	const rows: StyledLine[] = [];
	for (const line of lines) {
		// No spread: one huge line wraps into more rows than a call may take arguments.
		for (const row of wrapLine(line, width)) {
			rows.push(row);
		}
	}

	return rows;
}

/** One logical line's rows: code cut at the column, prose between words; only the first `maxRows` when given. */
function wrapLine(line: Span[], width: number, maxRows?: number): StyledLine[] {
	return (codeLines.has(line) ? wrapSpans : wrapProseSpans)(line, width, maxRows);
}

/** One top-level block's logical lines, before wrapping (code lines marked as such). */
function blockLogicalLines(block: MarkdownBlock, options: MarkdownLayoutOptions, links: Links | undefined): Span[][] {
	markdownLayoutStats.blocksLaidOut++;
	markdownLayoutStats.charsLaidOut += block.text.length;
	switch (block.kind) {
		case 'fence': {
			return asCode(codeBlockLines(fencedCode(block.text, block.lang, block.closed), options.theme));
		}

		case 'plain': {
			return plainLines(block.text, {});
		}

		case 'markdown': {
			const context: Context = {theme: options.theme, width: options.width, prefix: [], style: {}, depth: 0};
			const lexed = lexBlock(block.text, links);
			const lines = blockLines(lexed.tokens, context, true);
			return lexed.rest === '' ? lines : [...lines, ...plainLines(lexed.rest, {})];
		}
	}
}

/** One top-level block's rows, uncached. */
function layoutBlockUncached(block: MarkdownBlock, options: MarkdownLayoutOptions, links: Links | undefined): StyledLine[] {
	return wrapAll(blockLogicalLines(block, options, links), options.width);
}

/** Whether a blank row goes between a block that has rows and the rows before it: a plain chunk continuing the block before it in the source gets none. */
function blankRowBefore(block: MarkdownBlock, rowsBefore: boolean): boolean {
	return rowsBefore && !(block.kind === 'plain' && block.joined);
}

/** The link definitions a block's layout depends on: only a block that may hold a reference link depends on the other blocks'. */
function linksFor(block: MarkdownBlock, definitions: {links: Links | undefined; key: string}): {links: Links | undefined; key: string} | undefined {
	return block.kind === 'markdown' && block.text.includes('[') ? definitions : undefined;
}

type Entry = {readonly theme: Theme; readonly lines: readonly StyledLine[]};

/** An LRU bounded by entry count and by the characters of its keys (the Markdown source). */
class BoundedCache {
	private readonly entries: LruCache<string, Entry>;
	constructor(limit: number) {
		this.entries = new LruCache(limit, {of: key => key.length, limit: CACHE_CHARS_LIMIT});
	}

	get(key: string, theme: Theme): readonly StyledLine[] | undefined {
		const hit = this.entries.get(key);
		return hit === undefined || hit.theme !== theme ? undefined : hit.lines;
	}

	set(key: string, theme: Theme, lines: readonly StyledLine[]): void {
		this.entries.set(key, {theme, lines});
	}

	clear(): void {
		this.entries.clear();
	}

	get size(): number {
		return this.entries.size;
	}
}

const blockCache = new BoundedCache(MARKDOWN_BLOCK_CACHE_LIMIT);
const messageCache = new BoundedCache(MARKDOWN_MESSAGE_CACHE_LIMIT);

/** Counts of layout work done, for tests and benches: blocks laid out (cache misses) and their characters. */
export const markdownLayoutStats = {blocksLaidOut: 0, charsLaidOut: 0};

/** Forget every cached Markdown layout (tests, theme switches). */
export function clearMarkdownCache(): void {
	blockCache.clear();
	messageCache.clear();
	recentSplits.length = 0;
}

/** How many blocks and messages are cached. */
export function markdownCacheSize(): {readonly blocks: number; readonly messages: number} {
	return {blocks: blockCache.size, messages: messageCache.size};
}

/** The link reference definitions of every block, first definition of a label winning. */
function definitionsOf(blocks: readonly MarkdownBlock[]): {links: Links | undefined; key: string} {
	let links: Record<string, {href: string; title: null}> | undefined;
	for (const block of blocks) {
		if (block.kind === 'markdown' && block.definitions !== undefined) {
			links ??= {};
			for (const [label, href] of block.definitions) {
				links[label] ??= {href, title: null};
			}
		}
	}

	return {links, key: links === undefined ? '' : JSON.stringify(links)};
}

const blankRow: StyledLine = Object.freeze({spans: Object.freeze([]) as readonly Span[]});

/**
Rows a caller keeps per block, by the block's start in the message (a streaming message: an append
re-splits only its tail, and every other block keeps its start and text), so its blocks survive
evictions from the shared cache and are found without hashing their text.
*/
export type BlockMemo = Map<number, {readonly text: string; readonly key: string; readonly theme: Theme; readonly lines: readonly StyledLine[]}>;

/** The rows of a split message: each block's cached rows, a blank row between blocks. */
export function layoutSplit(split: MarkdownSplit, options: MarkdownLayoutOptions, memo?: BlockMemo): readonly StyledLine[] {
	if (options.width <= 0) {
		return [];
	}

	const definitions = definitionsOf(split.blocks);
	const rows: StyledLine[] = [];
	for (const [index, block] of split.blocks.entries()) {
		const lines = blockRows(block, linksFor(block, definitions), options, memo, memo !== undefined && index === split.blocks.length - 1);
		if (lines.length > 0) {
			if (blankRowBefore(block, rows.length > 0)) {
				rows.push(blankRow);
			}

			for (const line of lines) {
				rows.push(line);
			}
		}
	}

	return Object.freeze(rows);
}

/**
One block's rows: the caller's memo, else the shared cache, else laid out. `open`: the last block of
a message still streaming, which the next delta changes — kept in the memo only, since each of its
versions in the shared cache would stay there unused (a 3 000-line code block streamed line by line
filled it with hundreds of MB of rows).
*/
function blockRows(block: MarkdownBlock, links: {links: Links | undefined; key: string} | undefined, options: MarkdownLayoutOptions, memo: BlockMemo | undefined, open: boolean): readonly StyledLine[] {
	const optionsKey = `${options.width}\u0000${options.theme.name}\u0000${block.kind}\u0000${links?.key ?? ''}`;
	const memoized = memo?.get(block.start);
	if (memoized !== undefined && memoized.text === block.text && memoized.key === optionsKey && memoized.theme === options.theme) {
		return memoized.lines;
	}

	const key = options.cache === false || open ? undefined : `${optionsKey}\u0000${block.text}`;
	let lines = key === undefined ? undefined : blockCache.get(key, options.theme);
	if (lines === undefined) {
		lines = Object.freeze(layoutBlockUncached(block, options, links?.links));
		if (key !== undefined) {
			blockCache.set(key, options.theme, lines);
		}
	}

	memo?.set(block.start, {text: block.text, key: optionsKey, theme: options.theme, lines});
	return lines;
}

/**
Characters of a block a tail is laid out from at most (`layoutSplitTail`): enough for many screens of
rows, so only a block longer than that is cut.
*/
export const TAIL_WINDOW_CHARS = 16 * 1024;

/**
The end of a split message laid out: `rows`, which begin at block `first` (all blocks laid out:
`first` is 0), `cut` characters into it when only its window was laid out.
*/
export type SplitTail = {readonly rows: readonly StyledLine[]; readonly first: number; readonly cut: number};

/**
The end of a split message with at least `count` rows when it has them, laid out from the last block
back, so its cost is the rows shown, not the message: a streaming answer's live view. A block
longer than `TAIL_WINDOW_CHARS` (or twice `count` full rows, if more) is laid out from where its
last window starts (a line start when one is there, else a space), as the same kind of block: a
code block's window is code, without its opening fence row. Blocks are memoized by start in `memo`;
the last one only there.
*/
export function layoutSplitTail(split: MarkdownSplit, options: MarkdownLayoutOptions, count: number, memo: BlockMemo): SplitTail {
	if (options.width <= 0 || split.blocks.length === 0) {
		return {rows: [], first: split.blocks.length, cut: 0};
	}

	const window = Math.max(TAIL_WINDOW_CHARS, 2 * count * options.width);
	const definitions = definitionsOf(split.blocks);
	const pieces: Array<readonly StyledLine[]> = [];
	let taken = 0;
	let first = split.blocks.length;
	let cut = 0;
	// The block whose rows come after the current one's (a blank row may separate them).
	let later: MarkdownBlock | undefined;
	for (let index = split.blocks.length - 1; index >= 0 && taken < count; index--) {
		const block = split.blocks[index]!;
		const open = index === split.blocks.length - 1;
		cut = block.text.length > window ? windowStart(block.text, window) : 0;
		const lines = cut === 0 ? blockRows(block, linksFor(block, definitions), options, memo, open) : windowRows(block, cut, options, memo, open);
		first = index;
		if (lines.length === 0) {
			continue;
		}

		// `layoutSplit`'s blank row between blocks, read from this side.
		if (later !== undefined && blankRowBefore(later, true)) {
			pieces.push([blankRow]);
			taken++;
		}

		pieces.push(lines);
		taken += lines.length;
		later = block;
		if (cut > 0) {
			break;
		}
	}

	const rows: StyledLine[] = [];
	for (let index = pieces.length - 1; index >= 0; index--) {
		for (const row of pieces[index]!) {
			rows.push(row);
		}
	}

	return {rows, first, cut};
}

/**
Lines (rows that begin one) of a split message's blocks, counted once per block and kept for the
blocks that no append can change, so a streaming message's tail knows how many lines are above it
without laying them out again.
*/
export type LineCounts = {key: string; blocks: MarkdownBlock[]; before: number[]};

/** A fresh `LineCounts`. */
export function lineCounts(): LineCounts {
	return {key: '', blocks: [], before: [0]};
}

/**
How many lines of `split`'s layout come before block `index`'s rows (its blank row included), as
`layoutSplit` would lay them out. Blocks already counted in `counts` (the same objects) are not
laid out again; the others are, through the shared cache, and counted.
*/
export function linesBefore(split: MarkdownSplit, index: number, options: MarkdownLayoutOptions, counts: LineCounts): number {
	const key = `${options.width}\u0000${options.theme.name}`;
	let kept = 0;
	if (counts.key === key) {
		while (kept < counts.blocks.length && kept < index && counts.blocks[kept] === split.blocks[kept]) {
			kept++;
		}
	}

	counts.key = key;
	counts.blocks.length = kept;
	counts.before.length = kept + 1;
	const definitions = definitionsOf(split.blocks);
	for (let at = kept; at < index; at++) {
		const block = split.blocks[at]!;
		const lines = blockRows(block, linksFor(block, definitions), options, undefined, false);
		let starts = 0;
		for (const row of lines) {
			starts += row.softWrap === true ? 0 : 1;
		}

		const before = counts.before[at]!;
		counts.blocks.push(block);
		counts.before.push(before + (starts > 0 && blankRowBefore(block, before > 0) ? 1 : 0) + starts);
	}

	const before = counts.before[index]!;
	const block = split.blocks[index];
	// The blank row that separates block `index` from the rows above it.
	return before + (block !== undefined && before > 0 && blankRowBefore(block, true) ? 1 : 0);
}

/** Where a block's last `window` characters start: after a line break in them, else after a space, else exactly there. */
function windowStart(text: string, window: number): number {
	const earliest = text.length - window;
	const line = text.indexOf('\n', earliest);
	if (line >= 0 && line < text.length - 1) {
		return line + 1;
	}

	const space = text.indexOf(' ', earliest);
	return space >= 0 && space < text.length - 1 ? space + 1 : earliest;
}

/** The rows of `block`'s text from `cut` on, laid out as a block of its kind (a code block's window without its opening fence row). */
function windowRows(block: MarkdownBlock, cut: number, options: MarkdownLayoutOptions, memo: BlockMemo, open: boolean): readonly StyledLine[] {
	// Windows are memoized apart from whole blocks: keyed by the start of the window.
	const start = -1 - (block.start + cut);
	const text = block.text.slice(cut);
	const optionsKey = `${options.width}\u0000${options.theme.name}\u0000window`;
	const memoized = memo.get(start);
	if (memoized !== undefined && memoized.text === text && memoized.key === optionsKey && memoized.theme === options.theme) {
		return memoized.lines;
	}

	const part: MarkdownBlock = block.kind === 'fence'
		? {...block, text: `${block.marker}${block.lang}\n${text}`}
		: block.kind === 'plain' ? {...block, text} : {kind: 'markdown', text, start: block.start + cut};
	const logical = blockLogicalLines(part, options, undefined);
	const rows = wrapAll(part.kind === 'fence' ? logical.slice(1) : logical, options.width);
	if (rows.length > 0 && block.text[cut - 1] !== '\n') {
		// A window that starts inside a line continues it.
		rows[0] = {...rows[0]!, softWrap: true};
	}

	const lines = Object.freeze(rows);
	if (!open) {
		memo.set(start, {text, key: optionsKey, theme: options.theme, lines});
	}

	return lines;
}

/** Splits of recently laid-out texts, so a text extending one of them re-splits only its tail. */
const recentSplits: MarkdownSplit[] = [];
const RECENT_SPLITS = 16;

function splitOf(text: string): MarkdownSplit {
	let best: MarkdownSplit | undefined;
	for (const split of recentSplits) {
		if (split.text.length <= text.length && (best === undefined || split.text.length > best.text.length) && text.startsWith(split.text)) {
			best = split;
		}
	}

	const split = best === undefined ? splitMarkdown(text) : extendSplit(best, text);
	const index = recentSplits.indexOf(best!);
	if (index >= 0) {
		recentSplits.splice(index, 1);
	}

	recentSplits.push(split);
	if (recentSplits.length > RECENT_SPLITS) {
		recentSplits.shift();
	}

	return split;
}

/**
A Markdown message as styled rows no wider than `options.width` (`width <= 0`: no rows). Pure and
memoized; rows are frozen and shared between calls. Laying out a text that extends an earlier one
(a streamed message) reuses that text's blocks, so only the last block is lexed again.
*/
export function layoutMarkdown(text: string, options: MarkdownLayoutOptions): readonly StyledLine[] {
	if (options.width <= 0) {
		return [];
	}

	if (options.cache === false) {
		return layoutSplit(splitMarkdown(text), options);
	}

	const key = `${options.width}\u0000${options.theme.name}\u0000${text}`;
	const hit = messageCache.get(key, options.theme);
	if (hit !== undefined) {
		return hit;
	}

	const lines = layoutSplit(splitOf(text), options);
	messageCache.set(key, options.theme, lines);
	return lines;
}

/**
The first `count` rows of `layoutMarkdown(text, options)`, whether more follow, and how many logical
lines it has (`RowsHead`), for a fold that shows only the first rows. Uncached (print mode), only
the lines that reach those rows are wrapped; the others are counted. Cached, the whole layout is
cached as before and its head is read off it.
*/
export function markdownHead(text: string, options: MarkdownLayoutOptions, count: number): RowsHead {
	if (options.cache !== false) {
		const rows = layoutMarkdown(text, options);
		let lines = 0;
		for (const row of rows) {
			lines += row.softWrap === true ? 0 : 1;
		}

		return {rows: rows.slice(0, count), more: rows.length > count, lines};
	}

	if (options.width <= 0) {
		return {rows: [], more: false, lines: 0};
	}

	const split = splitMarkdown(text);
	const definitions = definitionsOf(split.blocks);
	const rows: StyledLine[] = [];
	let lines = 0;
	let more = false;
	let rowsBefore = false;
	for (const block of split.blocks) {
		const blockLines = blockLogicalLines(block, options, linksFor(block, definitions)?.links);
		if (blockLines.length === 0) {
			continue;
		}

		if (blankRowBefore(block, rowsBefore)) {
			lines++;
			if (rows.length < count) {
				rows.push(blankRow);
			} else {
				more = true;
			}
		}

		rowsBefore = true;
		for (const line of blockLines) {
			lines++;
			if (rows.length < count) {
				const wrapped = wrapLine(line, options.width, count - rows.length);
				pushAll(rows, wrapped);
				// The rows asked for end before the line does: more rows follow.
				more ||= textLength(wrapped) < textLength([{spans: line}]);
			} else {
				more = true;
			}
		}
	}

	return {rows, more, lines};
}

/** Characters of the rows' span texts. */
function textLength(rows: readonly StyledLine[]): number {
	let length = 0;
	for (const row of rows) {
		for (const item of row.spans) {
			length += item.text.length;
		}
	}

	return length;
}

/**
The text a copy of the whole message gives: its Markdown source, sanitized (newlines and tabs kept),
because the source is what the writer meant and pastes into any editor or chat as is.
*/
export function markdownCopyText(text: string): string {
	return sanitizeText(text);
}
