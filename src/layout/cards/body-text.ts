/**
@module Shared pieces of card bodies: sanitized, wrapped text rows and content blocks as text.
Body text is one recessed tone; wrapped continuation rows are soft wraps with no indent, so a line
copied from the terminal comes out whole.
*/
import {parsePathEnvelope} from '../../presentation/path-envelope.js';
import type {ContentBlock} from '../../tools/content.js';
import type {Expansion} from '../text/layout-options.js';
import {sanitizeInline, sanitizeLines} from '../text/sanitize.js';
import {span, wrapSpans} from '../text/spans.js';
import type {Span, StyledLine, Style} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';
import type {RowTarget} from './body-rows.js';
import {pushAll} from '../text/push-all.js';
import {pathSpan} from './path-span.js';

/** What every body layout receives besides its view. */
export type BodyContext = {
	readonly width: number;
	readonly theme: Theme;
	/** The expansion being drawn (already resolved from the card's outcome). */
	readonly expansion: Expansion;
	/** Rows a fold can show at each end of the body; absent (a `full` layout): every row is built. */
	readonly keep?: number;
	/** A `summary` of a body without a pinned footer shows its last row, not its first (a failure: fold-body.ts `preferTail`). */
	readonly summaryFromEnd?: boolean;
	readonly sessionCwd?: string;
};

/**
Whether a body needs only its pinned footer: a folded `summary` shows that footer alone when a body
pins one (fold-body.ts), so the bodies that always end in one (diff, search) build nothing else.
*/
export function footerOnly(context: BodyContext): boolean {
	return context.keep !== undefined && context.expansion === 'summary';
}

/** Wrap one logical line of spans into rows. */
export function wrapLine(spans: readonly Span[], width: number): StyledLine[] {
	return wrapSpans(spans, width);
}

/** Multi-line untrusted text as rows in one style, appended to `rows` (a new array by default). */
export function textRows(text: string, style: Style, width: number): StyledLine[];
export function textRows<T extends RowTarget>(text: string, style: Style, width: number, rows: T): T;
export function textRows(text: string, style: Style, width: number, rows: RowTarget = []): RowTarget {
	for (const line of sanitizeLines(text)) {
		pushAll(rows, wrapSpans(line === '' ? [] : [span(line, style)], width));
	}

	return rows;
}

const fenceLine = /^\s{0,3}(`{3,}|~{3,})[\w+-]*\s*$/;

/**
Markdown-ish text kept readable: leading and trailing blank lines trimmed, and code fence markers
(` ```console `) hidden when they pair up, since the fence is markup, not content.
*/
export function readableText(text: string): string {
	// One line: a lone fence marker does not pair, so only blanks are trimmed away.
	if (!text.includes('\n')) {
		return text.trim() === '' ? '' : text;
	}

	const lines = text.split(/\r?\n/);
	const fences = lines.filter(line => fenceLine.test(line)).length;
	const kept = fences > 0 && fences % 2 === 0 ? lines.filter(line => !fenceLine.test(line)) : lines;
	let start = 0;
	let end = kept.length;
	while (start < end && kept[start]!.trim() === '') {
		start++;
	}

	while (end > start && kept[end - 1]!.trim() === '') {
		end--;
	}

	return kept.slice(start, end).join('\n');
}

/**
`[image 640×480]`, `[image diagram.png 640×480]`, `[audio]`: a placeholder for a non-text block.
The name, sizes and block type come from the log, so the placeholder is sanitized as one row.
*/
export function blockPlaceholder(block: ContentBlock | {readonly type: string}): string {
	if (block.type === 'image' && 'attachment' in block) {
		const {attachment} = block;
		const name = typeof attachment.name === 'string' && attachment.name !== '' ? `${attachment.name} ` : '';
		return sanitizeInline(`[image ${name}${attachment.width}×${attachment.height}]`);
	}

	return sanitizeInline(`[${block.type}]`);
}

/**
Content blocks as rows: text as readable text in `style` (a path envelope as its path, then its
content), reasoning in italics, every other block
(an image, or a block type from a newer producer) as a muted placeholder row.
*/
export function contentRows(blocks: readonly ContentBlock[], style: Style, context: BodyContext): StyledLine[];
export function contentRows<T extends RowTarget>(blocks: readonly ContentBlock[], style: Style, context: BodyContext, rows: T): T;
export function contentRows(blocks: readonly ContentBlock[], style: Style, context: BodyContext, rows: RowTarget = []): RowTarget {
	const {theme, width} = context;
	for (const block of blocks as ReadonlyArray<ContentBlock | {readonly type: string}>) {
		if (block.type === 'text' && 'text' in block && typeof block.text === 'string') {
			const envelope = parsePathEnvelope(block.text);
			if (envelope !== undefined) {
				// The model-facing wrapper as a person reads it: the path and type, then the content.
				pushAll(rows, wrapSpans([pathSpan(envelope.path, context), span(` · ${sanitizeInline(envelope.type)}`, theme.muted)], width));
			}

			const text = readableText(envelope?.body ?? block.text);
			if (text !== '') {
				textRows(text, style, width, rows);
			}
		} else if (block.type === 'reasoning' && 'text' in block && typeof block.text === 'string') {
			textRows(readableText(block.text), {...theme.muted, italic: true}, width, rows);
		} else {
			pushAll(rows, wrapSpans([span(blockPlaceholder(block as ContentBlock), theme.muted)], width));
		}
	}

	return rows;
}
