/**
@module What the person said: `› ` before the first row, the text in the default tone, wrapped between words with
soft wraps and no indent so a copied paragraph comes out whole. Each `@` reference of the message is a
chip in its text and has a row of its own under it, as a card's header says what a call did: what was
attached and how much (lines, bytes, estimated tokens), or what was not and why. Then a muted row for
each attached image (`image · PNG · 312.0 KB · 1280×800 · shot.png`).
*/
import type {UserEntry} from '../../presentation/entry.js';
import type {PromptReference} from '../../presentation/prompt-reference.js';
import type {LayoutOptions} from '../text/layout-options.js';
import {foldEntryRows} from './entry-rows.js';
import {imageRowText} from '../../presentation/image-row.js';
import {sizeText} from '../../presentation/size-text.js';
import {formatCount, plural} from '../text/format.js';
import {pushAll} from '../text/push-all.js';
import {sanitizeInline, sanitizeLines} from '../text/sanitize.js';
import {span, wrapHanging, wrapProseSpans} from '../text/spans.js';
import type {Span, StyledLine} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';

export function layoutUserEntry(entry: UserEntry, options: LayoutOptions): StyledLine[] {
	const {theme, width} = options;
	const rows: StyledLine[] = [];
	const lineStarts: number[] = [];
	const images = entry.images ?? [];
	const said = entry.text.trim() !== '';
	const lines = said ? sanitizeLines(entry.text.replace(/^\n+|\n+$/g, '')) : (images.length === 0 ? ['(empty message)'] : []);
	const marker = entry.source === 'steering' ? '» ' : '› ';
	const chips = chipWords(entry.references ?? []);
	for (const [index, line] of lines.entries()) {
		lineStarts.push(rows.length);
		const text = withChips(line, chips, theme);
		const spans = index === 0 ? [span(marker, theme.userMarker), ...text] : (line === '' ? [] : text);
		for (const row of wrapProseSpans(spans, width)) {
			rows.push(row);
		}
	}

	for (const reference of entry.references ?? []) {
		lineStarts.push(rows.length);
		pushAll(rows, referenceRow(reference, theme, width));
	}

	// An attached image: a row of its own under the words (the first row when there are none), like a card's header.
	for (const [index, image] of images.entries()) {
		lineStarts.push(rows.length);
		const lead = index === 0 && lines.length === 0 ? span(marker, theme.userMarker) : span('  ');
		for (const row of wrapProseSpans([lead, span(sanitizeInline(imageRowText(image)), theme.muted)], width)) {
			rows.push(row);
		}
	}

	return foldEntryRows(rows, lineStarts, options.expansion ?? 'full', theme, width);
}

/** The chips' words as the text shows them (sanitized as the text is), longest first so `@a.ts:1-2` wins over `@a.ts`. */
function chipWords(references: readonly PromptReference[]): string[] {
	const words = new Set<string>();
	for (const reference of references) {
		const token = sanitizeInline(reference.token);
		words.add(`@${token}`);
		words.add(`@"${token.replace(/:\d+(?:-\d+)?$/u, '')}"`);
	}

	return [...words].sort((a, b) => b.length - a.length);
}

/** A line of the person's text with each reference's `@token` as a chip. */
function withChips(line: string, chips: readonly string[], theme: Theme): Span[] {
	if (chips.length === 0 || !line.includes('@')) {
		return [span(line, theme.userText)];
	}

	const spans: Span[] = [];
	let plain = '';
	for (let index = 0; index < line.length;) {
		const chip = line[index] === '@' ? chips.find(word => line.startsWith(word, index)) : undefined;
		if (chip === undefined) {
			plain += line[index];
			index++;
			continue;
		}

		if (plain !== '') {
			spans.push(span(plain, theme.userText));
			plain = '';
		}

		spans.push(span(chip, theme.link));
		index += chip.length;
	}

	if (plain !== '') {
		spans.push(span(plain, theme.userText));
	}

	return spans;
}

/** `  ⎿ @src/a.ts:40-80 · lines 40-80 · 41 lines · 1.6 KB · ~410 tokens`, or why it was not attached. */
function referenceRow(reference: PromptReference, theme: Theme, width: number): StyledLine[] {
	const lead = [span('  ⎿ ', theme.muted), span(`@${sanitizeInline(reference.token)}`, theme.link)];
	const {attached} = reference;
	if (attached === undefined) {
		return wrapHanging(lead, [span(` not attached: ${sanitizeInline(reference.refused ?? 'unknown reason')}`, theme.warning)], width);
	}

	const unit = reference.kind === 'folder' ? 'file' : 'line';
	const parts = [
		...(attached.range === undefined ? [] : [`lines ${attached.range.start}-${attached.range.end}`]),
		reference.kind === 'folder' ? `listing of ${plural(attached.lines, unit)}` : plural(attached.lines, unit),
		sizeText(attached.bytes),
		`~${formatCount(attached.tokens)} tokens`,
		...(reference.linked === true ? ['sent as a link (the agent reads it)'] : []),
	];
	const cut = attached.cut === undefined ? [] : [span(` · ${sanitizeInline(attached.cut)}`, theme.warning)];
	return wrapHanging(lead, [span(` ${parts.join(' · ')}`, theme.muted), ...cut], width);
}
