/**
@module The read card body: the path and window (`lines A–B of T`), then the numbered lines with
syntax colours by `lang`. Line numbers are the file's own; the gutter is the one kept on purpose
(with diff markers), and a wrapped line continues as a soft wrap without it.
*/
import type {ReadResultView} from '../../tools/views.js';
import {BodyRows} from './body-rows.js';
import type {BodyContext} from './body-text.js';
import type {CardBody} from './card-body.js';
import {formatCount} from '../text/format.js';
import {highlightLines} from '../highlight/highlight.js';
import {pathSpan} from './path-span.js';
import {sanitizeLine} from '../text/sanitize.js';
import {span, wrapSpans} from '../text/spans.js';
import type {Span} from '../text/styled-line.js';
import type {Theme} from '../text/theme.js';
import {maxOf} from '../text/push-all.js';
import {numberedRows} from '../text/numbered-rows.js';

/** Highlighted spans mapped onto the theme: no colour in monochrome. */
function themed(spans: readonly Span[], theme: Theme): Span[] {
	return spans.map(item => {
		if (item.style === undefined || Object.keys(item.style).length === 0) {
			return span(item.text, theme.body);
		}

		if (theme.name === 'monochrome') {
			const {fg: _dropped, ...rest} = item.style;
			return span(item.text, rest);
		}

		return item;
	});
}

/** The window label: `lines 1–4 of 4`, `line 7 of 12`, or `no lines (from line 40 of 540)`. */
function windowLabel(view: ReadResultView): string {
	const total = formatCount(view.totalLines);
	if (view.lines.length === 0) {
		return `no lines (from line ${formatCount(view.offset)} of ${total})`;
	}

	const first = view.lines[0]!.number;
	const last = view.lines.at(-1)!.number;
	return first === last ? `line ${formatCount(first)} of ${total}` : `lines ${formatCount(first)}–${formatCount(last)} of ${total}`;
}

/** Lines a bounded fold can show at each end; only those are syntax-coloured there. */
const BOUNDED_HIGHLIGHT_LINES = 24;

/**
Syntax colours for the lines a reader can see: none in monochrome or in a summary, the two ends in
a bounded fold (highlighting a 2 000-line window to show 12 rows would be most of the frame's cost).
*/
function visibleHighlights(texts: readonly string[], lang: string | undefined, context: BodyContext): ReadonlyArray<Span[] | undefined> | undefined {
	if (lang === undefined || texts.length === 0 || context.theme.name !== 'color' || context.expansion === 'summary') {
		return undefined;
	}

	if (context.expansion === 'full' || texts.length <= 2 * BOUNDED_HIGHLIGHT_LINES) {
		return highlightLines([...texts], lang);
	}

	const head = highlightLines(texts.slice(0, BOUNDED_HIGHLIGHT_LINES), lang);
	const tail = highlightLines(texts.slice(-BOUNDED_HIGHLIGHT_LINES), lang);
	const middle: Array<Span[] | undefined> = Array.from({length: texts.length - 2 * BOUNDED_HIGHLIGHT_LINES});
	return [...(head ?? Array.from({length: BOUNDED_HIGHLIGHT_LINES})), ...middle, ...(tail ?? Array.from({length: BOUNDED_HIGHLIGHT_LINES}))];
}

/** The read card body. */
export function layoutReadBody(view: ReadResultView, context: BodyContext): CardBody {
	const {theme, width} = context;
	const lines = new BodyRows(context.keep, {pinned: true});
	lines.pushAll(wrapSpans([
		pathSpan(view.path, context),
		span(` · ${windowLabel(view)}`, theme.muted),
	], width));
	lines.pin();

	const texts = view.lines.map(line => sanitizeLine(line.text));
	const highlighted = visibleHighlights(texts, view.lang, context);
	const numberWidth = maxOf(view.lines.map(line => String(line.number).length), 1);
	view.lines.forEach((line, index) => {
		const gutter = span(`${String(line.number).padStart(numberWidth)} `, theme.muted);
		const text = texts[index]!;
		const body = highlighted?.[index] === undefined ? [span(text, theme.body)] : themed(highlighted[index]!, theme);
		lines.pushAll(numberedRows([gutter], body, numberWidth + 1, width));
	});
	return lines.body();
}
